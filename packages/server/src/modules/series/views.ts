import type { Series, SeriesProblem } from '@judge/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Q } from '../../db/storage.js';
import { activities, problemVersionFiles, problemVersions, problems, seriesProblems, submissions } from '../../db/schema.js';
import { readMatchingRunners, requiredTags } from '../runners/index.js';
import { compact } from '../../util.js';
import type { SeriesRow } from './schedule.js';

export type AssignmentRow = typeof seriesProblems.$inferSelect;

/** Submissions per assignment, for the assignments asked about. */
async function submissionCounts(q: Q, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await q
    .select({ id: submissions.seriesProblemId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(submissions)
    .where(inArray(submissions.seriesProblemId, ids))
    .groupBy(submissions.seriesProblemId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** The newest version (id and number) of each problem that has any. */
async function newestVersions(q: Q, problemIds: string[]): Promise<Map<string, { id: string; version: number }>> {
  if (!problemIds.length) return new Map();
  const rows = await q
    .select({ id: problemVersions.id, problemId: problemVersions.problemId, version: problemVersions.version })
    .from(problemVersions)
    .where(
      and(
        inArray(problemVersions.problemId, problemIds),
        sql`${problemVersions.version} = (SELECT max(v.version) FROM problem_versions v WHERE v.problem_id = ${problemVersions.problemId})`,
      ),
    );
  return new Map(rows.map((r) => [r.problemId, { id: r.id, version: r.version }]));
}

async function versionNumbers(q: Q, versionIds: string[]): Promise<Map<string, number>> {
  if (!versionIds.length) return new Map();
  const rows = await q.select({ id: problemVersions.id, version: problemVersions.version }).from(problemVersions).where(inArray(problemVersions.id, versionIds));
  return new Map(rows.map((r) => [r.id, r.version]));
}

/** Which of these versions carry a package. */
async function withPackage(q: Q, versionIds: string[]): Promise<Set<string>> {
  if (!versionIds.length) return new Set();
  const rows = await q
    .selectDistinct({ id: problemVersionFiles.versionId })
    .from(problemVersionFiles)
    .where(and(inArray(problemVersionFiles.versionId, versionIds), eq(problemVersionFiles.role, 'package')));
  return new Set(rows.map((r) => r.id));
}

/**
 * The managers' view of the assignments of some series, grouped by series and in order. A fixed
 * number of queries whatever the count: problems, versions, packages and submission counts are
 * each read for all assignments at once.
 */
async function assignmentsOf(q: Q, seriesIds: string[]): Promise<Map<string, SeriesProblem[]>> {
  const out = new Map<string, SeriesProblem[]>(seriesIds.map((id) => [id, []]));
  if (!seriesIds.length) return out;
  const rows = await q
    .select({ a: seriesProblems, problemSlug: problems.slug, problemName: problems.name })
    .from(seriesProblems)
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .where(inArray(seriesProblems.seriesId, seriesIds))
    .orderBy(asc(seriesProblems.order), asc(seriesProblems.createdAt));
  const newest = await newestVersions(q, [...new Set(rows.map((r) => r.a.problemId))]);
  const pinned = await versionNumbers(q, rows.flatMap((r) => (r.a.pinnedVersionId ? [r.a.pinnedVersionId] : [])));
  // the version a submission would be judged against: the pinned one, else the newest
  const effective = (a: AssignmentRow) => a.pinnedVersionId ?? newest.get(a.problemId)?.id;
  const packaged = await withPackage(q, rows.flatMap((r) => effective(r.a) ?? []));
  const submitted = await submissionCounts(q, rows.map((r) => r.a.id));
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
 * `q` reads inside the caller's read or write.
 */
export async function toSeriesList(q: Q, rows: SeriesRow[]): Promise<Series[]> {
  const assigned = await assignmentsOf(q, rows.map((s) => s.id));
  const activityIds = [...new Set(rows.map((s) => s.activityId))];
  const tagRows = activityIds.length ? await q.select({ id: activities.id, tags: activities.runnerTags }).from(activities).where(inArray(activities.id, activityIds)) : [];
  const activityTags = new Map(tagRows.map((r) => [r.id, r.tags]));
  const required = new Map(rows.map((s) => [s.id, requiredTags(s.runnerTags, activityTags.get(s.activityId) ?? [])]));
  // one count per distinct set of tags: the series of an activity mostly require the same
  const matching = new Map<string, number>();
  for (const tags of required.values()) {
    const key = JSON.stringify(tags);
    if (!matching.has(key)) matching.set(key, await readMatchingRunners(q, tags));
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
        matchingRunners: matching.get(JSON.stringify(required.get(s.id)))!,
        problems: assigned.get(s.id)!,
      }) as Series,
  );
}

export async function toSeries(q: Q, row: SeriesRow): Promise<Series> {
  return (await toSeriesList(q, [row]))[0]!;
}
