import { useEffect, useRef, useState } from 'preact/hooks';
import { useDashStrings } from './strings.ts';

// The part of an upload to search (logo search's `region`): the picture shown, a box dragged over it with the mouse,
// a finger or a pen, and the box as `x,y,w,h` in the picture's own pixels in a field that can also be typed in (the
// way a keyboard or a screen reader sets it). An empty field searches the whole picture.

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const parse = (v: string): Box | null => {
  const m = /^(\d+),(\d+),(\d+),(\d+)$/.exec(v.trim());
  return m ? { x: Number(m[1]), y: Number(m[2]), w: Number(m[3]), h: Number(m[4]) } : null;
};

export function RegionPicker({ file, value, onChange }: { file: File | null; value: string; onChange: (v: string) => void }) {
  const s = useDashStrings();
  const [url, setUrl] = useState<string | null>(null);
  const img = useRef<HTMLImageElement>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const [, redraw] = useState(0);

  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);

  /** A pointer's place in the picture's own pixels, kept inside it. */
  const at = (e: PointerEvent) => {
    const el = img.current!;
    const r = el.getBoundingClientRect();
    const k = el.naturalWidth / r.width;
    const clamp = (v: number, max: number) => Math.max(0, Math.min(max, Math.round(v)));
    return { x: clamp((e.clientX - r.left) * k, el.naturalWidth), y: clamp((e.clientY - r.top) * k, el.naturalHeight) };
  };
  const boxTo = (p: { x: number; y: number }) => {
    const a = start.current!;
    const b = { x: Math.min(a.x, p.x), y: Math.min(a.y, p.y), w: Math.abs(p.x - a.x), h: Math.abs(p.y - a.y) };
    onChange(b.w > 0 && b.h > 0 ? `${b.x},${b.y},${b.w},${b.h}` : '');
  };
  const down = (e: PointerEvent) => {
    if (!img.current) return;
    e.preventDefault();
    start.current = at(e);
    // The box follows the pointer past the picture's edge (clamped to it) until it is let go.
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
  };
  const move = (e: PointerEvent) => start.current && boxTo(at(e));
  const up = (e: PointerEvent) => {
    if (!start.current) return;
    boxTo(at(e));
    start.current = null;
  };

  const box = parse(value);
  const el = img.current;
  const k = el?.naturalWidth ? el.clientWidth / el.naturalWidth : 0;
  return (
    <>
      {url && (
        <div class="dash-region" onPointerDown={down} onPointerMove={move} onPointerUp={up}>
          <img ref={img} src={url} alt={s.regionPicture} onLoad={() => redraw((n) => n + 1)} draggable={false} />
          {box && k > 0 && (
            <div
              class="dash-region-box"
              style={{ left: `${box.x * k}px`, top: `${box.y * k}px`, width: `${box.w * k}px`, height: `${box.h * k}px` }}
            />
          )}
        </div>
      )}
      <label>
        {s.region}
        <input name="region" value={value} onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)} placeholder="x,y,w,h" />
      </label>
      {value && (
        <button type="button" onClick={() => onChange('')}>
          {s.regionClear}
        </button>
      )}
    </>
  );
}
