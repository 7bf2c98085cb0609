/**
 * Dates as the staff forms edit them: a `datetime-local` field holds a wall-clock time of the
 * activity's time zone ("2026-12-01T09:00"), which the server reads in that zone when it comes
 * without an offset (the contract's ActivityTimeInput), so the page never converts on the way out.
 */

/** The wall-clock time of an instant in a time zone, as a datetime-local field shows it; '' for none. */
export function toLocalInput(iso: string | undefined | null, timeZone: string): string {
  if (!iso) return '';
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

/** What a form sends for a date field: the wall-clock text, or null to clear it when it was emptied. */
export function fromLocalInput(value: string): string | null {
  return value.trim() === '' ? null : value;
}

/**
 * The date fields that changed, as a request body sends them: absent when the field shows what is
 * stored (so an untouched field never moves by a rounding), the wall-clock text or null otherwise.
 */
export function changedDates<K extends string>(
  fields: Record<K, string>,
  stored: Partial<Record<K, string | undefined>>,
  timeZone: string,
): Partial<Record<K, string | null>> {
  const out: Partial<Record<K, string | null>> = {};
  for (const k of Object.keys(fields) as K[]) {
    if (fields[k] !== toLocalInput(stored[k], timeZone)) out[k] = fromLocalInput(fields[k]);
  }
  return out;
}

/** Every IANA time zone the browser knows, for the zone field's suggestions. */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['UTC'];
}

/** The instant of a wall-clock time in a time zone (for a preview; the server places what is sent itself). */
export function instantOf(local: string, timeZone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return undefined;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!);
  // the zone's offset at about that time, read back from how it shows the guess
  const shown = instantAsWall(wall, timeZone);
  const first = wall - (shown - wall);
  return first - (instantAsWall(first, timeZone) - wall);
}

function instantAsWall(ms: number, timeZone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(toLocalInput(new Date(ms).toISOString(), timeZone))!;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!) + (ms % 60_000);
}
