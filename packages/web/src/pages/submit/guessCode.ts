import type { LanguageChoice } from '@judge/contract';

/**
 * Which language a piece of source text is in, from signs each language leaves (its headers,
 * keywords, library calls), for pasted code that has no file name to go by. A family is named by
 * the file extensions the language table gives its languages, so the guess lands on whichever of
 * them the problem allows. C's signs count for C++ too: C code is also C++, never a mistake there.
 */
interface Family {
  name: string;
  extensions: string[];
  signs: RegExp[];
}

const C_SIGNS = [/#include\s*<(stdio|stdlib|string|math|stdbool|limits)\.h>/, /\b(printf|scanf)\s*\(/, /\bint\s+main\s*\(/, /;\s*$/m];

const FAMILIES: Family[] = [
  {
    name: 'Python',
    extensions: ['py'],
    signs: [/^\s*def \w+\s*\(.*\)\s*(->\s*[\w[\], ]+)?:\s*$/m, /^\s*(import \w+|from [\w.]+ import )/m, /\bprint\s*\(/, /\binput\(\)/, /^\s*(if|elif|for|while|else|with|try|except)\b[^;{]*:\s*$/m, /\bsys\.stdin\b/, /\b(range|len|int|map)\s*\(.*\)\s*:?\s*$/m, /^[^;{}]+$/],
  },
  { name: 'C', extensions: ['c'], signs: C_SIGNS },
  {
    name: 'C++',
    extensions: ['cpp', 'cc', 'cxx', 'c++'],
    signs: [...C_SIGNS, /#include\s*<(iostream|bits\/stdc\+\+\.h|vector|string|algorithm|map|set|cstdio)>/, /\bstd::/, /\busing\s+namespace\s+std\b/, /\bcin\s*>>/, /\bcout\s*<</],
  },
  { name: 'Java', extensions: ['java'], signs: [/\bpublic\s+(final\s+)?class\s+\w+/, /\bstatic\s+void\s+main\s*\(\s*String/, /\bSystem\.(out|in)\b/, /^\s*import\s+java\./m, /;\s*$/m] },
  { name: 'Kotlin', extensions: ['kt'], signs: [/\bfun\s+main\s*\(/, /\breadLine\(\)/, /(^|[^.\w])println\s*\(/m, /\bval\s+\w+\s*=/] },
  { name: 'JavaScript', extensions: ['js', 'mjs'], signs: [/\bconsole\.log\s*\(/, /\brequire\(\s*['"]/, /\bprocess\.stdin\b/, /\b(const|let)\s+\w+\s*=/, /=>/] },
  { name: 'Rust', extensions: ['rs'], signs: [/\bfn\s+main\s*\(\s*\)/, /\bprintln!\s*\(/, /\blet\s+mut\b/, /\buse\s+std::/] },
  { name: 'Go', extensions: ['go'], signs: [/^package\s+main\b/m, /\bfmt\.(Print|Scan)/, /\bfunc\s+main\s*\(\s*\)/, /:=/] },
  { name: 'C#', extensions: ['cs'], signs: [/\busing\s+System\s*;/, /\bConsole\.(Write|Read)/, /\bstatic\s+void\s+Main\s*\(/, /;\s*$/m] },
  { name: 'Pascal', extensions: ['pas', 'pp'], signs: [/^\s*program\s+\w+\s*;/im, /^\s*begin\b/im, /\bend\.\s*$/i, /\b(writeln|readln)\s*\(/i] },
  { name: 'Haskell', extensions: ['hs'], signs: [/^main\s*=/m, /::\s*IO\b/, /\b(getLine|getContents|interact|putStrLn)\b/] },
  { name: 'Ruby', extensions: ['rb'], signs: [/\bputs\b/, /\bgets\b/, /^\s*end\s*$/m, /\.each\s+do\b/] },
  { name: 'PHP', extensions: ['php'], signs: [/<\?php/, /\$\w+\s*=/, /\becho\b/] },
];

/** How many signs of a family the text shows. */
const score = (f: Family, code: string) => f.signs.filter((s) => s.test(code)).length;

/** A guess needs this many signs, so a line or two of anything decides nothing. */
const SURE = 3;

const extensionsOf = (l: LanguageChoice) => l.extensions.map((e) => e.replace(/^\./, '').toLowerCase());
const familyOf = (l: LanguageChoice) => FAMILIES.find((f) => f.extensions.some((e) => extensionsOf(l).includes(e)));

export interface CodeGuess {
  /** The family the text looks like, by name (Python, C++…). */
  family: string;
  /** The allowed language of that family (the previous one among several), if any. */
  language?: LanguageChoice;
}

/**
 * The language the text looks like, when it is sure and that is not `current`'s family: the
 * current language stays whenever the text shows as many signs of it as of any other (C code
 * under C++, say). Undefined when the text decides nothing or the current language fits.
 */
export function guessFromCode(code: string, allowed: LanguageChoice[], current?: string | null): CodeGuess | undefined {
  if (code.trim().length < 10) return undefined;
  const ranked = FAMILIES.map((f) => ({ f, n: score(f, code) })).sort((a, b) => b.n - a.n);
  const best = ranked[0]!;
  if (best.n < SURE) return undefined;
  const chosen = allowed.find((l) => l.id === current);
  const own = chosen ? familyOf(chosen) : undefined;
  if (own && score(own, code) >= best.n) return undefined;
  const candidates = allowed.filter((l) => familyOf(l) === best.f);
  const language = candidates.find((l) => l.id === current) ?? candidates[0];
  return { family: best.f.name, ...(language ? { language } : {}) };
}
