// Webhook secrets must be used again (to sign), so they are encrypted, not hashed: AES-256-GCM under
// a key derived from WEBHOOK_SECRET_KEY, with the webhook's id as associated data so a ciphertext
// copied to another row does not decrypt. Plain secrets live only in memory while signing.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV = 12;
const TAG = 16;

export class SecretBox {
  private readonly key: Buffer;

  constructor(material: string) {
    this.key = Buffer.from(hkdfSync('sha256', material, 'nishaan-webhook-secrets', 'aes-256-gcm v1', 32));
  }

  seal(secret: string, webhookId: string): Buffer {
    const iv = randomBytes(IV);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(webhookId));
    const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]);
  }

  open(sealed: Buffer, webhookId: string): string {
    const d = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV));
    d.setAAD(Buffer.from(webhookId));
    d.setAuthTag(sealed.subarray(IV, IV + TAG));
    return Buffer.concat([d.update(sealed.subarray(IV + TAG)), d.final()]).toString('utf8');
  }
}

/** A fresh secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Why a client's secret is unusable, or null. */
export function secretProblem(secret: string): string | null {
  if (secret.startsWith('whsec_')) {
    const b64 = secret.slice(6);
    const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(b64) ? Buffer.from(b64, 'base64') : Buffer.alloc(0);
    if (bytes.length < 24 || bytes.length > 64) return 'a whsec_ secret must be 24 to 64 bytes in base64';
    return null;
  }
  if (secret.length < 16 || secret.length > 256) return 'secret must be 16 to 256 characters';
  if (!/^[\x21-\x7e]+$/.test(secret)) return 'secret must be printable ASCII without spaces';
  return null;
}
