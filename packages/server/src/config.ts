import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAXIMA, type LimitFigures } from '@judge/problem-package';
import { z } from 'zod';
import { languageIndex } from './languages.js';

const Port = z.number().int().min(0).max(65535);
const Positive = z.number().int().min(1);

/** Every setting of the server. Unknown keys are refused so that a typo is reported, not ignored. */
export const ConfigSchema = z.strictObject({
  host: z.string().min(1),
  port: Port,
  /** The origin browsers use, e.g. https://judge.school.example; empty: the request's own. */
  publicUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
  /** Believe X-Forwarded-For / X-Forwarded-Proto from a reverse proxy. */
  trustProxy: z.boolean(),
  /**
   * Where the data lives: empty for the embedded SQLite file DATA_DIR/judge.db, or a PostgreSQL URL
   * (postgres://user:password@host/database) that several servers may share (docs/storage.md). The
   * URL's password is a secret: it is only ever shown masked (db/database-url.ts).
   */
  database: z.union([z.literal(''), z.string().regex(/^postgres(ql)?:\/\/./, 'a postgres:// or postgresql:// URL, or empty for the SQLite file')]),
  /**
   * Connections each server keeps to PostgreSQL (unused with SQLite). Every read and write of a
   * request takes one for its statements, so a server whose requests wait on the pool rather than
   * on the database answers late with CPU to spare (docs/storage.md, "The connection pool").
   */
  databasePoolSize: z.number().int().min(1).max(500),
  /**
   * Where the stored files (uploads, packages, printouts' PDFs) live: empty for DATA_DIR/files, or an
   * absolute path to a directory every server of a cluster mounts (docs/storage.md, "Files").
   */
  filesDir: z.union([z.literal(''), z.string().regex(/^\//, 'an absolute path (e.g. /srv/judge-files), or empty for DATA_DIR/files')]),
  /**
   * Built-in HTTPS (src/tls.ts): a PEM certificate (chain) and its private key; both empty: plain
   * HTTP, e.g. behind a reverse proxy. Relative to the data directory unless absolute.
   */
  tls: z.strictObject({
    certFile: z.string(),
    keyFile: z.string(),
  }),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  /** DATA_DIR/logs/judge.log is rotated at `maxFileBytes` into judge.log.1 … judge.log.<keepFiles>. */
  logs: z.strictObject({
    maxFileBytes: z.number().int().min(65536),
    keepFiles: z.number().int().min(1).max(100),
  }),
  /** The language table (extensions of submissions); relative to the installation folder unless absolute. */
  languages: z.string().min(1),
  limits: z.strictObject({
    jsonBodyBytes: Positive,
    uploadBytes: Positive,
    /** Per signed-in user, or per address for anonymous calls; 0 turns the limit off. */
    requestsPerMinute: z.number().int().min(0),
    /** The whole of one POST /files/fetch: name resolution, connections, redirects and the body. */
    fetchSeconds: z.number().int().min(1).max(3600),
  }),
  /**
   * POST /files/fetch. `fetchAllowLoopback` lets it reach loopback addresses (127.0.0.0/8, ::1),
   * which it otherwise never does: for tests, whose web servers listen there, never for production,
   * where it would let users read the services of the server's own machine.
   */
  files: z.strictObject({
    fetchAllowLoopback: z.boolean(),
  }),
  auth: z.strictObject({
    accessTokenSeconds: Positive,
    refreshTokenDays: Positive,
    cookieDays: Positive,
    /** How long a browser that signed in with a second factor (and asked to stay signed in) is not asked for a code again. */
    rememberMachineDays: Positive,
    /** Sign-in and registration attempts per client address: sized for a class behind one NAT address. */
    loginAttemptsPerMinute: Positive,
    /** Failed sign-ins per client address: what stops guessing across many accounts from one address. */
    loginFailuresPerMinute: Positive,
    /** Failed sign-ins per account, from any address, on top of the lockout after `lockoutFailures` in a row. */
    accountLoginFailuresPerMinute: Positive,
    lockoutFailures: Positive,
    lockoutMinutes: Positive,
    /**
     * How long a deletion request from an identity provider's back channel waits before the account
     * is emptied: the time administrators have to halt a mistaken or forged one.
     */
    providerDeletionHours: Positive,
    argon2MemoryKib: z.number().int().min(1024),
    argon2Iterations: z.number().int().min(1),
  }),
  socket: z.strictObject({
    pingSeconds: z.number().positive(),
    maxBufferedBytes: Positive,
    /**
     * How long a standings result signal (rankingChanged) may wait to go out with the others of its
     * activity: one frame per interval instead of one per submission to every member. 0: none wait.
     */
    rankingIntervalMs: z.number().int().min(0),
  }),
  /**
   * The instance's maxima for the limits a problem package or an assignment asks for: a larger
   * figure is judged (and shown) as the maximum. Runners get them with every job.
   */
  judging: z.strictObject({
    maxTimeLimitSeconds: z.number().positive(),
    maxMemoryMib: z.number().positive(),
    maxOutputMib: z.number().positive(),
  }),
  /** Sample runs a participant may start per window (docs/web-pages.md "Run on samples"); 0 runs: none at all. */
  sampleRuns: z.strictObject({
    perWindow: z.number().int().min(0),
    windowSeconds: z.number().int().min(1),
  }),
  /**
   * Printouts: `command` (run by /bin/sh, e.g. `lp -d hall-a`) gets each requested printout's PDF on
   * its standard input; empty: nothing is printed, staff print from the queue themselves.
   */
  printing: z.strictObject({
    command: z.string(),
  }),
  /**
   * Mail (confirmations, password resets): `smtpUrl` smtp://user:password@host:587 (STARTTLS when
   * the server offers it) or smtps://…:465; empty: each message is written to DATA_DIR/outbox/ and
   * logged (src/mail/mailer.ts). Its password is a secret, only ever shown masked. `from`: the
   * sender; empty: judge@ the host of `publicUrl`, else of this machine.
   */
  mail: z.strictObject({
    smtpUrl: z.union([z.literal(''), z.string().regex(/^smtps?:\/\/[^/]/, 'an smtp:// or smtps:// URL, or empty for the outbox')]),
    from: z.union([z.literal(''), z.string().max(320).regex(/^[^\r\n]*@[^\r\n]*$/, 'an address (judge@school.example, or "Judge <judge@school.example>"), or empty')]),
  }),
  /** The built web app served at `/`; relative to the installation folder unless absolute. */
  web: z.strictObject({
    dir: z.string().min(1),
  }),
});

export type Config = z.infer<typeof ConfigSchema>;

/** The instance's maxima (setting `judging.*`) in the terms of the package module and the runners' jobs. */
export function judgingMaxima(c: Config): LimitFigures {
  return { timeLimitSeconds: c.judging.maxTimeLimitSeconds, memoryMiB: c.judging.maxMemoryMib, outputMiB: c.judging.maxOutputMib };
}

/** The maxima a job or trial carries: none when they are the defaults a runner assumes anyway (the wire omits defaults). */
export function jobMaxima(c: Config): LimitFigures | undefined {
  const m = judgingMaxima(c);
  const same = (Object.keys(m) as (keyof LimitFigures)[]).every((k) => m[k] === DEFAULT_MAXIMA[k]);
  return same ? undefined : m;
}
type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
export type ConfigOverrides = DeepPartial<Config>;

export const CONFIG_FILE_NAME = 'judge.json';

/** The checkout's root: three levels above src/ or dist/ (packages/server/src). */
const installationDir = () => resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The checkout's config/server.json. */
export function defaultsPath(): string {
  return join(installationDir(), 'config', 'server.json');
}

function readJson(path: string, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not a JSON object');
    return v as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(`${what} ${path}: ${(e as Error).message}`);
  }
}

export class ConfigError extends Error {}

function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    const b = out[k];
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b)
      ? merge(b as Record<string, unknown>, v as Record<string, unknown>)
      : v;
  }
  return out;
}

/** `limits.jsonBodyBytes` ↔ `JUDGE_LIMITS_JSON_BODY_BYTES`. */
export function envName(path: string[]): string {
  return 'JUDGE_' + path.map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()).join('_');
}

/** Every leaf setting with its environment variable and default, for --help and the README. */
export function settingsTable(defaults = readJson(defaultsPath(), 'defaults')): { key: string; env: string; value: unknown }[] {
  const rows: { key: string; env: string; value: unknown }[] = [];
  const walk = (obj: Record<string, unknown>, path: string[]) => {
    for (const [k, v] of Object.entries(obj)) {
      if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>, [...path, k]);
      else rows.push({ key: [...path, k].join('.'), env: envName([...path, k]), value: v });
    }
  };
  walk(defaults, []);
  return rows;
}

function fromEnv(defaults: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of settingsTable(defaults)) {
    const raw = env[row.env];
    if (raw === undefined) continue;
    let value: unknown = raw;
    if (typeof row.value === 'number') {
      value = Number(raw);
      if (raw.trim() === '' || Number.isNaN(value)) throw new ConfigError(`${row.env}: "${raw}" is not a number`);
    } else if (typeof row.value === 'boolean') {
      if (!['true', 'false', '1', '0'].includes(raw)) throw new ConfigError(`${row.env}: "${raw}" is not true or false`);
      value = raw === 'true' || raw === '1';
    }
    const keys = row.key.split('.');
    let cur = out;
    for (const k of keys.slice(0, -1)) cur = (cur[k] ??= {}) as Record<string, unknown>;
    cur[keys[keys.length - 1]!] = value;
  }
  return out;
}

/**
 * The `database` setting alone, from `<dataDir>/judge.json` and JUDGE_DATABASE (the later wins), for
 * the commands that never load the whole configuration (backup, restore, doctor, reset-password).
 */
export function databaseSetting(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.JUDGE_DATABASE !== undefined) return env.JUDGE_DATABASE;
  const file = join(dataDir, CONFIG_FILE_NAME);
  const value = existsSync(file) ? readJson(file, 'configuration file').database : undefined;
  return typeof value === 'string' ? value : '';
}

/**
 * The `filesDir` setting alone, resolved: `override` (a command's --files-dir), else JUDGE_FILES_DIR,
 * else `<dataDir>/judge.json`; empty means DATA_DIR/files. For the commands that never load the whole
 * configuration; refused as loadConfig refuses it.
 */
export function filesSetting(dataDir: string, override?: string, env: NodeJS.ProcessEnv = process.env): string {
  let value: unknown = override ?? env.JUDGE_FILES_DIR;
  if (value === undefined) {
    const file = join(dataDir, CONFIG_FILE_NAME);
    value = existsSync(file) ? readJson(file, 'configuration file').filesDir : undefined;
  }
  const parsed = ConfigSchema.shape.filesDir.safeParse(value ?? '');
  if (!parsed.success) throw new ConfigError(`invalid configuration: filesDir: ${parsed.error.issues[0]!.message}`);
  return checkedFilesDir(dataDir, parsed.data);
}

/** The files directory may not hold the data directory nor be it: its checks would take the database for stray files. */
function checkedFilesDir(dataDir: string, filesDir: string): string {
  if (!filesDir) return '';
  const f = resolve(filesDir);
  const d = resolve(dataDir);
  if (d === f || d.startsWith(f.endsWith(sep) ? f : f + sep)) {
    throw new ConfigError(`invalid configuration: filesDir: ${f} holds the data directory ${d}; give a directory of its own (e.g. /srv/judge-files), or empty for DATA_DIR/files`);
  }
  return f;
}

/**
 * Configuration, later sources winning: config/server.json, `<dataDir>/judge.json`, JUDGE_* variables,
 * then the overrides given (command-line flags, tests).
 */
export function loadConfig(dataDir: string, overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const defaults = readJson(defaultsPath(), 'defaults');
  let merged = defaults;
  const file = join(dataDir, CONFIG_FILE_NAME);
  if (existsSync(file)) merged = merge(merged, readJson(file, 'configuration file'));
  merged = merge(merged, fromEnv(defaults, env));
  merged = merge(merged, overrides as Record<string, unknown>);
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    // one line, as every other failure at start: what is wrong, setting by setting
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${issues.join('; ')}`);
  }
  const config = {
    ...parsed.data,
    filesDir: checkedFilesDir(dataDir, parsed.data.filesDir),
    languages: resolve(installationDir(), parsed.data.languages),
    web: { ...parsed.data.web, dir: resolve(installationDir(), parsed.data.web.dir) },
    tls: {
      certFile: parsed.data.tls.certFile && resolve(dataDir, parsed.data.tls.certFile),
      keyFile: parsed.data.tls.keyFile && resolve(dataDir, parsed.data.tls.keyFile),
    },
  };
  try {
    languageIndex(config.languages);
  } catch (e) {
    throw new ConfigError(`languages: ${(e as Error).message}`);
  }
  return config;
}
