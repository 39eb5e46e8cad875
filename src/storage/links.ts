import type { ObjectStore } from './objectStore.ts';

/** The 30-minute link shape every response uses; `expires_in` is text, as the contract shows. */
export function signedLink(store: ObjectStore, key: string, accountId: string) {
  const { url, expiresAt } = store.signedUrl(key, { accountId });
  return { url, expires_in: '30 minutes', expires_at: expiresAt.toISOString() };
}
