/**
 * Times typed into a datetime-local field mean the activity's time zone (every time on the staff
 * pages is shown in it), not the browser's: these turn such a wall-clock time into an instant and
 * back.
 */

const FORMATS = new Map<string, Intl.DateTimeFormat>();

function parts(ms: number, zone: string): Record<string, number> {
  let f = FORMATS.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    FORMATS.set(zone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/** How far the zone's wall clock is ahead of UTC at the instant ms. */
function offsetAt(ms: number, zone: string): number {
  const p = parts(ms, zone);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant (ISO, UTC) of a wall-clock time "YYYY-MM-DDTHH:mm" in zone; undefined for anything
 * else. A time skipped by a daylight-saving change moves forward by the gap.
 */
export function instantOf(local: string, zone: string): string | undefined {
  const m = LOCAL.exec(local);
  if (!m) return undefined;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  // the zone's offsets half a day either side: a time that fits both (repeated) is the earlier;
  // one that fits neither (skipped) is read with the offset before the change
  const before = offsetAt(wall - 12 * 3600_000, zone);
  const after = offsetAt(wall + 12 * 3600_000, zone);
  const fits = [wall - before, wall - after].filter((ms) => wall - offsetAt(ms, zone) === ms);
  return new Date(fits.length ? Math.min(...fits) : wall - before).toISOString();
}

/** The wall-clock time "YYYY-MM-DDTHH:mm" of an instant in zone, as a datetime-local field holds it. */
export function localOf(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const p = parts(ms, zone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month!)}-${two(p.day!)}T${two(p.hour!)}:${two(p.minute!)}`;
}
