import { hash, randomBytes } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const KEY_PATTERN = /^nsh_[A-Za-z0-9]{32}$/;

/** `nsh_` + 32 base62 characters (~190 bits), drawn without modulo bias. */
export function generateApiKey(): string {
  let out = '';
  while (out.length < 32) {
    for (const b of randomBytes(48)) {
      // 248 = 4 × 62: bytes at or above it would favour the first characters.
      if (b < 248 && out.length < 32) out += BASE62[b % 62];
    }
  }
  return `nsh_${out}`;
}

/** Keys are stored only as this hash; a key is long and random, so a fast hash is enough. */
export function hashApiKey(key: string): Buffer {
  // One-shot: no Hash object per request.
  return hash('sha256', key, 'buffer');
}

/** What the dashboard shows to tell keys apart: the prefix and the first four random characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, 8);
}
