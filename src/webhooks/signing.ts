// The headers of a delivery: X-Nishaan-Signature (the contract's sha256=<hex HMAC of the raw body>,
// keyed with the secret's text) and the Standard Webhooks trio, whose key is the secret's bytes
// (the base64 part of a whsec_ secret, the text of any other).
import { createHmac } from 'node:crypto';

export function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

export function signatureHeaders(secret: string, messageId: string, body: string, now = new Date()): Record<string, string> {
  const ts = String(Math.floor(now.getTime() / 1000));
  const hex = createHmac('sha256', secret).update(body).digest('hex');
  const std = createHmac('sha256', standardKey(secret)).update(`${messageId}.${ts}.${body}`).digest('base64');
  return {
    'X-Nishaan-Signature': `sha256=${hex}`,
    'webhook-id': messageId,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${std}`,
  };
}

/** The webhook-id of an event's delivery to one webhook: the same on every attempt and replay. */
export const messageId = (outboxId: number | string, webhookId: string) => `msg_${outboxId}_${webhookId.replace(/-/g, '')}`;
