import { openPackageZip } from '@judge/problem-package';
import { eq } from 'drizzle-orm';
import type { Outbox } from '../../db/transactor.js';
import { problemVersions } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { findProblem, problemAudience } from './queries.js';
import type { PackageSummary } from './package.js';
import { toProblem } from './views.js';

/** What a new version asks of judging when its package names no time limit: a trial that computes one. */
export interface VersionCalibration {
  queue(v: { versionId: string; problemType: string; packageFileId: string }, out: Outbox): void;
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
 * Stores the limit a calibration trial computed with its version (`timeLimitSource: 'trial'`) and
 * tells the problem's audience. A version whose package names a limit keeps it. False when the
 * version is gone or names its own.
 */
export function storeComputedTimeLimit(d: Deps, versionId: string, seconds: number, out: Outbox): boolean {
  const v = d.db.select().from(problemVersions).where(eq(problemVersions.id, versionId)).get();
  const info = v?.packageInfo;
  if (!v || !info || (info.timeLimitSeconds !== undefined && info.timeLimitSource !== 'trial')) return false;
  d.db
    .update(problemVersions)
    .set({ packageInfo: { ...info, timeLimitSeconds: seconds, timeLimitSource: 'trial' } })
    .where(eq(problemVersions.id, versionId))
    .run();
  const p = findProblem(d.db, v.problemId);
  if (p) out.emit(event('problemChanged', { problem: toProblem(d.db, p) }, problemAudience(d.db, p)));
  return true;
}
