import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat, pluralRules } from './formats';

describe('kept Intl formatters', () => {
  it('makes one formatter per locale and options and hands the same one out again', () => {
    const a = dateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' });
    expect(dateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' })).toBe(a);
    expect(numberFormat('de')).toBe(numberFormat('de'));
    expect(pluralRules('en')).toBe(pluralRules('en'));
  });

  it('keeps formatters of other locales, zones or options apart', () => {
    const at = Date.UTC(2026, 10, 27, 12, 5);
    const berlin = dateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' });
    const tokyo = dateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' });
    expect(berlin.format(at)).toBe('Nov 27, 2026, 1:05 PM');
    expect(tokyo.format(at)).toBe('Nov 27, 2026, 9:05 PM');
    expect(dateTimeFormat('de', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(at)).toBe('27.11.2026, 13:05');
    expect(numberFormat('en', { maximumFractionDigits: 1 }).format(1.25)).toBe('1.3');
    expect(numberFormat('en').format(1.25)).toBe('1.25');
    expect(pluralRules('en').select(1)).toBe('one');
  });
});
