import express, { type Response, type Router } from 'express';
import { AppError } from '../errors.ts';

// What Express keeps of each route, read to list the methods each path pattern answers.
interface Layer {
  route?: { path: unknown; methods: Record<string, boolean | undefined> };
  handle: { stack?: Layer[] };
}

const allowed = new WeakMap<Response, Set<string>>();

/**
 * A request for a path that exists, with a method it does not have, is 405 with Allow naming the
 * methods the path has (those of every route its path matches), where it would otherwise fall
 * through to 404 "no such endpoint". Made once every route is mounted: it reads the routes of `app`
 * and of the routers mounted at its root, which is how this app mounts them. OPTIONS is left to Express.
 */
export function methodNotAllowed(app: { router: Router }): Router {
  const methods = new Map<string, Set<string>>();
  const read = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.handle.stack) read(layer.handle.stack);
      const route = layer.route;
      if (!route || typeof route.path !== 'string') continue;
      const set = methods.get(route.path) ?? new Set<string>();
      for (const [m, on] of Object.entries(route.methods)) if (on && m !== '_all') set.add(m.toUpperCase());
      // Express answers HEAD wherever it answers GET.
      if (set.has('GET')) set.add('HEAD');
      methods.set(route.path, set);
    }
  };
  read((app.router as unknown as { stack: Layer[] }).stack);

  const probe = express.Router();
  for (const [path, set] of methods) {
    probe.all(path, (_req, res, next) => {
      const seen = allowed.get(res) ?? new Set<string>();
      for (const m of set) seen.add(m);
      allowed.set(res, seen);
      next();
    });
  }
  probe.use((req, res, next) => {
    const seen = allowed.get(res);
    if (!seen || seen.has(req.method) || req.method === 'OPTIONS') return next();
    const allow = [...seen].sort().join(', ');
    next(
      new AppError('method_not_allowed', `${req.method} is not allowed on ${req.path}: it answers ${allow}`, undefined, { Allow: allow }),
    );
  });
  return probe;
}
