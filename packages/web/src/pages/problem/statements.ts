/**
 * Which statement a participant reads and how it is shown. The server says each statement's
 * format; a listing without one (an older server) is read by the file name's extension.
 */

export type StatementFormat = 'markdown' | 'html' | 'pdf' | 'text';

export interface StatementItem {
  name: string;
  language?: string | undefined;
  format?: string | undefined;
  fileId: string;
  sha256: string;
  sizeBytes: number;
}

const BY_EXTENSION: [RegExp, StatementFormat][] = [
  [/\.(md|markdown)$/i, 'markdown'],
  [/\.html?$/i, 'html'],
  [/\.pdf$/i, 'pdf'],
];

export function statementFormat(s: Pick<StatementItem, 'name' | 'format'>): StatementFormat {
  if (s.format === 'markdown' || s.format === 'html' || s.format === 'pdf') return s.format;
  return BY_EXTENSION.find(([re]) => re.test(s.name))?.[1] ?? 'text';
}

/** The statement's language tag, lower case; '' when it names none. */
export const languageOf = (s: Pick<StatementItem, 'language'>): string => (s.language ?? '').toLowerCase();

const base = (tag: string) => tag.toLowerCase().split('-')[0]!;

/**
 * The statement to show: the one chosen before in this browser, else the first of the browser's
 * languages that one is in (exactly, then by base language), else English, else the first.
 */
export function pickStatement<S extends StatementItem>(statements: S[], saved: string | null, browser: readonly string[]): S | undefined {
  if (!statements.length) return undefined;
  const exact = (tag: string) => statements.find((s) => languageOf(s) === tag.toLowerCase());
  const loose = (tag: string) => statements.find((s) => base(languageOf(s)) === base(tag));
  if (saved) {
    const chosen = exact(saved);
    if (chosen) return chosen;
  }
  for (const tag of browser) {
    const found = exact(tag) ?? loose(tag);
    if (found) return found;
  }
  return exact('en') ?? loose('en') ?? statements[0];
}

/** A language's name in the reader's language ("Deutsch" → "German" for an English reader), else its tag. */
export function languageName(tag: string, readerLang: string): string {
  if (!tag) return '—';
  try {
    return new Intl.DisplayNames([readerLang], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
