import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { maskDatabaseUrl } from '../db/database-url.js';
import { OpsError } from './errors.js';

/**
 * PostgreSQL's own programs (pg_dump, pg_restore) for backups of a judge on PostgreSQL: on PATH,
 * else the newest under /usr/lib/postgresql/<version>/bin (where Debian's postgresql-client puts
 * them). A pg_dump older than the server refuses to dump it, so the newest is taken.
 */
export function pgProgram(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const p = join('/usr/lib/postgresql', v, 'bin', name);
    if (existsSync(p)) return p;
  }
  for (const dir of (env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, name))) return join(dir, name);
  throw new OpsError(`${name} is not installed (Debian: apt-get install postgresql-client); it is needed to back up or restore a judge on PostgreSQL`);
}

/**
 * The URL without its password, and the password apart: the programs get the URL as an argument
 * (which other users of the machine can see in the process list) and the password as PGPASSWORD.
 */
export function splitPassword(url: string): { url: string; password?: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new OpsError(`${maskDatabaseUrl(url)} is not a URL PostgreSQL's programs can read`);
  }
  let password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = '';
  for (const key of [...u.searchParams.keys()]) {
    if (key.toLowerCase() !== 'password') continue;
    password = u.searchParams.get(key) ?? password;
    u.searchParams.delete(key);
  }
  return { url: u.toString(), ...(password !== undefined ? { password } : {}) };
}

/**
 * Runs a PostgreSQL program against `url`. Its failure is said with its own words, where any
 * mention of the URL is masked; the password never reaches an argument, a message or a log.
 */
export function runPgProgram(name: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const { url: bare, password } = splitPassword(url);
  const env = { ...process.env, ...(password !== undefined ? { PGPASSWORD: password } : {}) };
  return new Promise((resolveRun, reject) => {
    execFile(pgProgram(name), [...args, `--dbname=${bare}`], { env, maxBuffer: 16 * 1024 * 1024 }, (e, _out, err) => {
      if (!e) return resolveRun();
      const said = String(err || e.message).split(bare).join(maskDatabaseUrl(url)).trim().split('\n').slice(0, 5).join('; ');
      reject(new OpsError(`${name} failed on ${maskDatabaseUrl(url)}: ${password ? said.split(password).join('***') : said}`));
    });
  });
}
