import { eq } from 'drizzle-orm';
import { runners } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { CONNECTED_SECONDS } from './service.js';

/** The tags a job requires: its series', or its activity's when the series names none (decisions §8). */
export function requiredTags(seriesTags: readonly string[], activityTags: readonly string[]): readonly string[] {
  return seriesTags.length ? seriesTags : activityTags;
}

export function tagsSatisfied(required: readonly string[], held: readonly string[]): boolean {
  return required.every((t) => held.includes(t));
}

/** The approved runners' tags and languages: runners are few, so they are read whole and matched here. */
function approved(q: Q) {
  return q.select({ tags: runners.tags, languages: runners.languages }).from(runners).where(eq(runners.state, 'approved'));
}

/** How many approved runners could take a job requiring these tags: what activities and series show as matchingRunners. */
export async function readMatchingRunners(q: Q, required: readonly string[]): Promise<number> {
  return (await approved(q)).filter((r) => tagsSatisfied(required, r.tags)).length;
}

/**
 * The languages the approved runners matching these tags reported, together; undefined when it is
 * not known: no approved runner matches yet (the work waits in the queue for one, as an organiser
 * setting up expects), or one of them reported no languages (a runner older than the report, which
 * counts as able to judge any).
 */
export async function readJudgeableLanguages(q: Q, required: readonly string[]): Promise<ReadonlySet<string> | undefined> {
  const matching = (await approved(q)).filter((r) => tagsSatisfied(required, r.tags));
  if (!matching.length || matching.some((r) => !r.languages)) return undefined;
  return new Set(matching.flatMap((r) => r.languages!));
}

export interface RunnerCensus {
  /** Approved runners seen within the last CONNECTED_SECONDS (as `isConnected` in the runner list). */
  connected: number;
  approved: number;
  pendingApproval: number;
  /** The names of the connected ones, for the console summary. */
  connectedNames: string[];
}

/** How many runners could judge now, may judge, and wait for an administrator: what health and the console report. */
export async function readRunnerCensus(q: Q, nowMs: number): Promise<RunnerCensus> {
  return censusOf(await q.select({ name: runners.name, state: runners.state, lastSeenAt: runners.lastSeenAt }).from(runners), nowMs);
}

/** The census of these runners at `nowMs`. */
export function censusOf(rows: readonly { name: string; state: string; lastSeenAt: string | null }[], nowMs: number): RunnerCensus {
  const since = nowMs - CONNECTED_SECONDS * 1000;
  const connected = rows.filter((r) => r.state === 'approved' && !!r.lastSeenAt && Date.parse(r.lastSeenAt) > since);
  return {
    connected: connected.length,
    approved: rows.filter((r) => r.state === 'approved').length,
    pendingApproval: rows.filter((r) => r.state === 'pendingApproval').length,
    connectedNames: connected.map((r) => r.name),
  };
}
