import { Username } from '@judge/contract';

/**
 * Letters that are spelled out rather than stripped of a mark: German umlauts and ß as German
 * writes them without (Müller is Mueller, Groß is Gross), and the letters whose base letter Unicode
 * does not decompose to.
 */
const SPELLED: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'Ae',
  œ: 'oe',
  Œ: 'Oe',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'Th',
  ı: 'i',
};

/**
 * A login name in the username alphabet (letters, digits, dot, dash and underscore, starting with
 * a letter or digit) for a name from a class list, or undefined when none can be made (README,
 * "Accounts from a class list"): umlauts and ß spelled out, other accents
 * dropped (é is e), spaces become dots, apostrophes and anything else outside the alphabet go.
 * A name already in the alphabet is left as it is.
 */
export function usernameFor(name: string): string | undefined {
  if (Username.safeParse(name).success) return name;
  const made = name
    .trim()
    .normalize('NFC')
    .replace(/[^\x00-\x7F]/g, (c) => SPELLED[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/\s+/g, '.')
    .replace(/[^A-Za-z0-9._-]/g, '')
    .replace(/^[._-]+/, '');
  return Username.safeParse(made).success ? made : undefined;
}
