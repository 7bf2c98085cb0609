import { describe, expect, it } from 'vitest';
import { instantOf, localOf } from './zoned';

describe('wall-clock times in the activity zone', () => {
  it('reads a typed time in the zone, in winter and in summer', () => {
    expect(instantOf('2026-11-27T10:00', 'Europe/Berlin')).toBe('2026-11-27T09:00:00.000Z');
    expect(instantOf('2026-07-01T10:00', 'Europe/Berlin')).toBe('2026-07-01T08:00:00.000Z');
    expect(instantOf('2026-11-27T10:00', 'America/New_York')).toBe('2026-11-27T15:00:00.000Z');
    expect(instantOf('2026-11-27T10:00', 'UTC')).toBe('2026-11-27T10:00:00.000Z');
  });

  it('moves a time skipped by the spring change forward, and takes the first of a repeated one', () => {
    // Berlin skips 02:00-03:00 on 29 March 2026 and repeats 02:00-03:00 on 25 October 2026
    expect(instantOf('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
    expect(instantOf('2026-10-25T02:30', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
  });

  it('refuses what is not a wall-clock time', () => {
    expect(instantOf('', 'Europe/Berlin')).toBeUndefined();
    expect(instantOf('2026-11-27', 'Europe/Berlin')).toBeUndefined();
    expect(instantOf('10:00', 'Europe/Berlin')).toBeUndefined();
  });

  it('writes an instant back as the zone shows it', () => {
    expect(localOf('2026-11-27T09:00:00.000Z', 'Europe/Berlin')).toBe('2026-11-27T10:00');
    expect(localOf('2026-07-01T08:00:00Z', 'Europe/Berlin')).toBe('2026-07-01T10:00');
    expect(localOf('not a time', 'Europe/Berlin')).toBe('');
    for (const local of ['2026-01-15T23:59', '2026-06-30T00:00']) expect(localOf(instantOf(local, 'Asia/Kolkata')!, 'Asia/Kolkata')).toBe(local);
  });
});
