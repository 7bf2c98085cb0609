import { InstantInput } from '@judge/contract';
import { InvalidArgumentError } from 'commander';
import { Temporal } from 'temporal-polyfill';

const OFFSET = /([Zz]|[+-]\d{2}:?\d{2})$/;
const ZONES = new Map<string, Intl.DateTimeFormat>();
/** Zones that are UTC itself, not a place that happens to be at +00:00 today. */
const UTC_NAMES = /^(Etc\/)?(UTC|UCT|GMT|Zulu|Universal)$/i;

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

/**
 * What an option parser answers for `none` (clear the value): commander turns a parser's null
 * into an empty string, so the body-maker maps this to null instead.
 */
export const NONE = 'none';
export type OrNone<T> = T | typeof NONE;
export const noneToNull = <T>(v: OrNone<T> | undefined): T | null | undefined => (v === NONE ? null : v);

/** As zonedInstant, or `none` to clear the date. */
export function zonedInstantOrNone(v: string): OrNone<string> {
  return v.trim().toLowerCase() === NONE ? NONE : zonedInstant(v);
}

/**
 * The UTC instant of a date as zonedInstant gave it: one with an offset as it is, one without read
 * in `zone` as the server reads it (a time skipped by daylight saving moves forward by the gap, a
 * repeated one is the earlier), for judgectl to reckon with dates before it sends them.
 */
export function instantIn(value: string, zone: string): string {
  if (OFFSET.test(value)) return new Date(value).toISOString();
  const zoned = Temporal.PlainDateTime.from(value).toZonedDateTime(zone, { disambiguation: 'compatible' });
  return new Date(zoned.epochMilliseconds).toISOString();
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
  const offset = UTC_NAMES.test(zone) ? 'Z' : p('timeZoneName').replace(/^GMT/, '') || '+00:00';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}${offset}`;
}
