import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { marked } from 'marked';

/** Where the guides live: the repository's docs/ folder, shipped with the server. */
export const GUIDES_DIR = path.resolve(import.meta.dirname, '../../docs');

/** A guide's address, as the API document and the guides themselves link to it. */
export const guideUrl = (name: string, anchor = '') => `/docs/guides/${name}${anchor}`;

// Our own pages (the repository's docs), drawn as HTML: no script at all, styles inline.
const GUIDES_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;color:#1a1a1a}
pre,code{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f3f6fa;padding:.75rem;overflow-x:auto}
table{border-collapse:collapse;display:block;overflow-x:auto}td,th{border:1px solid #c4c4c4;padding:.25rem .5rem;vertical-align:top}
a{color:#0b5394}`;

/** Links between guides (`plans.md#log-in`, `docs/plans.md`) become their addresses. */
export function linkGuides(text: string): string {
  return text.replace(/(?<![\w/.-])(?:docs\/)?([a-z][a-z0-9-]*)\.md(#[\w-]+)?/g, (_m, name: string, anchor?: string) =>
    guideUrl(name, anchor ?? ''),
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${title} · Nishaan</title><style>${STYLE}</style></head>
<body><nav><a href="/docs/guides/">Guides</a> · <a href="/docs">API reference</a></nav>
${body}</body></html>`;
}

/** The guides (docs/*.md) as pages at /docs/guides/{name}, and their list at /docs/guides/; read and drawn once. */
export function guidesRouter(dir = GUIDES_DIR): Router {
  const router = express.Router();
  const names = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .map((f) => f.slice(0, -3))
    : [];
  const drawn = new Map<string, string>();
  const send = (res: express.Response, html: string) => {
    res.setHeader('Content-Security-Policy', GUIDES_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  };
  router.get('/docs/guides/', (_req, res) => {
    const list = ['getting-started', ...names.filter((n) => n !== 'getting-started').sort()].filter((n) => names.includes(n));
    send(res, page('Guides', `<h1>Guides</h1><ul>${list.map((n) => `<li><a href="${guideUrl(n)}">${n}</a></li>`).join('')}</ul>`));
  });
  router.get('/docs/guides/:name', (req, res, next) => {
    const name = req.params.name;
    if (!names.includes(name)) return next();
    let html = drawn.get(name);
    if (!html) {
      const md = fs.readFileSync(path.join(dir, `${name}.md`), 'utf8');
      const title = /^#\s+(.+)$/m.exec(md)?.[1] ?? name;
      html = page(title.replace(/[<>&]/g, ''), linkGuides(marked.parse(md, { async: false })));
      drawn.set(name, html);
    }
    send(res, html);
  });
  return router;
}
