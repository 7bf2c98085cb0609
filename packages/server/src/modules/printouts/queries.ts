import type { Printout } from '@judge/contract';
import { asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { activities, printouts, problems, seriesProblems, submissionFiles, users } from '../../db/schema.js';
import { portableAlias } from '../../db/portable-alias.js';
import type { Q } from '../../db/storage.js';
import { compact } from '../../util.js';

const requester = portableAlias(users, 'u');
const claimer = portableAlias(users, 'c');
const resolver = portableAlias(users, 'r');

/** A printout with what its views need from the rows around it. */
function printoutFields() {
  return {
    ...ownColumns(),
    activity_name: activities.name,
    activity_slug: activities.slug,
    time_zone: activities.timeZone,
    requester_username: requester.username,
    requester_first: requester.firstName,
    requester_last: requester.lastName,
    requester_tags: requester.tags,
    claimer_username: claimer.username,
    claimer_first: claimer.firstName,
    claimer_last: claimer.lastName,
    resolver_username: resolver.username,
    resolver_first: resolver.firstName,
    resolver_last: resolver.lastName,
    problem_slug: seriesProblems.slug,
    problem_name: sql<string | null>`coalesce(${seriesProblems.name}, ${problems.name})`,
    language: sql<string | null>`(SELECT ${submissionFiles.language} FROM ${submissionFiles} WHERE ${submissionFiles.submissionId} = ${printouts.submissionId} LIMIT 1)`,
  };
}

/** The printout's own columns under the names its views use. */
function ownColumns() {
  const o = printouts;
  return {
    id: o.id,
    activity_id: o.activityId,
    user_id: o.userId,
    title: o.title,
    file_name: o.fileName,
    source: o.source,
    size_bytes: o.sizeBytes,
    sha256: o.sha256,
    submission_id: o.submissionId,
    state: sql<'queued' | 'claimed' | 'resolved'>`${o.state}`,
    requested_at: o.requestedAt,
    claimed_by_user_id: o.claimedByUserId,
    claimed_at: o.claimedAt,
    resolved_at: o.resolvedAt,
    source_disposed_at: o.sourceDisposedAt,
    print_started_at: o.printStartedAt,
    print_finished_at: o.printFinishedAt,
    print_exit_code: o.printExitCode,
    print_output: o.printOutput,
  };
}

/** The printouts matching `where`, with their activity, people and problem. */
export function selectPrintouts(q: Q, where: SQL | undefined) {
  return q
    .select(printoutFields())
    .from(printouts)
    .innerJoin(activities, eq(activities.id, printouts.activityId))
    .innerJoin(requester, eq(requester.id, printouts.userId))
    .leftJoin(claimer, eq(claimer.id, printouts.claimedByUserId))
    .leftJoin(resolver, eq(resolver.id, printouts.resolvedByUserId))
    .leftJoin(seriesProblems, eq(seriesProblems.id, printouts.seriesProblemId))
    .leftJoin(problems, eq(problems.id, seriesProblems.problemId))
    .where(where);
}

export type PrintoutRow = Awaited<ReturnType<typeof selectPrintouts>>[number];

export async function printoutRow(q: Q, id: string): Promise<PrintoutRow | undefined> {
  return (await selectPrintouts(q, eq(printouts.id, id)).limit(1))[0];
}

/** One page of the printouts matching `where` in request order, and how many match. */
export async function printoutPage(q: Q, where: SQL | undefined, order: 'asc' | 'desc', limit: number, offset: number): Promise<{ rows: PrintoutRow[]; total: number }> {
  const [counted] = await q.select({ n: count() }).from(printouts).where(where);
  const by = order === 'asc' ? asc : desc;
  const rows = await selectPrintouts(q, where).orderBy(by(printouts.requestedAt), by(printouts.id)).limit(limit).offset(offset);
  return { rows, total: counted?.n ?? 0 };
}

export function nameOf(username: string | null, first: string | null, last: string | null): string | undefined {
  if (!username) return undefined;
  return [first, last].filter(Boolean).join(' ') || username;
}

/** The record; `viewer` decides `claimedByMe` (events, told to many, leave it out). */
export function toPrintout(r: PrintoutRow, viewer?: string): Printout {
  const tags = r.requester_tags;
  return compact({
    id: r.id,
    activityId: r.activity_id,
    activityName: r.activity_name,
    activitySlug: r.activity_slug,
    requestedByName: nameOf(r.requester_username, r.requester_first, r.requester_last)!,
    groupName: tags[0],
    title: r.title,
    fileName: r.file_name,
    sizeBytes: r.size_bytes,
    sha256: r.sha256,
    state: r.state,
    requestedAt: r.requested_at,
    claimedByName: nameOf(r.claimer_username, r.claimer_first, r.claimer_last),
    claimedAt: r.claimed_at,
    claimedByMe: viewer === undefined ? undefined : r.claimed_by_user_id === viewer,
    resolvedAt: r.resolved_at,
    resolvedByName: nameOf(r.resolver_username, r.resolver_first, r.resolver_last),
    sourceDisposedAt: r.source_disposed_at,
  }) as Printout;
}
