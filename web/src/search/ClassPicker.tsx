import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api.ts';
import { useSearchStrings } from './strings.ts';

/** Nice class number -> heading, from the public reference endpoint; empty until (or unless) it answers. */
export function useClassTitles(): Map<number, string> {
  const [titles, setTitles] = useState(() => new Map<number, string>());
  useEffect(() => {
    api.GET('/public/v1/tm-classes/').then(
      ({ data }) => data && setTitles(new Map(data.classes.map((c) => [c.class, c.heading]))),
      () => undefined, // the picker still offers the 45 numbers
    );
  }, []);
  return titles;
}

const CLASSES = Array.from({ length: 45 }, (_, i) => i + 1);

/** The 45 Nice classes as checkboxes in a disclosure, their headings beside them. */
export function ClassPicker(props: { titles: Map<number, string>; chosen: number[]; onChange(classes: number[]): void }) {
  const s = useSearchStrings();
  const { chosen, onChange, titles } = props;
  const toggle = (c: number, on: boolean) => onChange(on ? [...chosen, c].sort((a, b) => a - b) : chosen.filter((x) => x !== c));
  return (
    <details class="classes">
      <summary>
        {s.classes}: {chosen.length ? chosen.join(', ') : s.classesChosen(0)}
      </summary>
      <fieldset>
        <legend class="visually-hidden">{s.classes}</legend>
        {chosen.length ? (
          <button type="button" class="link" onClick={() => onChange([])}>
            {s.classesClear}
          </button>
        ) : null}
        <ul>
          {CLASSES.map((c) => (
            <li key={c}>
              <label>
                <input type="checkbox" value={c} checked={chosen.includes(c)} onChange={(e) => toggle(c, e.currentTarget.checked)} />
                {s.classLabel(c, titles.get(c) ?? '')}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
    </details>
  );
}
