import { maskUrlPassword } from '../util.js';

/**
 * The `database` setting: empty for the embedded SQLite file, or a PostgreSQL URL. The URL may hold
 * a password, a secret: what is logged or shown is `maskDatabaseUrl`'s form, never the setting.
 */

/** Whether the setting names a PostgreSQL server rather than the data directory's SQLite file. */
export function isPostgresUrl(setting: string): boolean {
  return /^postgres(ql)?:\/\//i.test(setting);
}

/**
 * The setting with its password replaced by `***`, also a password given as a `password=` query
 * parameter (node-postgres reads both); what cannot be parsed as a URL is shown as its scheme only.
 */
export function maskDatabaseUrl(setting: string): string {
  return setting ? maskUrlPassword(setting) : 'SQLite (DATA_DIR/judge.db)';
}
