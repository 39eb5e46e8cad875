import type { AnchorHTMLAttributes, TargetedMouseEvent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// A router of a few lines: the app has two areas (the public page at /, the dashboard under /app/),
// each reading the rest of the path itself. History API only; the server answers index.html for both.

const NAVIGATE = 'nishaan:navigate';

/** Goes to a path of this app without a page load (replace: without a new history entry). */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  dispatchEvent(new Event(NAVIGATE));
}

/** The current location (path and query), re-rendering on navigation and on back/forward. */
export function useLocation(): { path: string; search: string } {
  const read = () => ({ path: location.pathname, search: location.search });
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const on = () => setLoc(read());
    addEventListener('popstate', on);
    addEventListener(NAVIGATE, on);
    return () => {
      removeEventListener('popstate', on);
      removeEventListener(NAVIGATE, on);
    };
  }, []);
  return loc;
}

/** An <a> that navigates inside the app (a modified click, or one on another origin, is the browser's). */
export function Link({ href, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (e: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return <a {...rest} href={href} onClick={onClick} />;
}
