import { hash, randomBytes } from 'node:crypto';
import { v7 } from 'uuid';

export const newId = (): string => v7();

/** A clock the workers and services read, so tests can move time. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

let lastMs = NaN;
let lastIso = '';
/**
 * RFC 3339 in UTC with milliseconds. The last answer is kept: every authenticated request formats
 * the clock's now, and requests a millisecond apart are many.
 */
export const iso = (d: Date): string => {
  const ms = d.getTime();
  if (ms === lastMs) return lastIso;
  const s = d.toISOString();
  lastMs = ms;
  lastIso = s;
  return s;
};
export const addSeconds = (d: Date, s: number): Date => new Date(d.getTime() + s * 1000);

/**
 * Random bytes for secrets, drawn from the CSPRNG 4 KiB at a time: one call per secret cost more
 * than the rest of handing out a job's lease. Every byte is used once.
 */
const SECRET_BYTES = 32;
let secretPool = Buffer.alloc(0);
let secretAt = 0;

/** A 256-bit random secret in base64url (43 characters). */
export function newSecret(): string {
  if (secretAt + SECRET_BYTES > secretPool.length) {
    secretPool = randomBytes(SECRET_BYTES * 128);
    secretAt = 0;
  }
  const s = secretPool.toString('base64url', secretAt, secretAt + SECRET_BYTES);
  secretAt += SECRET_BYTES;
  return s;
}

/** Lowercase hex SHA-256, one-shot (no Hash object per call). */
export const sha256Hex = (s: string | Buffer): string => hash('sha256', s, 'hex');

const PASSWORD_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A generated password without look-alike characters, easy to type from a printed slip. */
export function generatePassword(length = 16): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i]!;
    // rejection sampling keeps every character equally likely
    if (b < 256 - (256 % PASSWORD_ALPHABET.length)) out += PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length];
  }
  return out.length === length ? out : generatePassword(length);
}

/** Drops null and undefined members, since the wire omits them (decisions §2). */
export function compact<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out as { [K in keyof T]: Exclude<T[K], null> };
}

/**
 * Prepares each SQL text once per database and hands the statement back on later calls: hot paths
 * keep their SQL where it is used without paying for parsing it on every request.
 */
export function statements(sqlite: { prepare(sql: string): unknown }): <P extends unknown[] = unknown[], R = unknown>(sql: string) => import('better-sqlite3').Statement<P, R> {
  const cache = new Map<string, unknown>();
  return <P extends unknown[], R>(sql: string) => {
    let st = cache.get(sql);
    if (!st) cache.set(sql, (st = sqlite.prepare(sql)));
    return st as import('better-sqlite3').Statement<P, R>;
  };
}

/** JSON.stringify's replacer for the wire: null members are left out (decisions §2); nulls in arrays stay. */
const dropNulls = (_k: string, v: unknown): unknown => (v === null ? undefined : v);

/**
 * Whether serialising `v` would meet a null member or anything the plain walk cannot vouch for
 * (toJSON, a class instance). Answers are usually free of nulls (compact), and JSON.stringify
 * with a replacer calls back into JavaScript for every member: several times slower than this walk.
 */
function needsReplacer(v: object): boolean {
  if (Array.isArray(v)) {
    for (const x of v) if (typeof x === 'object' && x !== null && needsReplacer(x)) return true;
    return false;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return true;
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x === null) return true;
    if (typeof x === 'object' && needsReplacer(x)) return true;
  }
  return false;
}

/** The wire form of a value: JSON without null members, exactly what JSON.stringify(v, dropNulls) gives. */
export function wireJson(v: unknown): string {
  return typeof v === 'object' && v !== null && !needsReplacer(v) ? JSON.stringify(v) : (JSON.stringify(v, dropNulls) as string);
}

/** A statement's rows read as objects, either way: what `literalRows` hands back. */
export interface Rows<P extends unknown[], R> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
}

/**
 * The statement's rows as the same plain objects better-sqlite3 makes (one member per column, in
 * column order), built by an object literal from the raw row. better-sqlite3 sets a row's members
 * one by one through the V8 API, which costs several times the literal: on a hot path reading
 * wide rows (a submission and its names) that was a tenth of a judged job's CPU. The statement is
 * switched to raw rows, so it is the caller's alone.
 */
export function literalRows<P extends unknown[], R>(st: import('better-sqlite3').Statement<P, R>): Rows<P, R> {
  const members = st.columns().map((c, i) => `${JSON.stringify(c.name)}: r[${i}]`);
  // the names are the statement's own columns, quoted as JSON strings
  const make = new Function('r', `return { ${members.join(', ')} };`) as (r: unknown[]) => R;
  const raw = st.raw(true) as unknown as import('better-sqlite3').Statement<P, unknown[]>;
  return {
    get: (...params) => {
      const r = raw.get(...params);
      return r === undefined ? undefined : make(r);
    },
    all: (...params) => raw.all(...params).map(make),
  };
}

/**
 * A URL setting (a database's, a mail server's) with its password replaced by `***`, also one given
 * as a query parameter whose name `queryKey` matches; what cannot be parsed as a URL is shown as its
 * scheme only. What is logged or shown of such a setting is this, never the setting.
 */
export function maskUrlPassword(setting: string, queryKey: RegExp = /^password$/i): string {
  let u: URL;
  try {
    u = new URL(setting);
  } catch {
    return `${setting.split(':')[0]}://…`;
  }
  if (u.password) u.password = '***';
  for (const key of [...u.searchParams.keys()]) if (queryKey.test(key)) u.searchParams.set(key, '***');
  return u.toString();
}

/** Rows by a key of each, in their order. */
export function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
