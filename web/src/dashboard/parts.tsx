import { useEffect, useState } from 'preact/hooks';
import { dash, errorText, getTabKey, onTabKey, setTabKey } from './client.ts';
import { useDashStrings } from './strings.ts';

/** A secret shown once (a new key or signing secret), selectable, with an offer to use a key in this tab. */
export function NewSecret({ label, value, useInTab, keyId }: { label: string; value: string; useInTab?: boolean; keyId?: string }) {
  const s = useDashStrings();
  return (
    <div class="dash-secret" role="status">
      <label>
        {label}
        <input readOnly value={value} class="dash-mono" onFocus={(e) => e.currentTarget.select()} />
      </label>
      <p>{s.shownOnce}</p>
      {useInTab && (
        <button type="button" onClick={() => setTabKey({ key: value, id: keyId ?? null })}>
          {s.useInTab}
        </button>
      )}
    </div>
  );
}

/** Re-renders when this tab's key changes; returns it. */
export function useTabKey() {
  const [, bump] = useState(0);
  useEffect(() => onTabKey(() => bump((n) => n + 1)), []);
  return getTabKey();
}

/** The API key the keyed pages use: pasted, or made for this tab (and revoked at logout). Memory only. */
export function TabKeyPanel() {
  const s = useDashStrings();
  const key = useTabKey();
  const [error, setError] = useState<string | null>(null);
  const [pasted, setPasted] = useState('');
  async function make() {
    const { data, error } = await dash.POST('/user/v1/keys/', { body: { name: 'dashboard' } });
    if (data) setTabKey({ key: data.api_key, id: data.key.id });
    else setError(errorText(error, s.failed));
  }
  return (
    <section class="dash-panel" aria-labelledby="tab-key">
      <h2 id="tab-key">{s.tabKey}</h2>
      <p class="hint">{s.tabKeyHelp}</p>
      {key ? (
        <p>
          {s.usingKey(key.key.slice(0, 8))}{' '}
          <button type="button" onClick={() => setTabKey(null)}>
            {s.forgetKey}
          </button>
        </p>
      ) : (
        <div class="dash-row">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (/^nsh_[A-Za-z0-9]{32}$/.test(pasted.trim())) setTabKey({ key: pasted.trim(), id: null });
            }}
          >
            <label>
              {s.pasteKey}
              <input
                type="password"
                autoComplete="off"
                pattern="nsh_[A-Za-z0-9]{32}"
                value={pasted}
                onInput={(e) => setPasted(e.currentTarget.value)}
              />
            </label>
            <button type="submit">{s.useKey}</button>
          </form>
          <button type="button" class="primary" onClick={make}>
            {s.makeTabKey}
          </button>
        </div>
      )}
      {error && (
        <p role="alert" class="alert">
          {error}
        </p>
      )}
    </section>
  );
}

export function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" class="alert">
      {error}
    </p>
  ) : null;
}
