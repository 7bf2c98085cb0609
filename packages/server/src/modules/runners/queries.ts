import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { runners } from '../../db/schema.js';

/** The tags a job requires: its series', or its activity's when the series names none (CONTRACT §8). */
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
