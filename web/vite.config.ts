import { defineConfig } from 'vite';

// Built by scripts/build-web.ts (npm start, npm test) into web/dist, served by the API processes
// (src/http/webApp.ts). Preact's JSX needs no plugin: the transform is told where the runtime lives.
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: '/',
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    // Hashed names under /assets/: served immutable for a year.
    assetsDir: 'assets',
    reportCompressedSize: false,
  },
});
