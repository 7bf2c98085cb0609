import { describe, expect, it } from 'vitest';
import { keysOf, translate } from './catalogue';
import { LANGUAGES, type Lang } from './define';

describe('message catalogue', () => {
  it('has every English message in every shipped language, and nothing more', () => {
    const en = keysOf('en').sort();
    for (const lang of Object.keys(LANGUAGES) as Lang[]) expect(keysOf(lang).sort()).toEqual(en);
  });

  it('translates no message to an empty text or to its own key', () => {
    for (const lang of Object.keys(LANGUAGES) as Lang[]) {
      for (const k of keysOf(lang)) expect(translate(lang, k as never).trim(), `${lang} ${k}`).not.toMatch(/^$/);
    }
  });

  it('fills parameters and formats numbers in the language', () => {
    expect(translate('en', 'app.error.status', { status: 503 })).toBe('The request failed (HTTP 503).');
    expect(translate('de', 'app.error.status', { status: 503 })).toBe('Die Anfrage ist fehlgeschlagen (HTTP 503).');
  });
});
