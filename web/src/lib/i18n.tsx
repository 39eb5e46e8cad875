import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';

/** The interface languages: English and Hindi (the register's own text is shown as filed). */
export const LANGS = ['en', 'hi'] as const;
export type Lang = (typeof LANGS)[number];

const STORAGE_KEY = 'nishaan.lang';

interface LangState {
  lang: Lang;
  setLang(lang: Lang): void;
}

const LangContext = createContext<LangState>({ lang: 'en', setLang: () => undefined });

function initialLang(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'hi') return saved;
  } catch {
    // Storage refused (private mode): the browser's language decides.
  }
  return navigator.language.toLowerCase().startsWith('hi') ? 'hi' : 'en';
}

/** Holds the chosen language, remembers it, and sets <html lang> so that screen readers and fonts follow. */
export function LangProvider({ children }: { children: ComponentChildren }) {
  const [lang, setLang] = useState<Lang>(initialLang);
  useEffect(() => {
    document.documentElement.lang = lang;
    try {
      localStorage.setItem(STORAGE_KEY, lang);
    } catch {
      // Not remembered; still switched.
    }
  }, [lang]);
  return <LangContext.Provider value={{ lang, setLang }}>{children}</LangContext.Provider>;
}

export const useLang = () => useContext(LangContext);

type Dict = Record<string, string | ((...args: never[]) => string)>;

/**
 * A page's interface strings in both languages; the type makes the Hindi table name every English key,
 * so a string added in one language only fails the type check. Returns a hook giving the current table.
 */
export function defineStrings<T extends Dict>(en: T, hi: { [K in keyof T]: T[K] }): () => T {
  return () => (useLang().lang === 'hi' ? hi : en);
}

/** Numbers as the interface language writes them (Indian digit grouping in both). */
export const formatNumber = (n: number, lang: Lang) => n.toLocaleString(lang === 'hi' ? 'hi-IN' : 'en-IN');
