import type { Activity, ParticipantActivity } from '@judge/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { Q } from '../../db/storage.js';
import { activityDocuments, files, series, seriesProblems } from '../../db/schema.js';
import type { Deps } from '../../services.js';
import { readMatchingRunners } from '../runners/index.js';
import { awardRulesOf } from '../ranking/index.js';
import { compact, iso } from '../../util.js';
import type { ActivityRow } from '../policy/index.js';
import { participantCount } from './queries.js';

type ActivityDocument = Activity['documents'][number];
export type ActivityState = ParticipantActivity['state'];

/** The documents of an activity with the size and hash of their bytes, by kind then language. */
export function documentsOf(q: Q, activityId: string): Promise<ActivityDocument[]> {
  return q
    .select({
      kind: activityDocuments.kind,
      language: activityDocuments.language,
      title: activityDocuments.title,
      validFrom: activityDocuments.validFrom,
      fileId: activityDocuments.fileId,
      sha256: files.sha256,
      sizeBytes: files.sizeBytes,
    })
    .from(activityDocuments)
    .innerJoin(files, eq(files.id, activityDocuments.fileId))
    .where(eq(activityDocuments.activityId, activityId))
    .orderBy(asc(activityDocuments.kind), asc(activityDocuments.language));
}

async function countWhere(q: Q, table: typeof series | typeof seriesProblems, activityId: string): Promise<number> {
  const [row] = await q.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(table).where(eq(table.activityId, activityId));
  return row?.n ?? 0;
}

/** Where an activity stands at `now` by its own dates: no start means started, no end means never over. */
export function activityState(a: Pick<ActivityRow, 'startDate' | 'endDate'>, now: Date): ActivityState {
  const t = iso(now);
  if (a.startDate && a.startDate > t) return 'upcoming';
  if (a.endDate && a.endDate <= t) return 'finished';
  return 'ongoing';
}

/**
 * The managers' view: every setting, the join password included, and what the activity holds.
 * `q` reads inside the caller's read or write.
 */
export async function toActivity(q: Q, a: ActivityRow): Promise<Activity> {
  const documents = await documentsOf(q, a.id);
  const seriesCount = await countWhere(q, series, a.id);
  const problemCount = await countWhere(q, seriesProblems, a.id);
  const participants = await participantCount(q, a.id);
  return compact({
    id: a.id,
    slug: a.slug,
    name: a.name,
    type: a.type,
    rankingType: a.rankingType as Activity['rankingType'],
    timeZone: a.timeZone,
    startDate: a.startDate,
    endDate: a.endDate,
    modules: modulesOf(a.modules),
    documents,
    scoreVisibility: a.scoreVisibility as Activity['scoreVisibility'],
    attachmentVisibility: a.attachmentVisibility as Activity['attachmentVisibility'],
    props: a.props,
    joinPolicy: a.joinPolicy as Activity['joinPolicy'],
    unlisted: a.unlisted,
    joinPassword: a.joinPassword,
    hideEndedSeriesProblems: a.hideEndedSeriesProblems,
    showGroupMembers: a.showGroupMembers,
    publicScoreboard: a.publicScoreboard,
    maxUploadBytes: a.maxUploadBytes,
    maxAttachments: a.maxAttachments,
    maxSubmissionsPerProblem: a.maxSubmissionsPerProblem,
    archivedAt: a.archivedAt,
    publishedAt: a.publishedAt,
    seriesCount,
    problemCount,
    participantCount: participants,
    runnerTags: a.runnerTags,
    matchingRunners: await readMatchingRunners(q, a.runnerTags),
    awardRules: awardRulesOf(a),
    finalizedAt: a.finalizedAt,
  }) as Activity;
}

/** What a participant sees (decisions §9): never the join password, and where the caller stands. */
export async function toParticipantActivity(d: Deps, q: Q, userId: string, a: ActivityRow, now: Date): Promise<ParticipantActivity> {
  const documents = await documentsOf(q, a.id);
  const p = await d.permissions.of(userId, q);
  return compact({
    id: a.id,
    slug: a.slug,
    name: a.name,
    type: a.type,
    rankingType: a.rankingType as ParticipantActivity['rankingType'],
    timeZone: a.timeZone,
    state: activityState(a, now),
    startDate: a.startDate,
    endDate: a.endDate,
    enrolled: p.memberships().includes(a.id),
    canManage: p.has('activity:update', a.id),
    joinPolicy: a.joinPolicy as ParticipantActivity['joinPolicy'],
    scoreVisibility: a.scoreVisibility as ParticipantActivity['scoreVisibility'],
    hideEndedSeriesProblems: a.hideEndedSeriesProblems,
    modules: modulesOf(a.modules),
    documents,
    props: a.props,
    archivedAt: a.archivedAt,
    finalizedAt: a.finalizedAt,
  }) as ParticipantActivity;
}

/** The modules as the wire shows them: sample runs are on unless switched off (rows from before they existed say nothing). */
export function modulesOf(m: { questions: boolean; printouts: boolean; sampleRuns?: boolean }): { questions: boolean; printouts: boolean; sampleRuns: boolean } {
  return { questions: m.questions, printouts: m.printouts, sampleRuns: m.sampleRuns ?? true };
}
