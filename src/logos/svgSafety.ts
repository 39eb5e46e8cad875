// Reading an SVG before librsvg draws it (sharp draws SVG through librsvg, which parses it with libxml2),
// to refuse what drawing it could reach or cost. Used only by imageInput.ts, which decides what an image
// is; this reads the XML itself, strictly: anything it cannot follow is refused rather than guessed at,
// so that it never reads a document differently from the parser that draws it. Each rule says why.

/** Why an SVG is refused: svg_refused for what it holds, image_dimensions for the size it claims, image_corrupt for bad XML. */
export interface SvgRefusal {
  code: 'svg_refused' | 'image_dimensions' | 'image_corrupt';
  message: string;
}

// A viewBox number past this is no drawing anyone made; scaled to the canvas it only tests the rasteriser's arithmetic.
const MAX_VIEWBOX = 1_000_000;
// Inline images each cost a decode of their own (checked by the caller, imageInput.ts): a logo needs a few, not thousands.
export const MAX_EMBEDDED = 16;
// Elements that run code or embed another document (HTML, in foreignObject): nothing a logo needs, and
// nothing we want the renderer to meet. librsvg runs no script, but refusing does not rely on that.
const FORBIDDEN_ELEMENTS = new Set(['script', 'foreignobject']);
// Inline rasters only: an inline SVG would be drawn without these checks, and other types would be
// handed to other decoders. Base64 only, so the bytes checked are exactly the bytes decoded.
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp);base64,([A-Za-z0-9+/\s]*={0,2}\s*)$/i;
// Pixels per unit at 72 dpi (CSS: 96 px to the inch; librsvg at sharp's default density counts 72).
const UNITS: Record<string, number> = { '': 1, px: 1, pt: 1, pc: 12, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, em: 12, ex: 6 };

class Refused extends Error {
  constructor(readonly refusal: SvgRefusal) {
    super(refusal.message);
  }
}
const refuse = (message: string): never => {
  throw new Refused({ code: 'svg_refused', message: `the SVG is refused: ${message}` });
};
const malformed = (what: string): never => {
  throw new Refused({ code: 'image_corrupt', message: `the SVG file is not well-formed XML: ${what}` });
};

const NAME = /[A-Za-z_][\w.:-]*/y;
// `<` may not appear in an attribute value (XML 1.0); unquoted values are not XML.
const ATTR = /\s+([^\s=/>"'<]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;
const END_TAG = /<\/([A-Za-z_][\w.:-]*)\s*>/y;

const localName = (qname: string) => qname.slice(qname.lastIndexOf(':') + 1);
// XML's and CSS's white space only: a value trimmed of more (a no-break space) would be judged as other than the parser reads it.
const trimmed = (s: string) => s.replace(/^[ \t\r\n\f]+|[ \t\r\n\f]+$/g, '');
const shown = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/**
 * Why the SVG may not be drawn, or null. Its inline data: images are added to `embedded` (their bytes)
 * for the caller to check as it checks any raster; `maxSide` is the most pixels a side it may say it has
 * (at 72 dpi, as sharp reads it).
 */
export function svgRefusal(buf: Buffer, embedded: Buffer[], maxSide: number): SvgRefusal | null {
  try {
    read(buf, embedded, maxSide);
    return null;
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
}

function read(buf: Buffer, embedded: Buffer[], maxSide: number): void {
  let text: string;
  try {
    // UTF-8 only (a byte-order mark is dropped): what is checked here must be the characters libxml2 reads.
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    refuse('it is not UTF-8 text');
    return;
  }
  if (text.includes('\0')) malformed('a NUL character');
  const stack: string[] = [];
  // The text of the <style> element being read: the parser joins its pieces (character data, CDATA,
  // with comments dropped) into one stylesheet, so it is checked whole, when the element ends.
  let style: string | null = null;
  let rootSeen = false;
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (style !== null) style += xmlText(text.slice(i, lt < 0 ? undefined : lt));
    if (lt < 0) break;
    i = lt;
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) malformed('a comment is not closed');
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i);
      if (end < 0) malformed('a CDATA section is not closed');
      if (style !== null) style += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith('<!', i)) {
      // A DOCTYPE brings entities (a billion laughs: a few lines that expand to gigabytes) and external
      // DTDs and entities (files and URLs the parser would read); an SVG needs neither.
      refuse(`it has a DOCTYPE or ENTITY declaration (${shown(text.slice(i, i + 40))}); an SVG needs none: remove it`);
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i);
      if (end < 0) malformed('a processing instruction is not closed');
      declaration(text.slice(i, end + 2), i === 0);
      i = end + 2;
    } else if (text.startsWith('</', i)) {
      END_TAG.lastIndex = i;
      const m = END_TAG.exec(text);
      if (!m || m[1] !== stack.pop()) malformed(`an end tag does not match (${shown(text.slice(i, i + 40))})`);
      if (style !== null && !stack.some(isStyle)) {
        css(style, '<style>', embedded);
        style = null;
      }
      i = END_TAG.lastIndex;
    } else {
      if (rootSeen && !stack.length) malformed('something follows the root element');
      i = startTag(text, i, rootSeen ? null : maxSide, stack, embedded);
      rootSeen = true;
      if (style === null && stack.some(isStyle)) style = '';
    }
  }
  if (!rootSeen) malformed('there is no root element');
  if (stack.length) malformed(`<${stack.at(-1)}> is not closed`);
}

const isStyle = (qname: string) => localName(qname).toLowerCase() === 'style';

/**
 * The XML declaration alone, and only UTF-8: a stylesheet instruction (xml-stylesheet) loads a file, and
 * another encoding would be read by libxml2 differently from here.
 */
function declaration(pi: string, first: boolean): void {
  if (!first || !/^<\?xml\s/.test(pi)) refuse(`it has a processing instruction (${shown(pi)}); only the XML declaration is allowed`);
  const enc = /\bencoding\s*=\s*["']([^"']*)["']/.exec(pi)?.[1];
  if (enc && !/^(utf-?8|us-ascii)$/i.test(enc)) refuse(`it declares the encoding ${shown(enc)}; only UTF-8 is read`);
}

/** Reads one start tag at `at` and checks it (the root's size against `rootMaxSide`); returns where it ends. */
function startTag(text: string, at: number, rootMaxSide: number | null, stack: string[], embedded: Buffer[]): number {
  const root = rootMaxSide !== null;
  NAME.lastIndex = at + 1;
  const name = NAME.exec(text)?.[0];
  if (!name) return malformed(`a "<" that starts no element (${shown(text.slice(at, at + 20))})`);
  const local = localName(name);
  if (root && local !== 'svg') refuse(`its root element is <${name}>, not <svg>`);
  if (FORBIDDEN_ELEMENTS.has(local.toLowerCase())) refuse(`it has a <${name}> element: no script or embedded document is drawn`);
  let p = NAME.lastIndex;
  const attrs: [string, string][] = [];
  for (;;) {
    ATTR.lastIndex = p;
    const m = ATTR.exec(text);
    if (!m) break;
    attrs.push([m[1], xmlText(m[2] ?? m[3])]);
    p = ATTR.lastIndex;
  }
  TAG_END.lastIndex = p;
  const end = TAG_END.exec(text);
  if (!end) return malformed(`the tag <${name}> cannot be read (${shown(text.slice(at, at + 60))})`);
  for (const [attr, value] of attrs) {
    // Namespace declarations name a namespace; nothing is ever fetched from them.
    if (attr === 'xmlns' || attr.startsWith('xmlns:')) continue;
    const a = localName(attr).toLowerCase();
    // href (any prefix: xlink:href, or xi:include's) and src load what they name: only this document's own
    // elements (#id) and inline rasters are allowed, never a file or a URL.
    if (a === 'href' || a === 'src') reference(trimmed(value), `${attr} on <${name}>`, embedded);
    // Any attribute may be CSS to librsvg (style, fill, filter, clip-path, mask, marker…), where url() loads.
    css(value, `${attr} on <${name}>`, embedded);
  }
  if (root) rootSize(attrs, rootMaxSide);
  if (!end[1]) stack.push(name);
  return TAG_END.lastIndex;
}

function reference(target: string, where: string, embedded: Buffer[]): void {
  if (target.startsWith('#') && target.length > 1) return;
  const data = DATA_IMAGE.exec(target);
  if (data) {
    if (embedded.length >= MAX_EMBEDDED) refuse(`it has more than ${MAX_EMBEDDED} inline images`);
    embedded.push(Buffer.from(data[1].replace(/\s+/g, ''), 'base64'));
    return;
  }
  if (/^data:/i.test(target)) refuse(`${where} is an inline data: URI that is not a base64 PNG, JPEG, GIF or WebP image`);
  refuse(`${where} refers to ${shown(target)}: only #fragments of the SVG itself and inline data: images are allowed`);
}

/** CSS text (after XML decoding): every url() is a reference; @import loads a stylesheet. Escapes are undone first, as CSS reads them. */
function css(text: string, where: string, embedded: Buffer[]): void {
  if (!/[\\u@]/i.test(text)) return;
  const t = text.replace(/\\(?:([0-9a-fA-F]{1,6})[ \t\r\n\f]?|([^\r\n\f]))/g, (_, hex: string | undefined, ch: string | undefined) =>
    hex ? codePoint(Number.parseInt(hex, 16)) : (ch ?? ''),
  );
  if (/@import/i.test(t)) refuse(`${where} imports a stylesheet (@import)`);
  for (const m of t.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))/gi))
    reference(trimmed(m[1] ?? m[2] ?? m[3]), `url() in ${where}`, embedded);
}

/** Character and the five predefined entity references undone, as the XML parser does; any other entity can only come from a DTD. */
function xmlText(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&([^;&]*);?/g, (ref, body: string) => {
    if (!ref.endsWith(';')) return malformed(`an "&" that starts no reference (${shown(ref)})`);
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (named[body]) return named[body];
    const n = /^#x([0-9a-fA-F]{1,6})$/.exec(body)
      ? Number.parseInt(body.slice(2), 16)
      : /^#(\d{1,7})$/.test(body)
        ? Number(body.slice(1))
        : -1;
    if (n < 0) return refuse(`it uses the entity &${body}; which only a DTD could define`);
    return codePoint(n);
  });
}

function codePoint(n: number): string {
  if (n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return malformed(`the character reference ${n} is not a character`);
  return String.fromCodePoint(n);
}

/** The root's width, height and viewBox: a side past `maxSide` pixels, or viewBox numbers no drawing has, are refused. */
function rootSize(attrs: [string, string][], maxSide: number): void {
  const get = (n: string) => attrs.find(([a]) => a === n)?.[1];
  const side = (v: string | undefined) => {
    const m = v && /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(px|pt|pc|in|cm|mm|em|ex)?\s*$/.exec(v);
    return m ? Number(m[1]) * UNITS[m[2] ?? ''] : null;
  };
  const w = side(get('width'));
  const h = side(get('height'));
  if ((w !== null && !(w <= maxSide)) || (h !== null && !(h <= maxSide))) {
    throw new Refused({
      code: 'image_dimensions',
      message: `the SVG says it is ${get('width') ?? 'auto'} by ${get('height') ?? 'auto'}; each side must be at most ${maxSide} pixels`,
    });
  }
  const vb = get('viewBox');
  if (vb === undefined) return;
  const n = vb
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (n.length !== 4 || !n.every((x) => Number.isFinite(x) && Math.abs(x) <= MAX_VIEWBOX) || n[2] <= 0 || n[3] <= 0) {
    refuse(`its viewBox ${shown(vb)} is not four numbers within ±${MAX_VIEWBOX} with a positive width and height`);
  }
}
