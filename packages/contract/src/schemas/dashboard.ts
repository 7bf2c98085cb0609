import { z } from 'zod';
import { Timestamp } from '../wire.js';

const Count = z.number().int().min(0);

/**
 * What the staff of one activity watch during a contest (extension): its judging queue, the
 * runners, the flow of submissions and their outcomes, and the questions and printouts waiting.
 * Every figure is read when asked; the runners are the instance's, shared by every activity.
 */
export const ActivityDashboard = z.object({
  activityId: z.string(),
  slug: z.string(),
  at: Timestamp.meta({ description: "The server's time the figures were read at (ages and the minutes below count from it)" }),
  queue: z.object({
    queued: Count.meta({ description: 'Submissions of the activity waiting for a runner (first judgings and rejudges)' }),
    running: Count.meta({ description: 'Submissions of the activity a runner is judging now' }),
    oldestQueuedAt: Timestamp.optional().meta({ description: 'When the longest-waiting of them was queued; absent with none waiting' }),
    oldestQueuedId: z.string().optional().meta({ description: 'That submission' }),
  }),
  runners: z
    .object({
      connected: Count.meta({ description: 'Approved runners seen within the last 2 minutes' }),
      busy: Count.meta({ description: 'Runners holding a job now (a judging, a package trial or a sample run), of any activity' }),
      approved: Count,
      pendingApproval: Count,
    })
    .meta({ description: "The instance's runners: every activity shares them" }),
  submissions: z.object({
    total: Count,
    lastTenMinutes: Count,
    perMinute: z.array(Count).length(10).meta({ description: 'Submissions made in each of the last ten minutes, the oldest minute first and the one ending at `at` last' }),
  }),
  states: z.object({ queued: Count, running: Count, completed: Count, failed: Count, cancelled: Count }).meta({ description: "Submissions by their newest attempt's state" }),
  verdicts: z
    .array(z.object({ verdict: z.string(), count: Count }))
    .meta({ description: 'Judged submissions by verdict, the most frequent first (excluded ones counted too)' }),
  judgingErrors: z.object({
    failed: Count.meta({ description: 'Submissions given up after 5 deliveries brought no result (state failed)' }),
    judgeError: Count.meta({ description: 'Submissions judged JE: the runner could not judge them (a broken package or checker)' }),
  }),
  questions: z.object({ unanswered: Count.meta({ description: "Participants' questions without an answer" }) }),
  printouts: z.object({ queued: Count, claimed: Count }).meta({ description: 'Printouts not resolved yet: waiting, and taken by a member of staff' }),
});
export type ActivityDashboard = z.infer<typeof ActivityDashboard>;
