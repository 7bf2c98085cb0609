import { describe, expect, it } from 'vitest';
import { changedDates, fromLocalInput, instantOf, toLocalInput } from './zoned';

describe('dates in the activity time zone', () => {
  it('shows an instant as the wall clock of the zone, across a daylight-saving change', () => {
    expect(toLocalInput('2026-07-01T08:30:00Z', 'Europe/Berlin')).toBe('2026-07-01T10:30');
    expect(toLocalInput('2026-12-01T08:30:00Z', 'Europe/Berlin')).toBe('2026-12-01T09:30');
    expect(toLocalInput('2026-12-01T23:30:00Z', 'Asia/Tokyo')).toBe('2026-12-02T08:30');
    expect(toLocalInput(undefined, 'UTC')).toBe('');
  });

  it('sends only the fields that changed: the text, or null for an emptied one', () => {
    const stored = { startDate: '2026-12-01T08:00:00Z', endDate: '2026-12-01T13:00:00Z', rankingFreezeAt: undefined };
    const fields = { startDate: '2026-12-01T09:00', endDate: '2026-12-01T15:00', rankingFreezeAt: '2026-12-01T14:00' };
    expect(changedDates(fields, stored, 'Europe/Berlin')).toEqual({ endDate: '2026-12-01T15:00', rankingFreezeAt: '2026-12-01T14:00' });
    expect(changedDates({ endDate: '' }, { endDate: '2026-12-01T13:00:00Z' }, 'UTC')).toEqual({ endDate: null });
    expect(fromLocalInput(' ')).toBeNull();
  });
});

describe('a wall-clock time as an instant', () => {
  it('places it by the zone offset of that day', () => {
    expect(new Date(instantOf('2026-07-01T10:30', 'Europe/Berlin')!).toISOString()).toBe('2026-07-01T08:30:00.000Z');
    expect(new Date(instantOf('2026-12-01T09:30', 'Europe/Berlin')!).toISOString()).toBe('2026-12-01T08:30:00.000Z');
    expect(instantOf('', 'UTC')).toBeUndefined();
  });
});
