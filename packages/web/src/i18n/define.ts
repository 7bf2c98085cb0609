/**
 * A part of the message catalogue: English, and every other shipped language with exactly the same
 * keys (the type checker refuses a missing one). `{name}` marks a parameter; a key with `_one` and
 * `_other` forms is chosen by count through Intl.PluralRules.
 */
export const LANGUAGES = { en: 'English', de: 'Deutsch' } as const;
export type Lang = keyof typeof LANGUAGES;

export function defineMessages<const E extends Record<string, string>>(m: { en: E; de: { [K in keyof E]: string } }): { en: E; de: { [K in keyof E]: string } } {
  return m;
}
