import type { ActivityDashboard } from '@judge/contract';
import { and, asc, count, eq, exists, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { attempts, printouts, questions, sampleRuns, submissions, trials } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';

/** The minutes `perMinute` covers. */
export const MINUTES = 10;
const MINUTE_MS = 60_000;

const STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
type States = ActivityDashboard['states'];

/**
 * The activity's submissions by state and verdict, in one pass over its rows
 * (submissions_activity finds them; the activity's rows only, never the whole table).
 */
export async function outcomes(q: Q, activityId: string): Promise<{ total: number; states: States; verdicts: ActivityDashboard['verdicts']; judgeError: number }> {
  const rows = await q
    .select({ state: submissions.state, verdict: submissions.verdict, n: count() })
    .from(submissions)
    .where(eq(submissions.activityId, activityId))
    .groupBy(submissions.state, submissions.verdict);
  const states: States = { queued: 0, running: 0, completed: 0, failed: 0, cancelled: 0 };
  const verdicts = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    total += r.n;
    if ((STATES as readonly string[]).includes(r.state)) states[r.state as keyof States] += r.n;
    // a verdict counts once judged: a rejudge queued keeps the old verdict until it finishes
    if (r.state === 'completed' && r.verdict) verdicts.set(r.verdict, (verdicts.get(r.verdict) ?? 0) + r.n);
  }
  const list = [...verdicts].map(([verdict, count]) => ({ verdict, count })).sort((a, b) => b.count - a.count || a.verdict.localeCompare(b.verdict));
  return { total, states, verdicts: list, judgeError: verdicts.get('JE') ?? 0 };
}

/**
 * The longest-waiting queued judging of the activity. The queue is short and the activity's
 * submissions many: the queued attempts are read first (the partial queue index) and each is asked
 * whether its submission is the activity's (by key), rather than walking the activity's submissions.
 */
export async function oldestQueued(q: Q, activityId: string): Promise<{ id: string; at: string } | undefined> {
  const ofActivity = q
    .select({ one: sql`1` })
    .from(submissions)
    .where(and(eq(submissions.id, attempts.submissionId), eq(submissions.activityId, activityId)));
  const [row] = await q
    .select({ id: attempts.submissionId, at: attempts.createdAt })
    .from(attempts)
    .where(and(eq(attempts.state, 'queued'), exists(ofActivity)))
    .orderBy(asc(attempts.createdAt))
    .limit(1);
  return row;
}

/**
 * Submissions in each of the last MINUTES minutes before `nowMs`, oldest first: a range of
 * submissions_activity, counted per minute by the database rather than read out row by row. The
 * minute of a row is found by comparing its time with the minutes' bounds (stored times are ISO
 * text in UTC, so they compare as they read): no date arithmetic, which no two engines share.
 */
export async function perMinute(q: Q, activityId: string, nowMs: number): Promise<number[]> {
  const bound = (k: number) => new Date(nowMs - k * MINUTE_MS).toISOString();
  const now = bound(0);
  const since = bound(MINUTES);
  const cases = Array.from({ length: MINUTES - 1 }, (_, k) => sql` WHEN ${submissions.submittedAt} > ${bound(k + 1)} THEN ${sql.raw(String(k))}`);
  const ago = sql<number>`CASE${sql.join(cases)} ELSE ${sql.raw(String(MINUTES - 1))} END`.mapWith(Number).as('ago');
  const rows = await q
    .select({ ago, n: count() })
    .from(submissions)
    .where(and(eq(submissions.activityId, activityId), sql`${submissions.submittedAt} > ${since}`, sql`${submissions.submittedAt} <= ${now}`))
    .groupBy(sql`ago`);
  const minutes = new Array<number>(MINUTES).fill(0);
  for (const r of rows) {
    const k = Math.min(Math.max(r.ago, 0), MINUTES - 1);
    minutes[MINUTES - 1 - k]! += r.n;
  }
  return minutes;
}

/** Runners holding any job now: a judging, a package trial or a sample run (each table's state index). */
export async function busyRunners(q: Q): Promise<number> {
  const holding = (t: typeof attempts | typeof trials | typeof sampleRuns) =>
    q.select({ runnerId: t.runnerId }).from(t).where(and(eq(t.state, 'running'), isNotNull(t.runnerId)));
  const busy = holding(attempts).union(holding(trials)).union(holding(sampleRuns)).as('busy');
  const [row] = await q.select({ n: count() }).from(busy);
  return row?.n ?? 0;
}

export async function unansweredQuestions(q: Q, activityId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(questions)
    .where(and(eq(questions.activityId, activityId), eq(questions.kind, 'question'), isNull(questions.answeredAt)));
  return row?.n ?? 0;
}

/** Printouts not resolved yet, by state (printouts_activity leads with the activity and the state). */
export async function openPrintouts(q: Q, activityId: string): Promise<ActivityDashboard['printouts']> {
  const rows = await q
    .select({ state: printouts.state, n: count() })
    .from(printouts)
    .where(and(eq(printouts.activityId, activityId), inArray(printouts.state, ['queued', 'claimed'])))
    .groupBy(printouts.state);
  const of = (s: string) => rows.find((r) => r.state === s)?.n ?? 0;
  return { queued: of('queued'), claimed: of('claimed') };
}
