import { openPackageZip } from '@judge/problem-package';
import { and, eq, gte } from 'drizzle-orm';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { problemVersionFiles, problemVersions } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import { findProblem, problemAudience } from './queries.js';
import type { PackageSummary } from './package.js';
import { toProblem } from './views.js';

/** What a new version asks of judging when its package names no time limit: a trial that computes one. */
export interface VersionCalibration {
  /** Queues the trial inside the caller's write (`q`); waiting runners hear of it after the commit (`out`). */
  queue(q: Q, v: { versionId: string; problemType: string; packageFileId: string }, out: Outbox): Promise<void>;
}

/**
 * Whether a package's time limit is for a trial to compute: it names none, and it has accepted
 * example submissions (problemtools' rule needs their running times; without any there is nothing
 * to measure, and the version is judged at the runner's default).
 */
export async function needsCalibration(info: PackageSummary, path: string): Promise<boolean> {
  if (info.timeLimitSeconds !== undefined) return false;
  const pkg = await openPackageZip(path);
  try {
    return pkg.entries.some((e) => !e.directory && /^submissions\/accepted\/./.test(e.name));
  } finally {
    pkg.close();
  }
}

/**
 * Stores the limit a calibration trial computed with its version (`timeLimitSource: 'trial'`), and
 * with the later versions of the problem that carried the same package forward before the trial
 * reported, and tells the problem's audience. A version whose package names a limit keeps it.
 * False when the version is gone or names its own. Runs inside the caller's write (`q`, `out`).
 */
export async function storeComputedTimeLimit(q: Q, versionId: string, seconds: number, out: Outbox): Promise<boolean> {
  const [v] = await q.select().from(problemVersions).where(eq(problemVersions.id, versionId)).limit(1);
  if (!v || !calibratable(v.packageInfo)) return false;
  const [pkg] = await q
    .select({ fileId: problemVersionFiles.fileId })
    .from(problemVersionFiles)
    .where(and(eq(problemVersionFiles.versionId, v.id), eq(problemVersionFiles.role, 'package')))
    .limit(1);
  const same = pkg
    ? await q
        .select({ id: problemVersions.id, packageInfo: problemVersions.packageInfo })
        .from(problemVersions)
        .innerJoin(problemVersionFiles, and(eq(problemVersionFiles.versionId, problemVersions.id), eq(problemVersionFiles.role, 'package')))
        .where(and(eq(problemVersions.problemId, v.problemId), gte(problemVersions.version, v.version), eq(problemVersionFiles.fileId, pkg.fileId)))
    : [{ id: v.id, packageInfo: v.packageInfo }];
  for (const s of same) {
    if (!calibratable(s.packageInfo)) continue;
    await q
      .update(problemVersions)
      .set({ packageInfo: { ...s.packageInfo, timeLimitSeconds: seconds, timeLimitSource: 'trial' } })
      .where(eq(problemVersions.id, s.id));
  }
  const p = await findProblem(q, v.problemId);
  if (p) out.emit(event('problemChanged', { problem: await toProblem(q, p) }, await problemAudience(q, p)));
  return true;
}

/** A package summary whose time limit is a trial's to set: it names none (or a trial set it). */
function calibratable(info: Record<string, unknown> | null): info is Record<string, unknown> {
  return !!info && (info.timeLimitSeconds === undefined || info.timeLimitSource === 'trial');
}
