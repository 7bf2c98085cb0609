/**
 * The CLICS time formats (Contest_API.md, "JSON property types"): TIME is the judge's own RFC 3339
 * text (UTC, milliseconds, `Z`), which already is one; RELTIME is `(-)?h:mm:ss.uuu`.
 */

export const clicsTime = (instant: string): string => new Date(instant).toISOString();

/** A duration in milliseconds as RELTIME. */
export function relTime(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const abs = Math.round(Math.abs(ms));
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const s = Math.floor((abs % 60_000) / 1000);
  const frac = abs % 1000;
  return `${sign}${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(frac).padStart(3, '0')}`;
}

/** The contest time of an instant: from the contest's start. */
export const contestTime = (startsAt: string, instant: string): string => relTime(Date.parse(instant) - Date.parse(startsAt));

/** Seconds rounded to the millisecond (run times: multiples of 0.001). */
export const seconds = (ms: number): number => Math.round(ms) / 1000;
