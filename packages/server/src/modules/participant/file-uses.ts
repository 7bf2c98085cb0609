import { eq, sql } from 'drizzle-orm';
import { activities, problemVersionFiles, problemVersions, series, seriesProblems } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';

/**
 * The assignments that use a problem-version file, with the file's scope, whether the version is
 * the one they use (pinned, or the problem's newest when none is pinned), their series and
 * activity: what decides who may read the file. One indexed query: the file's version rows
 * (problem_version_files_file), the problem's assignments (series_problems_problem), their series
 * and activities by key; whether a version is the newest is an index probe.
 */
export function problemFileUses(q: Q, fileId: string) {
  return q
    .select({
      scope: problemVersionFiles.scope,
      // SQLite answers the comparison with 0 or 1, PostgreSQL with a boolean (null when no pin and a newer version exists)
      usesVersion: sql<boolean | null>`(${seriesProblems.pinnedVersionId} = ${problemVersions.id} OR (${seriesProblems.pinnedVersionId} IS NULL AND NOT EXISTS (
        SELECT 1 FROM problem_versions AS newer WHERE newer.problem_id = ${problemVersions.problemId} AND newer.version > ${problemVersions.version})))`.mapWith(Boolean),
      s: series,
      a: activities,
    })
    .from(problemVersionFiles)
    .innerJoin(problemVersions, eq(problemVersions.id, problemVersionFiles.versionId))
    .innerJoin(seriesProblems, eq(seriesProblems.problemId, problemVersions.problemId))
    .innerJoin(series, eq(series.id, seriesProblems.seriesId))
    .innerJoin(activities, eq(activities.id, seriesProblems.activityId))
    .where(eq(problemVersionFiles.fileId, fileId));
}
