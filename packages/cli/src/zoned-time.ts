import { InstantInput } from '@judge/contract';
import { InvalidArgumentError } from 'commander';

const OFFSET = /([Zz]|[+-]\d{2}:?\d{2})$/;
const ZONES = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant for an activity or series date. One with an offset is sent in UTC; one without is sent
 * as typed, so that the server reads it in the activity's own time zone rather than judgectl
 * guessing a zone from this machine.
 */
export function zonedInstant(v: string): string {
  const s = v.trim();
  const r = InstantInput.safeParse(s);
  if (!r.success) throw new InvalidArgumentError('not a date and time, e.g. 2026-11-22T09:00, 2026-11-22T09:00:00Z or 2026-11-22T10:00+01:00.');
  return OFFSET.test(s) ? r.data : s;
}

/** As zonedInstant, or `none` to clear the date (null on the wire). */
export function zonedInstantOrNone(v: string): string | null {
  return v.trim().toLowerCase() === 'none' ? null : zonedInstant(v);
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = ZONES.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    ZONES.set(zone, f);
  }
  return f;
}

/**
 * An instant as the wall clock of `zone` reads it, with the offset: `2026-11-23 20:52:00+01:00`.
 * The zone UTC keeps the short `Z` form the other tables use.
 */
export function inZone(iso: string | undefined | null, zone: string): string {
  if (!iso) return '';
  const at = new Date(iso);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatter(zone).formatToParts(at);
  } catch {
    // a zone this Node does not know: the UTC instant is still true
    return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  }
  const p = (t: Intl.DateTimeFormatPartTypes) => parts.find((x) => x.type === t)?.value ?? '';
  const name = p('timeZoneName').replace(/^GMT/, '');
  const offset = name === '' ? (zone === 'UTC' || zone === 'Etc/UTC' ? 'Z' : '+00:00') : name;
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}${offset}`;
}
