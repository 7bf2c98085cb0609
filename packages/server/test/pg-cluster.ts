import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { isPostgresUrl } from '../src/db/database-url.js';
import { ADVISORY_NAMESPACE, openPostgres } from '../src/db/postgres-engine.js';

/**
 * PostgreSQL databases for tests. The server is the one `JUDGE_TEST_DATABASE` names when it is a
 * postgres://… URL (e.g. what `scripts/pg-test-cluster.sh start` printed), or else a throw-away
 * cluster this process (one vitest worker) starts with that script on first use and stops when it
 * exits. Each test file, or each test app (harness.ts), takes a fresh database of its own, cloned
 * from a template that already holds the migrations.
 */

const SCRIPT = fileURLToPath(new URL('../../../scripts/pg-test-cluster.sh', import.meta.url));
const MIGRATIONS = fileURLToPath(new URL('../drizzle-pg/', import.meta.url));
/** Serialises template making and cloning among the processes sharing one server. */
const TEMPLATE_LOCK = 100;

let server: Promise<string> | undefined;
let made = 0;

/** The URL of `url`'s server with `database` as its database. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function startCluster(): Promise<string> {
  const { stdout } = await promisify(execFile)(SCRIPT, ['start', '--watch', String(process.pid)]);
  const url = stdout.trim();
  // the watcher removes it too, but a second later; a normal exit need not leave it for that long
  process.once('exit', () => {
    try {
      execFileSync(SCRIPT, ['stop', url], { stdio: 'ignore' });
    } catch {
      // the watcher started with it removes it once this process is gone
    }
  });
  return url;
}

/**
 * Which engine the test apps of harness.ts run on: JUDGE_TEST_DATABASE `postgres` (a cluster of
 * this worker's own) or a postgres://… URL (that server) for PostgreSQL; unset or `sqlite` for the
 * data directory's SQLite file.
 */
export function testAppsOnPostgres(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.JUDGE_TEST_DATABASE ?? '';
  if (v === '' || v === 'sqlite') return false;
  if (v === 'postgres' || isPostgresUrl(v)) return true;
  throw new Error(`JUDGE_TEST_DATABASE is "${v}": sqlite, postgres or a postgres:// URL`);
}

/** The server's URL: the given one, or a cluster of this process's own. */
export function testServer(): Promise<string> {
  const given = process.env.JUDGE_TEST_DATABASE;
  if (given && isPostgresUrl(given)) return Promise.resolve(given);
  return (server ??= startCluster());
}

/** Names the template after the migrations it holds, so that a changed migration makes a new one. */
function templateName(): string {
  const h = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS, { recursive: true, encoding: 'utf8' }).sort()) {
    if (name.endsWith('.sql') || name.endsWith('.json')) h.update(name).update(readFileSync(MIGRATIONS + name));
  }
  return `judge_template_${h.digest('hex').slice(0, 12)}`;
}

export interface TestDatabase {
  url: string;
  /** Drops it, ending any connection still open to it. */
  drop(): Promise<void>;
}

/** A new database on the test server: migrated and empty, or (`migrated: false`) without a table. */
export async function freshDatabase({ migrated = true } = {}): Promise<TestDatabase> {
  const url = await testServer();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = `judge_test_${process.pid}_${++made}`;
  try {
    await admin.query('SELECT pg_advisory_lock($1, $2)', [ADVISORY_NAMESPACE, TEMPLATE_LOCK]);
    const template = templateName();
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!rowCount) {
      await admin.query(`CREATE DATABASE "${template}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
      const engine = await openPostgres(databaseUrl(url, template));
      await engine.close();
    }
    if (migrated) await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    else await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(url, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
