import type { LanguageChoice } from '@judge/contract';

/** Headers go with any language of their family, so they never decide it. */
const HEADERS = new Set(['h', 'hpp', 'hh', 'hxx']);

export function extensionOf(fileName: string): string | undefined {
  return /\.([^./]+)$/.exec(fileName)?.[1]?.toLowerCase();
}

const extensionsOf = (l: LanguageChoice) => l.extensions.map((e) => e.replace(/^\./, '').toLowerCase());

/**
 * The language a set of files is in, as the allowed list knows it: by the first file whose
 * extension is not a header's; among several languages with that extension (C++20, C++17) the
 * one used before wins. Undefined when no allowed language has the extension.
 */
export function guessLanguage(fileNames: string[], allowed: LanguageChoice[], previous?: string | null): string | undefined {
  const ext = fileNames.map(extensionOf).find((e) => e !== undefined && !HEADERS.has(e));
  if (!ext) return undefined;
  const matches = allowed.filter((l) => extensionsOf(l).includes(ext));
  return (matches.find((l) => l.id === previous) ?? matches[0])?.id;
}

/** The file name pasted code is sent under: its language's first extension names it. */
export function pastedFileName(language: LanguageChoice | undefined): string {
  const ext = language ? extensionsOf(language)[0] : undefined;
  return `solution.${ext ?? 'txt'}`;
}
