import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { LangProvider } from './lib/i18n.tsx';
import { Layout } from './lib/Layout.tsx';
import { useLocation } from './lib/router.tsx';
import { MarkPage } from './mark/MarkPage.tsx';
import { SearchPage } from './search/SearchPage.tsx';
import './lib/style.css';

type DashboardModule = typeof import('./dashboard/index.tsx');

/** The dashboard, fetched the first time /app/ is visited: the public page's first render stays small. */
function DashboardArea({ path }: { path: string }) {
  const [mod, setMod] = useState<DashboardModule | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    import('./dashboard/index.tsx').then(setMod, () => setFailed(true));
  }, []);
  if (failed) return <p role="alert">The dashboard could not be loaded; reload the page to try again.</p>;
  if (!mod) return <p aria-busy="true">…</p>;
  return <mod.default path={path} />;
}

function App() {
  const { path } = useLocation();
  const inDashboard = path === '/app' || path.startsWith('/app/');
  const mark = /^\/marks\/([^/]+)\/?$/.exec(path);
  return (
    <Layout>
      {inDashboard ? (
        <DashboardArea path={path.replace(/^\/app\/?/, '')} />
      ) : mark ? (
        <MarkPage appNo={decodeURIComponent(mark[1])} />
      ) : (
        <SearchPage />
      )}
    </Layout>
  );
}

render(
  <LangProvider>
    <App />
  </LangProvider>,
  document.getElementById('root')!,
);
