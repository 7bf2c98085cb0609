import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { translate, type MessageKey, type Params } from './catalogue';
import { LANGUAGES, type Lang } from './define';

const STORAGE_KEY = 'judge.lang';

/** The language to start with: the one chosen in this browser before, else the browser's own, else English. */
export function initialLanguage(): Lang {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && saved in LANGUAGES) return saved as Lang;
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = l.toLowerCase().split('-')[0]!;
    if (base in LANGUAGES) return base as Lang;
  }
  return 'en';
}

/**
 * The locale dates and numbers are written in: the browser's own tag for the chosen language (an
 * en-GB browser reads 27 Nov 2026, 14:05, not Nov 27, 2026, 2:05 PM), else the language itself.
 */
export function formattingLocale(lang: Lang, browser: readonly string[] = navigator.languages ?? [navigator.language]): string {
  return browser.find((l) => l.toLowerCase().split('-')[0] === lang) ?? lang;
}

interface I18n {
  lang: Lang;
  /** The locale to format dates and numbers in (formattingLocale). */
  locale: string;
  setLang(lang: Lang): void;
  t(key: MessageKey, params?: Params): string;
}

const Ctx = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(initialLanguage);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const setLang = useCallback((l: Lang) => {
    localStorage.setItem(STORAGE_KEY, l);
    setLangState(l);
  }, []);
  const value = useMemo<I18n>(() => {
    const locale = formattingLocale(lang);
    return { lang, locale, setLang, t: (key, params) => translate(lang, key, params, locale) };
  }, [lang, setLang]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const v = useContext(Ctx);
  if (!v) throw new Error('useI18n outside I18nProvider');
  return v;
}

/** Shorthand for the translate function of the current language. */
export function useT(): I18n['t'] {
  return useI18n().t;
}
