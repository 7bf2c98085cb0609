import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { filesSetting } from '../config.js';
import { dataPaths, isInitialised } from '../datadir.js';
import { checkDatabase, checkReferenced, checkStore, type Finding } from './doctor-checks.js';
import { askServer } from './control.js';
import { OpsError } from './errors.js';
import { refuseOnPostgres } from './engine-guard.js';
import { openOfflineDb } from './offline-db.js';
import { takeSnapshot, type Snapshot } from './snapshot.js';

const HOUR = 3_600_000;

export type { Finding };

export interface DoctorReport {
  dataDir: string;
  /** Whether the checks read a snapshot the running server made, or the stopped server's database. */
  via: 'server' | 'database';
  findings: Finding[];
  /** Findings --repair did not (or could not) mend. */
  remaining: number;
}

/** Opens what the checks read; a database that cannot be opened at all is itself the finding. */
async function openForChecks(dir: string, filesDir: string, repair: boolean): Promise<{ db?: Database.Database; snapshot?: Snapshot; finding?: Finding; via: DoctorReport['via'] }> {
  const running = await askServer(dir, { op: 'ping' });
  if (running && repair) throw new OpsError(`a judge server is running on ${dir}; stop it before \`judge doctor --repair\` (checking without --repair works while it runs)`);
  try {
    if (running) {
      const snapshot = await takeSnapshot(dir, filesDir);
      return { db: new Database(snapshot.path, { readonly: true, fileMustExist: true }), snapshot, via: 'server' };
    }
    return { db: openOfflineDb(dir), via: 'database' };
  } catch (e) {
    if (e instanceof OpsError) throw e;
    return { finding: { kind: 'database', message: `the database cannot be read: ${(e as Error).message}` }, via: running ? 'server' : 'database' };
  }
}

/** Removes what is safe to remove: orphans older than an hour and upload leftovers, never a referenced file. */
function repairFindings(findings: Finding[]): void {
  for (const f of findings) {
    if (!f.path) continue;
    if (f.kind === 'orphan' && (f.ageMs ?? 0) < HOUR) {
      f.message += ' (kept: less than an hour old)';
      continue;
    }
    rmSync(f.path, { force: true });
    f.repaired = true;
  }
}

/**
 * Checks a data directory: the database's integrity and foreign keys, stored files the database
 * names but the store lacks, files in the store nobody names, and upload leftovers.
 */
export async function doctor(dir: string, o: { repair: boolean; filesDir?: string }): Promise<DoctorReport> {
  refuseOnPostgres(dir, 'doctor');
  if (!isInitialised(dir)) throw new OpsError(`${dir} holds no judge database`);
  const filesDir = filesSetting(dir, o.filesDir);
  const paths = dataPaths(dir, filesDir);
  const started = Date.now();
  const { db, snapshot, finding, via } = await openForChecks(dir, filesDir, o.repair);
  const findings: Finding[] = finding ? [finding] : [];
  try {
    if (db) {
      try {
        findings.push(...checkDatabase(db));
        const ref = checkReferenced(db, paths.files);
        findings.push(...ref.findings);
        const online = via === 'server';
        findings.push(...checkStore(paths, ref.referenced, { now: Date.now(), since: online ? started : Infinity, tempSince: online ? started - HOUR : Infinity, skip: snapshot?.path ?? '' }));
      } catch (e) {
        findings.push({ kind: 'database', message: `the database cannot be read: ${(e as Error).message}` });
      }
    }
  } finally {
    db?.close();
    snapshot?.remove();
  }
  if (o.repair) repairFindings(findings);
  return { dataDir: dir, via, findings, remaining: findings.filter((f) => !f.repaired).length };
}
