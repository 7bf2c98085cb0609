import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { JudgeClient } from '@judge/sdk';

/**
 * The built `bin/judge` as an administrator runs it (`pnpm build` first), for the tests of the
 * commands that work on a data directory from outside the server: backup, restore, doctor, reset-password.
 */
export const JUDGE = fileURLToPath(new URL('../../../../bin/judge', import.meta.url));
export const ADMIN_PASSWORD = 'admin-password-for-ops';
const CHEAP = { JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_LOG_LEVEL: 'warn' };

export function judgeEnv(): Record<string, string> {
  const e: Record<string, string> = { ...(process.env as Record<string, string>), ...CHEAP };
  delete e.JUDGE_ADMIN_PASSWORD;
  return e;
}

/** Temporary directories and child processes of a test file, all removed by `cleanup()`. */
export class Scratch {
  private readonly dirs: string[] = [];
  private readonly children: ChildProcess[] = [];

  dir(prefix = 'judge-ops-'): string {
    const d = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(d);
    return d;
  }

  track(child: ChildProcess): ChildProcess {
    this.children.push(child);
    return child;
  }

  cleanup(): void {
    for (const c of this.children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

/** Runs `judge …` to its end. */
export function judge(args: string[]) {
  return spawnSync(JUDGE, args, { env: judgeEnv(), encoding: 'utf8', input: '', timeout: 120_000 });
}

/** `judge init` with the tests' admin password. */
export function initDataDir(s: Scratch, dataDir: string): void {
  const pw = join(s.dir(), 'pw');
  writeFileSync(pw, `${ADMIN_PASSWORD}\n`);
  const r = judge(['init', '--data-dir', dataDir, '--admin-password-file', pw]);
  if (r.status !== 0) throw new Error(`judge init failed: ${r.stderr}`);
}

export interface Served {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  err(): string;
  /** SIGTERM, resolved when it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `judge serve` or `judge up` on a data directory and resolves once it listens (for `up`
 * with a runner, once the runner judges).
 */
export function startJudge(s: Scratch, command: 'serve' | 'up', dataDir: string, extra: string[] = []): Promise<Served> {
  const child = s.track(spawn(JUDGE, [command, '--data-dir', dataDir, '--port', '0', ...extra], { env: judgeEnv(), stdio: ['ignore', 'pipe', 'pipe'] }));
  let err = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    // the summary (serving line, runner status) is on stdout, failures on stderr
    const seen = (b: Buffer) => {
      err += b.toString();
      const m = /serving (http:\/\/\S+)\/api\/v1/.exec(err);
      const ready = command === 'serve' || extra.includes('--no-runner') || /runner local connected/.test(err);
      if (m && ready) resolve({ child, url: m[1]!, err: () => err, stop: () => (child.kill('SIGTERM'), exited) });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`judge ${command} exited ${code}: ${err}`)));
  });
}

export async function signIn(url: string, user: string, password: string): Promise<JudgeClient> {
  const c = new JudgeClient({ baseUrl: url });
  await c.login(user, password);
  return c;
}

/** Rows of every table of a database file, by table name. */
export function tableCounts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
    return Object.fromEntries(names.map(({ name }) => [name, db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM "${name}"`).get()!.n]));
  } finally {
    db.close();
  }
}

/** Rows of a query on a database file, opened read-only. */
export function query<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** SHA-256 of every file under `dir`, by path relative to it. */
export function fileHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** Unpacks an archive with the system's tar, as an administrator could, into a new directory. */
export function untar(s: Scratch, file: string): string {
  const into = s.dir('judge-untar-');
  const r = spawnSync('tar', ['-xf', file, '-C', into], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
  return into;
}
