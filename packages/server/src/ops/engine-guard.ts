import { databaseSetting } from '../config.js';
import { isPostgresUrl, maskDatabaseUrl } from '../db/database-url.js';
import { OpsError } from './errors.js';

/** What an operator does instead of each SQLite-file command when the data lives in PostgreSQL. */
const INSTEAD: Record<'doctor' | 'reset-password', string> = {
  doctor: 'check the database with PostgreSQL\'s own tools (amcheck, pg_dump to /dev/null)',
  'reset-password': 'sign in as another administrator and set the password in Users, or run it against a SQLite copy',
};

/**
 * Doctor and reset-password read and write the data directory's SQLite file (backup and restore
 * know PostgreSQL: pg-snapshot.ts); on a judge whose `database` setting names PostgreSQL they would act on a file the server
 * does not use, so they refuse and say what to do instead. The URL shown has its password masked.
 */
export function refuseOnPostgres(dir: string, command: keyof typeof INSTEAD, env: NodeJS.ProcessEnv = process.env): void {
  const database = databaseSetting(dir, env);
  if (!isPostgresUrl(database)) return;
  throw new OpsError(`judge ${command} works on the SQLite file of a data directory, and ${dir} keeps its data in PostgreSQL (${maskDatabaseUrl(database)}): ${INSTEAD[command]}`);
}
