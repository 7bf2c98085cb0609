import { isLocalDateTime, validation } from '@judge/contract';
import { Temporal } from 'temporal-polyfill';

const FIRST = Date.parse('0000-01-01T00:00:00.000Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * An activity's date as stored (UTC): an instant stays as it came, a local date and time (the
 * contract's ActivityTimeInput without an offset) is read in `timeZone`. Daylight-saving gaps and
 * overlaps resolve as Temporal's `compatible`: a skipped time moves forward by the gap, a repeated one
 * is the earlier of the two, as the schema's description documents.
 */
export function placeInZone(value: string, timeZone: string, member: string): string {
  if (!isLocalDateTime(value)) return value;
  const zoned = Temporal.PlainDateTime.from(value).toZonedDateTime(timeZone, { disambiguation: 'compatible' });
  const ms = zoned.epochMilliseconds;
  // a local time near either end of the range can land outside it once its zone's offset applies
  if (ms < FIRST || ms > LAST) throw validation(member, 'must be a date from year 0000 to 9999 in UTC');
  return new Date(ms).toISOString();
}

/** Places every date of `input` named in `members` (absent and null stay as they are). */
export function placeDatesInZone<T extends object>(input: T, members: readonly (keyof T & string)[], timeZone: string): T {
  const out = { ...input };
  for (const k of members) {
    const v = out[k];
    if (typeof v === 'string') (out as Record<string, unknown>)[k] = placeInZone(v, timeZone, k);
  }
  return out;
}

/**
 * An instant as the wall clock of `timeZone` reads it, to the minute with the offset
 * (`2026-12-01T12:00+01:00`), for messages that speak of an activity's dates as its people do.
 */
export function showInZone(instant: string, timeZone: string): string {
  try {
    return Temporal.Instant.from(instant).toZonedDateTimeISO(timeZone).toString({ timeZoneName: 'never', smallestUnit: 'minute' });
  } catch {
    return instant;
  }
}
