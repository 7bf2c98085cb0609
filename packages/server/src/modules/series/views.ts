import type { Series, SeriesProblem } from '@judge/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { activities, problemVersionFiles, problemVersions, problems, seriesProblems, submissions } from '../../db/schema.js';
import { matchingRunners, requiredTags } from '../runners/index.js';
import { compact } from '../../util.js';
import type { SeriesRow } from './schedule.js';

export type AssignmentRow = typeof seriesProblems.$inferSelect;

/** Submissions per assignment, for the assignments asked about. */
function submissionCounts(db: Db, ids: string[]): Map<string, number> {
  if (!ids.length) return new Map();
  const rows = db
    .select({ id: submissions.seriesProblemId, n: sql<number>`count(*)` })
    .from(submissions)
    .where(inArray(submissions.seriesProblemId, ids))
    .groupBy(submissions.seriesProblemId)
    .all();
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** The newest version (id and number) of each problem that has any. */
function newestVersions(db: Db, problemIds: string[]): Map<string, { id: string; version: number }> {
  if (!problemIds.length) return new Map();
  const rows = db
    .select({ id: problemVersions.id, problemId: problemVersions.problemId, version: problemVersions.version })
    .from(problemVersions)
    .where(
      and(
        inArray(problemVersions.problemId, problemIds),
        sql`${problemVersions.version} = (SELECT max(v.version) FROM problem_versions v WHERE v.problem_id = ${problemVersions.problemId})`,
      ),
    )
    .all();
  return new Map(rows.map((r) => [r.problemId, { id: r.id, version: r.version }]));
}

function versionNumbers(db: Db, versionIds: string[]): Map<string, number> {
  if (!versionIds.length) return new Map();
  const rows = db.select({ id: problemVersions.id, version: problemVersions.version }).from(problemVersions).where(inArray(problemVersions.id, versionIds)).all();
  return new Map(rows.map((r) => [r.id, r.version]));
}

/** Which of these versions carry a package. */
function withPackage(db: Db, versionIds: string[]): Set<string> {
  if (!versionIds.length) return new Set();
  const rows = db
    .selectDistinct({ id: problemVersionFiles.versionId })
    .from(problemVersionFiles)
    .where(and(inArray(problemVersionFiles.versionId, versionIds), eq(problemVersionFiles.role, 'package')))
    .all();
  return new Set(rows.map((r) => r.id));
}

/**
 * The managers' view of the assignments of some series, grouped by series and in order. A fixed
 * number of queries whatever the count: problems, versions, packages and submission counts are
 * each read for all assignments at once.
 */
function assignmentsOf(db: Db, seriesIds: string[]): Map<string, SeriesProblem[]> {
  const out = new Map<string, SeriesProblem[]>(seriesIds.map((id) => [id, []]));
  if (!seriesIds.length) return out;
  const rows = db
    .select({ a: seriesProblems, problemSlug: problems.slug, problemName: problems.name })
    .from(seriesProblems)
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .where(inArray(seriesProblems.seriesId, seriesIds))
    .orderBy(asc(seriesProblems.order), asc(seriesProblems.createdAt))
    .all();
  const newest = newestVersions(db, [...new Set(rows.map((r) => r.a.problemId))]);
  const pinned = versionNumbers(db, rows.flatMap((r) => (r.a.pinnedVersionId ? [r.a.pinnedVersionId] : [])));
  // the version a submission would be judged against: the pinned one, else the newest
  const effective = (a: AssignmentRow) => a.pinnedVersionId ?? newest.get(a.problemId)?.id;
  const packaged = withPackage(db, rows.flatMap((r) => effective(r.a) ?? []));
  const submitted = submissionCounts(db, rows.map((r) => r.a.id));
  for (const { a, problemSlug, problemName } of rows) {
    const versionId = effective(a);
    out.get(a.seriesId)!.push(
      compact({
        id: a.id,
        seriesId: a.seriesId,
        problemId: a.problemId,
        problemSlug,
        problemName,
        slug: a.slug,
        name: a.name ?? problemName,
        order: a.order,
        pinnedProblemVersionId: a.pinnedVersionId,
        pinnedVersion: a.pinnedVersionId ? pinned.get(a.pinnedVersionId) : undefined,
        currentVersion: newest.get(a.problemId)?.version ?? 0,
        hasPackage: !!versionId && packaged.has(versionId),
        submissionCount: submitted.get(a.id) ?? 0,
        config: a.config,
        spec: a.spec,
        props: a.props,
        maxPoints: a.maxPoints,
        maxUploadBytes: a.maxUploadBytes,
        maxAttachments: a.maxAttachments,
        maxSubmissions: a.maxSubmissions,
      }) as SeriesProblem,
    );
  }
  return out;
}

/**
 * The managers' view of series, every setting included, with their assignments in order.
 * `matchingRunners` counts approved runners with the tags the series requires (its own, else its activity's).
 */
export function toSeriesList(db: Db, rows: SeriesRow[]): Series[] {
  const assigned = assignmentsOf(db, rows.map((s) => s.id));
  const activityTags = new Map<string, string[]>();
  for (const id of new Set(rows.map((s) => s.activityId))) {
    activityTags.set(id, db.select({ tags: activities.runnerTags }).from(activities).where(eq(activities.id, id)).get()?.tags ?? []);
  }
  return rows.map(
    (s) =>
      compact({
        id: s.id,
        activityId: s.activityId,
        slug: s.slug,
        name: s.name,
        order: s.order,
        startDate: s.startDate,
        endDate: s.endDate,
        isOpen: s.isOpen,
        pausedAt: s.pausedAt,
        hideProblemsWhilePaused: s.hideProblemsWhilePaused,
        revealProblemCount: s.revealProblemCount,
        rankingFreezeAt: s.rankingFreezeAt,
        rankingRevealAt: s.rankingRevealAt,
        rankingVisibleFrom: s.rankingVisibleFrom,
        rankingVisibleTo: s.rankingVisibleTo,
        importance: s.importance,
        importanceScope: s.importanceScope as Series['importanceScope'],
        addressRules: s.addressRules,
        restrictionsEnabled: s.restrictionsEnabled,
        runnerTags: s.runnerTags,
        matchingRunners: matchingRunners(db, requiredTags(s.runnerTags, activityTags.get(s.activityId) ?? [])),
        problems: assigned.get(s.id)!,
      }) as Series,
  );
}

export function toSeries(db: Db, row: SeriesRow): Series {
  return toSeriesList(db, [row])[0]!;
}
