import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';
import { translate } from './catalogue';

describe('formatBytes', () => {
  const en = (n: number) => formatBytes(n, 'en-GB', (k, p) => translate('en', k, p, 'en-GB'));
  const de = (n: number) => formatBytes(n, 'de', (k, p) => translate('de', k, p));

  it('says a size under a KiB exactly, in words: 46 bytes is not "1 KiB"', () => {
    expect([en(46), en(1), en(1023)]).toEqual(['46 bytes', '1 byte', '1,023 bytes']);
    expect(de(46)).toBe('46 Bytes');
  });

  it('writes larger sizes in binary units with the locale\'s decimal mark', () => {
    expect([en(1024), en(1536), en(3 * 1024 * 1024 + 200_000)]).toEqual(['1 KiB', '1.5 KiB', '3.2 MiB']);
    expect(de(1536)).toBe('1,5 KiB');
  });
});
