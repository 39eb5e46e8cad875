import { useEffect, useState } from 'preact/hooks';
import { Link, navigate } from '../lib/router.tsx';
import { Auth, type SessionInfo } from './Auth.tsx';
import { Clearance } from './Clearance.tsx';
import { ClearanceBatch } from './ClearanceBatch.tsx';
import { dash, onSessionEnd, setCsrf } from './client.ts';
import { Keys } from './Keys.tsx';
import { Overview } from './Overview.tsx';
import { Owners } from './Owners.tsx';
import { FeatureNote, PlanPage } from './Plan.tsx';
import { Search } from './Search.tsx';
import { useDashStrings } from './strings.ts';
import { Watches } from './Watches.tsx';
import { Webhooks } from './Webhooks.tsx';
import './dashboard.css';

const SECTIONS = ['', 'plan', 'keys', 'webhooks', 'watches', 'clearance', 'search', 'owners'] as const;
type Section = (typeof SECTIONS)[number];

// The dashboard's entry (issue 23B): loaded on demand under /app/, so the public page's first render does not
// carry it. `path` is the part after /app/. The session is the httpOnly cookie's; this page holds only its
// CSRF token (and, for the keyed API, a key in memory): docs/dashboard.md.
export default function Dashboard({ path }: { path: string }) {
  const s = useDashStrings();
  const [session, setSession] = useState<SessionInfo | null | 'loading'>('loading');
  const [firstKey, setFirstKey] = useState<string | null>(null);

  useEffect(() => {
    dash.GET('/user/v1/session/').then(({ data }) => {
      setCsrf(data?.csrf_token ?? null);
      setSession(data ?? null);
    });
    onSessionEnd(() => {
      setCsrf(null);
      setSession(null);
    });
    return () => onSessionEnd(null);
  }, []);

  if (session === 'loading') return <p aria-busy="true">{s.loading}</p>;
  if (session === null)
    return (
      <Auth
        onIn={(info, key) => {
          setCsrf(info.csrf_token);
          setSession(info);
          setFirstKey(key ?? null);
          navigate('/app/', { replace: true });
        }}
      />
    );

  async function logout() {
    await dash.DELETE('/user/v1/session/');
    setCsrf(null);
    setSession(null);
  }

  // An owner's page is /app/owners/{id}/, under the owners section.
  const [head, sub] = path.replace(/\/$/, '').split('/');
  const section: Section = (SECTIONS as readonly string[]).includes(head) ? (head as Section) : '';
  const label: Record<Section, string> = {
    '': s.overview,
    plan: s.planTab,
    keys: s.keys,
    webhooks: s.webhooks,
    watches: s.watches,
    clearance: s.clearance,
    search: s.search,
    owners: s.ownersTab,
  };
  return (
    <div class="dash">
      <div class="dash-bar">
        <p>
          {s.signedInAs} <strong>{session.account.email}</strong>
        </p>
        <button type="button" onClick={logout}>
          {s.logout}
        </button>
      </div>
      <nav aria-label={s.sections} class="dash-nav">
        {SECTIONS.map((sec) => (
          <Link key={sec} href={`/app/${sec ? `${sec}/` : ''}`} aria-current={sec === section ? 'page' : undefined}>
            {label[sec]}
          </Link>
        ))}
      </nav>
      <h1>{label[section]}</h1>
      {section === '' && <Overview firstKey={firstKey} />}
      {section === 'plan' && <PlanPage />}
      {section === 'keys' && <Keys />}
      {section === 'webhooks' && <Webhooks />}
      {section === 'watches' && (
        <>
          <FeatureNote feature="watches" />
          <Watches />
        </>
      )}
      {section === 'clearance' && (
        <>
          <FeatureNote feature="clearance" />
          <Clearance />
          <ClearanceBatch />
        </>
      )}
      {section === 'search' && <Search />}
      {section === 'owners' && <Owners id={sub ?? null} />}
    </div>
  );
}
