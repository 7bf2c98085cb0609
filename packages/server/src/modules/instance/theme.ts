import { PALETTE_MEMBERS, type Palette, type PaletteMember, type Theme } from '@judge/contract';
import type { Stored, StoredFile } from './stored.js';

/**
 * The judge's own look, as the web app's base stylesheet (packages/web/src/styles/base.css) draws
 * it: the theme an administrator never changed, and what a palette member left out falls back to.
 */
export const OWN_LIGHT: Palette = {
  primary: '#1d4ed8',
  secondary: '#ffffff',
  accent: '#0969da',
  link: '#1d4ed8',
  body: '#ffffff',
  surface: '#f4f6f9',
  text: '#161b22',
  dimmed: '#57606a',
  border: '#d0d7de',
  navBackground: 'transparent',
  navText: '#1d4ed8',
  navActiveBackground: 'transparent',
  navActiveText: '#1d4ed8',
  headerBackground: '#f4f6f9',
  headerText: '#161b22',
};
export const OWN_DARK: Palette = {
  primary: '#4493f8',
  secondary: '#0d1117',
  accent: '#58a6ff',
  link: '#4493f8',
  body: '#0d1117',
  surface: '#161b22',
  text: '#e6edf3',
  dimmed: '#9da7b3',
  border: '#3d444d',
  navBackground: 'transparent',
  navText: '#4493f8',
  navActiveBackground: 'transparent',
  navActiveText: '#4493f8',
  headerBackground: '#161b22',
  headerText: '#e6edf3',
};
export const OWN_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'DejaVu Sans', sans-serif";

/**
 * The web app's custom property each palette member sets (docs/decisions.md §22 lists them): primary
 * fills buttons and marks the active tab, secondary is the text on it, accent rings what has the
 * keyboard's focus.
 */
export const CSS_VARIABLE: Record<PaletteMember, string> = {
  primary: '--accent',
  secondary: '--accent-fg',
  accent: '--focus',
  link: '--link',
  body: '--bg',
  surface: '--bg-soft',
  text: '--fg',
  dimmed: '--muted',
  border: '--border',
  navBackground: '--nav-bg',
  navText: '--nav-fg',
  navActiveBackground: '--nav-active-bg',
  navActiveText: '--nav-active-fg',
  headerBackground: '--header-bg',
  headerText: '--header-fg',
};

const filled = (own: Palette, chosen: Record<string, string> | undefined): Palette =>
  Object.fromEntries(PALETTE_MEMBERS.map((m) => [m, chosen?.[m] ?? own[m]])) as Palette;

/** The theme as clients read it: every member filled in. */
export function themeOf(s: Stored): Theme {
  const t = s.theme;
  return {
    light: filled(OWN_LIGHT, t?.light),
    dark: filled(OWN_DARK, t?.dark),
    fontFamily: t?.fontFamily ?? OWN_FAMILY,
    fontFamilyHeadings: t?.fontFamilyHeadings ?? t?.fontFamily ?? OWN_FAMILY,
    fonts: s.fonts.map((f) => ({ name: f.name, family: f.family, weight: f.weight, style: f.style, fileId: f.file.fileId, sha256: f.file.sha256, sizeBytes: f.file.sizeBytes })),
    ...(t?.stylesheet ? { fileId: t.stylesheet.fileId, sha256: t.stylesheet.sha256 } : {}),
    custom: t !== undefined,
  };
}

export const fileUrl = (f: StoredFile) => `/api/v1/instance/files/${f.fileId}`;

const FONT_FORMAT: Record<string, string> = { 'font/woff2': 'woff2', 'font/woff': 'woff', 'font/ttf': 'truetype', 'font/otf': 'opentype' };

/** `members` with the colour each has in `chosen`, else in `own`. */
const declarations = (members: readonly PaletteMember[], chosen: Record<string, string> | undefined, own: Palette): string =>
  members.map((m) => `${CSS_VARIABLE[m]}:${chosen?.[m] ?? own[m]};`).join('');

/**
 * The stylesheet every page links (GET /instance/theme.css). Every value in it was checked on the
 * way in (contract instance-branding.ts: colours and families cannot close a rule), and file URLs
 * are made here from ids. The administrator's own stylesheet is imported first, as CSS requires of
 * an import, and so the palettes and families here win where both set the same property.
 */
export function themeCss(s: Stored): string {
  const t = s.theme;
  const out: string[] = ['/* the instance\'s theme (judgectl instance theme, or the Instance staff page) */'];
  if (t?.stylesheet) out.push(`@import url("${fileUrl(t.stylesheet)}");`);
  for (const f of s.fonts) {
    const format = FONT_FORMAT[f.file.mimeType];
    out.push(`@font-face{font-family:"${f.family}";src:url("${fileUrl(f.file)}")${format ? ` format("${format}")` : ''};font-weight:${f.weight};font-style:${f.style};font-display:swap}`);
  }
  // only members an administrator set are written, the rest stay the base stylesheet's; a member
  // set for light is written for dark too (its own colour there unless set), as a rule on :root
  // after the base stylesheet's dark one would otherwise carry the light colour into dark mode
  const setLight = PALETTE_MEMBERS.filter((m) => t?.light?.[m] !== undefined);
  const setDark = PALETTE_MEMBERS.filter((m) => t?.light?.[m] !== undefined || t?.dark?.[m] !== undefined);
  const light = declarations(setLight, t?.light, OWN_LIGHT) + (t?.fontFamily ? `--sans:${t.fontFamily};` : '') + (t?.fontFamilyHeadings ? `--sans-headings:${t.fontFamilyHeadings};` : '');
  // :root twice outweighs the base stylesheet's :root rules wherever the page loads this one
  if (light) out.push(`:root:root{${light}}`);
  const dark = declarations(setDark, t?.dark, OWN_DARK);
  if (dark) out.push(`@media (prefers-color-scheme: dark){:root:root{${dark}}}`);
  return `${out.join('\n')}\n`;
}
