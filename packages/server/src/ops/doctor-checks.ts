import type Database from 'better-sqlite3';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Finding {
  kind: 'database' | 'foreignKey' | 'missing' | 'damaged' | 'orphan' | 'temporary';
  message: string;
  /** A file --repair may remove (an orphan or a leftover); absent for what only a person can mend. */
  path?: string;
  /** Age in milliseconds of that file. */
  ageMs?: number;
  repaired?: boolean;
}

const SHOWN = 20;

/** `integrity_check` and `foreign_key_check`, each problem in words (the first twenty of each). */
export function checkDatabase(db: Database.Database): Finding[] {
  const out: Finding[] = [];
  const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).filter((m) => m !== 'ok');
  for (const m of integrity.slice(0, SHOWN)) out.push({ kind: 'database', message: `the database is damaged: ${m}` });
  const fks = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
  for (const f of fks.slice(0, SHOWN)) out.push({ kind: 'foreignKey', message: `row ${f.rowid} of ${f.table} refers to a row of ${f.parent} that does not exist` });
  if (fks.length > SHOWN) out.push({ kind: 'foreignKey', message: `and ${fks.length - SHOWN} more rows refer to rows that do not exist` });
  return out;
}

/** The records that use a file, named as an administrator finds them. */
const USES_SQL = `
  SELECT 'submission ' || submission_id AS what FROM submission_files WHERE file_id = @id
  UNION ALL SELECT 'problem ' || p.slug || ' version ' || v.version FROM problem_version_files f JOIN problem_versions v ON v.id = f.version_id JOIN problems p ON p.id = v.problem_id WHERE f.file_id = @id
  UNION ALL SELECT 'activity ' || a.slug || ' document ' || d.kind || ' (' || d.language || ')' FROM activity_documents d JOIN activities a ON a.id = d.activity_id WHERE d.file_id = @id
  UNION ALL SELECT 'judging of submission ' || a.submission_id FROM attempt_files f JOIN attempts a ON a.id = f.attempt_id WHERE f.file_id = @id
  UNION ALL SELECT 'runner ' || runner_id FROM runner_files WHERE file_id = @id
  UNION ALL SELECT 'trial ' || id FROM trials WHERE package_file_id = @id`;

/** Every file row whose bytes are not in the store (or not of the recorded size), with what uses it. */
export function checkReferenced(db: Database.Database, filesDir: string): { findings: Finding[]; referenced: Set<string> } {
  const rows = db.prepare<[], { id: string; sha256: string; size_bytes: number; name: string }>('SELECT id, sha256, size_bytes, name FROM files ORDER BY created_at').all();
  const uses = db.prepare<{ id: string }, { what: string }>(USES_SQL);
  const referenced = new Set(rows.map((r) => r.sha256));
  const findings: Finding[] = [];
  for (const r of rows) {
    const path = join(filesDir, r.sha256.slice(0, 2), r.sha256.slice(2, 4), r.sha256);
    let size: number | undefined;
    try {
      size = statSync(path).size;
    } catch {
      size = undefined;
    }
    if (size === r.size_bytes) continue;
    const users = uses.all({ id: r.id }).map((u) => u.what);
    const usedBy = users.length ? `used by ${users.join(', ')}` : 'used by no record';
    const what = `file ${r.id} (${JSON.stringify(r.name)}, SHA-256 ${r.sha256})`;
    if (size === undefined) findings.push({ kind: 'missing', message: `${what} is missing from the store; ${usedBy}` });
    else findings.push({ kind: 'damaged', message: `${what} has ${size} bytes in the store, not ${r.size_bytes}; ${usedBy}` });
  }
  return { findings, referenced };
}

function walk(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * Files in the store no database row names, and leftovers of uploads and snapshots in `.incoming`.
 * Files newer than `since` are skipped: they may belong to rows written after the database was read.
 */
export function checkStore(paths: { files: string; uploads: string; printouts: string }, referenced: Set<string>, o: { now: number; since: number; tempSince: number; skip: string }): Finding[] {
  const { files: filesDir, uploads: incomingDir } = paths;
  const findings: Finding[] = [];
  for (const path of walk(filesDir)) {
    // the printouts' PDFs are a cache of their own (modules/printouts/pdf-store.ts), pruned by retention
    if (path.startsWith(incomingDir + '/') || path.startsWith(paths.printouts + '/') || path === o.skip) continue;
    const rel = relative(filesDir, path);
    const m = /^([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/.exec(rel);
    if (m && referenced.has(m[3]!)) continue;
    const st = statSync(path);
    if (st.mtimeMs > o.since) continue;
    findings.push({ kind: 'orphan', message: `${rel} is in the store but no file record refers to it`, path, ageMs: o.now - st.mtimeMs });
  }
  for (const path of walk(incomingDir)) {
    if (path === o.skip) continue;
    const st = statSync(path);
    if (st.mtimeMs > o.tempSince) continue;
    findings.push({ kind: 'temporary', message: `${relative(filesDir, path)} is left over from an upload or a snapshot that did not finish`, path, ageMs: o.now - st.mtimeMs });
  }
  return findings;
}
