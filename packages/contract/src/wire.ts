import { z } from 'zod';

/** Lowercase hyphenated UUID; records use UUIDv7 (decisions §2). */
export const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a lowercase UUID');

/** An instant as the server writes it: RFC 3339 UTC with milliseconds. */
export const Timestamp = z.string().meta({ format: 'date-time', example: '2026-11-22T05:38:19.123Z' });

/** The instants RFC 3339 can write: years 0000 to 9999, in UTC. */
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * An instant as a client may send it: any RFC 3339 value; without an offset it is UTC.
 * Normalised to the server's form, so a bad value is a 422, never a silent default. An offset may
 * carry a value past the last representable instant (9999-12-31T23:30-05:00): refused, as the
 * server could only write it back as `+010000-...`, which is not RFC 3339.
 */
export const InstantInput = z
  .string()
  .refine(wellFormed, { message: 'must be an RFC 3339 instant', abort: true })
  .refine((s) => inRange(Date.parse(withZone(s))), 'must be an instant from year 0000 to 9999 in UTC')
  .transform((s) => new Date(Date.parse(withZone(s))).toISOString())
  .meta({ format: 'date-time' });

/**
 * A date of an activity (its own, its series'): an instant with `Z` or an offset, normalised to UTC
 * as InstantInput does, or a local date and time without an offset (`2026-11-23T19:52`) that the
 * server reads in the activity's time zone. The local form comes out as `YYYY-MM-DDTHH:mm:ss.sss`
 * without a zone (see isLocalDateTime), for the server to place. A date alone stays midnight UTC, as
 * InstantInput reads it, so that dates written before zones applied keep their meaning.
 */
export const ActivityTimeInput = z
  .string()
  .refine(wellFormed, { message: 'must be an RFC 3339 instant, or a local date and time without an offset', abort: true })
  .refine((s) => inRange(Date.parse(withZone(s))), 'must be a date from year 0000 to 9999')
  .transform((s) => {
    const utc = new Date(Date.parse(withZone(s))).toISOString();
    return hasOffset(s) || !hasTime(s) ? utc : utc.slice(0, -1);
  })
  .meta({
    description:
      "RFC 3339 instant (`2026-11-23T18:52:00Z`, `2026-11-23T19:52:00+01:00`), or a local date and time without an offset (`2026-11-23T19:52:00`), read in the activity's `timeZone`: on create the zone given in the same request, on update the zone after the update. A local time that a daylight-saving change skips is moved forward by the gap (02:30 on the spring-forward night in Europe/Berlin is 03:30 CEST); one that occurs twice is the earlier (the first 02:30 of the autumn night, CEST), as Temporal's `compatible` disambiguation. A date alone (`2026-12-20`) is midnight UTC, as for every other instant. Stored and answered in UTC.",
    example: '2026-11-23T19:52:00',
  });

/** A value of ActivityTimeInput that the server has yet to place in a time zone. */
export const isLocalDateTime = (s: string): boolean => !s.endsWith('Z');

function wellFormed(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/.test(s) && realDay(s) && !Number.isNaN(Date.parse(withZone(s)));
}

const hasTime = (s: string) => /[Tt ]/.test(s);
const hasOffset = (s: string) => /[Tt ].*([Zz]|[+-]\d{2}:?\d{2})$/.test(s);

const inRange = (ms: number) => ms >= FIRST_INSTANT && ms <= LAST_INSTANT;

/** Date.parse rolls an impossible day over (2030-02-31 becomes March 3rd): refuse it instead. */
function realDay(s: string): boolean {
  const [y, m, d] = [Number(s.slice(0, 4)), Number(s.slice(5, 7)), Number(s.slice(8, 10))];
  return m >= 1 && m <= 12 && d >= 1 && new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
}

function withZone(s: string): string {
  if (!s.includes('T') && !s.includes('t') && !s.includes(' ')) return `${s}T00:00:00Z`;
  return hasOffset(s) ? s : `${s}Z`;
}

/** Query booleans arrive as text; only the two spellings are accepted. */
export const QueryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .meta({ type: 'boolean' });

/** Paging (decisions §2): 1-based page, pageSize clamped to 1..200, default 20. */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 200;

export function clampPaging(q: { page?: number | undefined; pageSize?: number | undefined }): { page: number; pageSize: number } {
  const page = q.page === undefined || q.page < 1 ? 1 : q.page;
  const pageSize = q.pageSize === undefined ? PAGE_SIZE_DEFAULT : Math.min(Math.max(q.pageSize, 1), PAGE_SIZE_MAX);
  return { page, pageSize };
}

export function paged<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * The deepest nesting of objects and arrays a JSON body or free-form member may have (decisions §2):
 * `{}` is 1 deep. Anything that walks a value recursively (JSON.stringify, zod, SQLite's JSON)
 * would overflow its stack long before a body's size limit stops a deep one.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `max`; walks it without recursion. */
export function jsonTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

/** Free-form JSON members must be objects of bounded size and depth (decisions §2). */
export function freeForm(maxBytes: number) {
  return z
    .record(z.string(), z.unknown())
    .refine((v) => !jsonTooDeep(v), { message: `must nest at most ${MAX_JSON_DEPTH} deep`, abort: true })
    .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= maxBytes, `must be at most ${maxBytes} bytes of JSON`);
}
export const Props = freeForm(256 * 1024);

/** The problem document every failure under /api/ carries (decisions §3). */
export const ProblemDocument = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  traceId: z.string().optional(),
});
export type ProblemDocument = z.infer<typeof ProblemDocument>;

export const Password = z.string().min(10, 'must be at least 10 characters').max(256, 'must be at most 256 characters');
export const Username = z
  .string()
  .min(2)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash and underscore, starting with a letter or digit');
export const Email = z.email().max(254);
