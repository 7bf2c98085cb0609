import type { ActivityDashboard } from '@judge/contract';
import type { statements } from '../../util.js';

export type Statements = ReturnType<typeof statements>;

/** The minutes `perMinute` covers. */
export const MINUTES = 10;
const MINUTE_MS = 60_000;

const STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
type States = ActivityDashboard['states'];

/**
 * The activity's submissions by state and verdict, in one pass over its rows
 * (submissions_activity finds them; the activity's rows only, never the whole table).
 */
export function outcomes(q: Statements, activityId: string): { total: number; states: States; verdicts: ActivityDashboard['verdicts']; judgeError: number } {
  const rows = q<[string], { state: string; verdict: string | null; n: number }>(
    'SELECT state, verdict, count(*) AS n FROM submissions WHERE activity_id = ? GROUP BY state, verdict',
  ).all(activityId);
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
 * submissions many: CROSS JOIN keeps SQLite reading the partial queue index first (left to itself it
 * walks every submission of the activity).
 */
export function oldestQueued(q: Statements, activityId: string): { id: string; at: string } | undefined {
  return q<[string], { id: string; at: string }>(
    `SELECT a.submission_id AS id, a.created_at AS at FROM attempts a CROSS JOIN submissions s ON s.id = a.submission_id
     WHERE a.state = 'queued' AND s.activity_id = ? ORDER BY a.created_at LIMIT 1`,
  ).get(activityId);
}

/**
 * Submissions in each of the last MINUTES minutes before `nowMs`, oldest first: a range of
 * submissions_activity, counted per minute by SQLite rather than read out row by row.
 */
export function perMinute(q: Statements, activityId: string, nowMs: number): number[] {
  const now = new Date(nowMs).toISOString();
  const since = new Date(nowMs - MINUTES * MINUTE_MS).toISOString();
  const rows = q<[string, string, string, string], { ago: number; n: number }>(
    `SELECT CAST((julianday(?) - julianday(submitted_at)) * 1440 AS INTEGER) AS ago, count(*) AS n
     FROM submissions WHERE activity_id = ? AND submitted_at > ? AND submitted_at <= ? GROUP BY ago`,
  ).all(now, activityId, since, now);
  const minutes = new Array<number>(MINUTES).fill(0);
  for (const r of rows) {
    const ago = Math.min(Math.max(r.ago, 0), MINUTES - 1);
    minutes[MINUTES - 1 - ago]! += r.n;
  }
  return minutes;
}

/** Runners holding any job now: a judging, a package trial or a sample run (each table's state index). */
export function busyRunners(q: Statements): number {
  return q<[], { n: number }>(
    `SELECT count(*) AS n FROM (
       SELECT runner_id FROM attempts WHERE state = 'running' AND runner_id IS NOT NULL
       UNION SELECT runner_id FROM trials WHERE state = 'running' AND runner_id IS NOT NULL
       UNION SELECT runner_id FROM sample_runs WHERE state = 'running' AND runner_id IS NOT NULL)`,
  ).get()!.n;
}

export function unansweredQuestions(q: Statements, activityId: string): number {
  return q<[string], { n: number }>("SELECT count(*) AS n FROM questions WHERE activity_id = ? AND kind = 'question' AND answered_at IS NULL").get(activityId)!.n;
}

/** Printouts not resolved yet, by state (printouts_activity leads with the activity and the state). */
export function openPrintouts(q: Statements, activityId: string): ActivityDashboard['printouts'] {
  const rows = q<[string], { state: string; n: number }>(
    "SELECT state, count(*) AS n FROM printouts WHERE activity_id = ? AND state IN ('queued', 'claimed') GROUP BY state",
  ).all(activityId);
  const of = (s: string) => rows.find((r) => r.state === s)?.n ?? 0;
  return { queued: of('queued'), claimed: of('claimed') };
}
