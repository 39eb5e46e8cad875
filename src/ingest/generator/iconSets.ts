import fs from 'node:fs';
import { createRequire } from 'node:module';

// The npm icon and emoji sets the demo register's device marks are drawn from (docs/ingest.md, "Logos"),
// in the Iconify JSON format: each icon an SVG body on the set's square grid. Monochrome sets are drawn in
// the logo's ink (their alpha is the shape); colour sets (emoji) keep their own colours.

export type IconStyle = 'mono' | 'colour';

export interface IconSetInfo {
  prefix: string;
  package: string;
  licence: string;
  style: IconStyle;
}

export const ICON_SETS: readonly IconSetInfo[] = [
  { prefix: 'game-icons', package: '@iconify-json/game-icons', licence: 'CC-BY-3.0', style: 'mono' },
  { prefix: 'mdi', package: '@iconify-json/mdi', licence: 'Apache-2.0', style: 'mono' },
  { prefix: 'tabler', package: '@iconify-json/tabler', licence: 'MIT', style: 'mono' },
  { prefix: 'lucide', package: '@iconify-json/lucide', licence: 'ISC', style: 'mono' },
  { prefix: 'twemoji', package: '@iconify-json/twemoji', licence: 'CC-BY-4.0', style: 'colour' },
  { prefix: 'noto', package: '@iconify-json/noto', licence: 'Apache-2.0', style: 'colour' },
  { prefix: 'fluent-emoji-flat', package: '@iconify-json/fluent-emoji-flat', licence: 'MIT', style: 'colour' },
];

// Figures no installed set draws, drawn here (the project's own): the swastika as Indian marks use it
// (right-facing, with a dot in each arm).
const OWN: Record<string, string> = {
  swastika:
    '<path fill="none" stroke="#000" stroke-width="3" stroke-linecap="square" d="M12 3v18M3 12h18M12 3h9M21 12v9M12 21H3M3 12V3"/>' +
    '<circle cx="7.5" cy="7.5" r="1.5"/><circle cx="16.5" cy="7.5" r="1.5"/>' +
    '<circle cx="16.5" cy="16.5" r="1.5"/><circle cx="7.5" cy="16.5" r="1.5"/>',
};
export const OWN_SET: IconSetInfo = {
  prefix: 'nishaan',
  package: '(drawn in src/ingest/generator/iconSets.ts)',
  licence: 'project',
  style: 'mono',
};

export const SET_BY_PREFIX: ReadonlyMap<string, IconSetInfo> = new Map(ICON_SETS.map((s) => [s.prefix, s]));

interface IconifyJson {
  prefix: string;
  width?: number;
  height?: number;
  icons: Record<string, { body: string; width?: number; height?: number; left?: number; top?: number }>;
}

const require = createRequire(import.meta.url);
const loaded = new Map<string, IconifyJson>();
/** Icons (`set:name`) the renderer may draw; when set, a loaded set keeps only these (emoji sets are tens of MB). */
let kept: ReadonlySet<string> | null = null;

/** Keeps only these icons of every set loaded from now on (the catalogue's), freeing the rest. */
export function keepOnly(keys: Iterable<string>): void {
  kept = new Set(keys);
  loaded.clear();
}

function read(prefix: string): IconifyJson {
  const set = SET_BY_PREFIX.get(prefix);
  if (!set) throw new Error(`unknown icon set ${prefix}`);
  return JSON.parse(fs.readFileSync(require.resolve(`${set.package}/icons.json`), 'utf8')) as IconifyJson;
}

function load(prefix: string): IconifyJson {
  let j = loaded.get(prefix);
  if (!j) {
    j = read(prefix);
    if (kept) {
      const icons: IconifyJson['icons'] = {};
      for (const [name, icon] of Object.entries(j.icons)) if (kept.has(`${prefix}:${name}`)) icons[name] = icon;
      j = { prefix, width: j.width, height: j.height, icons };
    }
    loaded.set(prefix, j);
  }
  return j;
}

/** The icon names of a set (its own icons, not its aliases), sorted; read afresh, whatever keepOnly kept. */
export function iconNamesOf(prefix: string): string[] {
  if (prefix === OWN_SET.prefix) return Object.keys(OWN).sort();
  return Object.keys(read(prefix).icons).sort();
}

export function setVersion(prefix: string): string {
  const set = SET_BY_PREFIX.get(prefix);
  if (!set) throw new Error(`unknown icon set ${prefix}`);
  return (JSON.parse(fs.readFileSync(require.resolve(`${set.package}/package.json`), 'utf8')) as { version: string }).version;
}

/**
 * Icon `set:name` as a standalone SVG document, `size` px square if given (else the set's grid); a
 * monochrome icon's currentColor is black (its alpha is what the renderer reads).
 */
export function iconSvg(key: string, size?: number): Buffer {
  const [prefix, name] = key.split(':');
  if (prefix === OWN_SET.prefix && OWN[name]) {
    return Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="${size ?? 24}" height="${size ?? 24}">${OWN[name]}</svg>`,
    );
  }
  let j = load(prefix);
  // A set trimmed to the demo catalogue's icons (keepOnly) is read whole for an icon outside it, and not kept so.
  if (!j.icons[name] && kept) j = read(prefix);
  const icon = j.icons[name];
  if (!icon) throw new Error(`no icon ${key}`);
  const w = icon.width ?? j.width ?? 16;
  const h = icon.height ?? j.height ?? 16;
  const body = icon.body.replaceAll('currentColor', '#000');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
      `viewBox="${icon.left ?? 0} ${icon.top ?? 0} ${w} ${h}" width="${size ?? w}" height="${size ?? h}">${body}</svg>`,
  );
}
