import path from 'node:path';

/** A file name a desktop accepts: no separators or control characters, and not too long. */
export function safeName(s: string, max = 80): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips from a file name
      .replace(/[\x00-\x1f\x7f/\\:*?"<>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, max)
      .trim() || 'document'
  );
}

/** What a document is offered as: its application number, name and id, with the stored file's extension. */
export function documentFilename(d: { id: number; application_number: string; name: string; object_key: string }): string {
  const ext = path.extname(d.object_key) || '.pdf';
  return `${d.application_number} ${safeName(d.name)} ${d.id}${ext}`;
}
