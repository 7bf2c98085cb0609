import type Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { runners } from '../../db/schema.js';
import { CONNECTED_SECONDS } from './service.js';

/** The tags a job requires: its series', or its activity's when the series names none (decisions §8). */
export function requiredTags(seriesTags: readonly string[], activityTags: readonly string[]): readonly string[] {
  return seriesTags.length ? seriesTags : activityTags;
}

export function tagsSatisfied(required: readonly string[], held: readonly string[]): boolean {
  return required.every((t) => held.includes(t));
}

/**
 * How many approved runners could take a job requiring these tags: what activities and series show
 * as matchingRunners. Runners are few, so their tags are read once per call and matched here.
 */
export function matchingRunners(db: Db, required: readonly string[]): number {
  return db
    .select({ tags: runners.tags })
    .from(runners)
    .where(eq(runners.state, 'approved'))
    .all()
    .filter((r) => tagsSatisfied(required, r.tags)).length;
}

/**
 * The languages the approved runners matching these tags reported, together; undefined when it is
 * not known: no approved runner matches yet (the work waits in the queue for one, as an organiser
 * setting up expects), or one of them reported no languages (a runner older than the report, which
 * counts as able to judge any).
 */
export function judgeableLanguages(db: Db, required: readonly string[]): ReadonlySet<string> | undefined {
  const matching = db
    .select({ tags: runners.tags, languages: runners.languages })
    .from(runners)
    .where(eq(runners.state, 'approved'))
    .all()
    .filter((r) => tagsSatisfied(required, r.tags));
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
export function runnerCensus(sqlite: Database.Database, nowMs: number): RunnerCensus {
  const rows = sqlite.prepare('SELECT name, state, last_seen_at AS lastSeenAt FROM runners').all() as { name: string; state: string; lastSeenAt: string | null }[];
  const since = nowMs - CONNECTED_SECONDS * 1000;
  const connected = rows.filter((r) => r.state === 'approved' && !!r.lastSeenAt && Date.parse(r.lastSeenAt) > since);
  return {
    connected: connected.length,
    approved: rows.filter((r) => r.state === 'approved').length,
    pendingApproval: rows.filter((r) => r.state === 'pendingApproval').length,
    connectedNames: connected.map((r) => r.name),
  };
}
