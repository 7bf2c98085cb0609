import { useEffect } from 'react';

/** What the instance shows of itself: logo, documents and theme (GET /instance). */
export interface InstanceLook {
  showLogo: boolean;
  logo?: { fileId: string } | undefined;
  logoTranslations: { language: string; logo: { fileId: string } }[];
  documents: { kind: string; language: string; title: string; fileId: string }[];
  theme: { custom: boolean; fonts: { sha256: string }[]; sha256?: string | undefined; light: object; dark: object; fontFamily: string; fontFamilyHeadings: string };
}

export const instanceFileUrl = (fileId: string) => `/api/v1/instance/files/${encodeURIComponent(fileId)}`;

/** The logo for the page's language, else the default one; none when the instance hides it. */
export function logoFor(look: InstanceLook | undefined, lang: string): string | undefined {
  if (!look?.showLogo) return undefined;
  const id = look.logoTranslations.find((t) => t.language === lang)?.logo.fileId ?? look.logo?.fileId;
  return id ? instanceFileUrl(id) : undefined;
}

/** The kinds the footer links, in its order; welcome and home are shown on their pages instead. */
export const FOOTER_KINDS = ['rules', 'terms', 'privacy', 'cookies', 'accessibility'];

/** Per kind, the document in force in the page's language, else in English, else in any. */
export function documentsFor(look: InstanceLook | undefined, lang: string): Map<string, InstanceLook['documents'][number]> {
  const out = new Map<string, InstanceLook['documents'][number]>();
  for (const d of look?.documents ?? []) {
    const held = out.get(d.kind);
    const rank = (x: { language: string }) => (x.language === lang ? 0 : x.language === 'en' ? 1 : 2);
    if (!held || rank(d) < rank(held)) out.set(d.kind, d);
  }
  return out;
}

/**
 * The page links the theme's stylesheet from index.html, fetched before the first paint. When an
 * administrator changes the theme (instanceChanged refreshes the settings), the link is pointed at
 * the new version so that open pages take it without a reload.
 */
export function useThemeStylesheet(look: InstanceLook | undefined): void {
  const version = look ? JSON.stringify([look.theme.light, look.theme.dark, look.theme.fontFamily, look.theme.fontFamilyHeadings, look.theme.sha256, look.theme.fonts.map((f) => f.sha256)]) : undefined;
  useEffect(() => {
    if (version === undefined) return;
    const link = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href^="/api/v1/instance/theme.css"]');
    if (!link) return;
    let hash = 0;
    for (let i = 0; i < version.length; i++) hash = (hash * 31 + version.charCodeAt(i)) | 0;
    const href = `/api/v1/instance/theme.css?v=${(hash >>> 0).toString(36)}`;
    // the first settings read matches what the page loaded: only later changes swap the link
    if (link.dataset.version === undefined) link.dataset.version = href;
    else if (link.dataset.version !== href) {
      link.dataset.version = href;
      link.href = href;
    }
  }, [version]);
}
