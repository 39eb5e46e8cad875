import type { ComponentChildren } from 'preact';
import { defineStrings, LANGS, useLang } from './i18n.tsx';
import { Link } from './router.tsx';

const useStrings = defineStrings(
  {
    brand: 'Nishaan',
    tagline: "India's trade mark register",
    nav: 'Main',
    search: 'Search',
    dashboard: 'Dashboard',
    language: 'Language',
    skip: 'Skip to content',
    apiDocs: 'API documentation',
  },
  {
    brand: 'निशान',
    tagline: 'भारत का ट्रेड मार्क रजिस्टर',
    nav: 'मुख्य',
    search: 'खोज',
    dashboard: 'डैशबोर्ड',
    language: 'भाषा',
    skip: 'सामग्री पर जाएँ',
    apiDocs: 'API दस्तावेज़',
  },
);

const LANG_NAMES: Record<(typeof LANGS)[number], string> = { en: 'English', hi: 'हिन्दी' };

/** The frame of every page: skip link, header (brand, navigation, language switch), main, footer. */
export function Layout({ children }: { children: ComponentChildren }) {
  const s = useStrings();
  const { lang, setLang } = useLang();
  return (
    <>
      <a class="skip" href="#main">
        {s.skip}
      </a>
      <header class="top">
        <Link href="/" class="brand">
          {s.brand} <span class="tagline">{s.tagline}</span>
        </Link>
        <nav aria-label={s.nav}>
          <Link href="/">{s.search}</Link>
          <Link href="/app/">{s.dashboard}</Link>
        </nav>
        <fieldset class="lang">
          <legend class="visually-hidden">{s.language}</legend>
          {LANGS.map((l) => (
            <button type="button" key={l} lang={l} aria-pressed={l === lang} onClick={() => setLang(l)}>
              {LANG_NAMES[l]}
            </button>
          ))}
        </fieldset>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer class="foot">
        <a href="/docs">{s.apiDocs}</a>
      </footer>
    </>
  );
}
