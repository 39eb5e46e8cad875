// fontkit ships no types; lettering.ts describes the little of it that it uses.
declare module 'fontkit' {
  export function openSync(path: string): unknown;
}
