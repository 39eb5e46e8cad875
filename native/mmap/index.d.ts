/** Maps `path` (private, copy on write) into an ArrayBuffer; null where the addon was not built. */
export declare const map: ((path: string) => ArrayBuffer) | null;
