import type Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { runners } from '../../db/schema.js';
import { censusOf, tagsSatisfied, type RunnerCensus } from './queries.js';

/*
 * The runner queries in their synchronous form, for callers that are not on the asynchronous data
 * layer yet (the activities' and series' views, the participant's problem, health, the console
 * and `judge serve`'s start). Transitional: each goes once its last caller awaits the form of the
 * same name with `read` in queries.ts.
 */

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

/** How many runners could judge now, may judge, and wait for an administrator: what health and the console report. */
export function runnerCensus(sqlite: Database.Database, nowMs: number): RunnerCensus {
  return censusOf(sqlite.prepare('SELECT name, state, last_seen_at AS lastSeenAt FROM runners').all() as { name: string; state: string; lastSeenAt: string | null }[], nowMs);
}
