import { ops, type ActivityDashboard } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { emit, fields, when, type JsonOption } from '../output.js';
import { sub } from './common.js';

/** A wait as people say it: `45s`, `3m 05s`, `1h 02m`. */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** The figures as two columns, each line what the web dashboard shows in one tile. */
export function dashboardFields(d: ActivityDashboard): string {
  const q = d.queue;
  const oldest = q.oldestQueuedAt ? ` (the oldest for ${age(Date.parse(d.at) - Date.parse(q.oldestQueuedAt))}: ${q.oldestQueuedId})` : '';
  const s = d.states;
  return fields([
    ['queue', `${q.queued} waiting${oldest}, ${q.running} being judged`],
    ['runners', `${d.runners.connected} connected, ${d.runners.busy} busy, ${d.runners.pendingApproval} waiting for approval (all activities)`],
    ['submissions', `${d.submissions.total} in all, ${d.submissions.lastTenMinutes} in the last 10 minutes`],
    ['per minute', `${d.submissions.perMinute.join(' ')} (oldest minute first)`],
    ['states', `${s.queued} queued, ${s.running} running, ${s.completed} judged, ${s.failed} failed, ${s.cancelled} cancelled`],
    ['verdicts', d.verdicts.map((v) => `${v.verdict} ${v.count}`).join(', ') || 'none yet'],
    ['judging errors', `${d.judgingErrors.failed} given up (state failed), ${d.judgingErrors.judgeError} judged JE`],
    ['questions', `${d.questions.unanswered} unanswered`],
    ['printouts', `${d.printouts.queued} queued, ${d.printouts.claimed} claimed`],
  ]);
}

/** `activities dashboard`: the figures the activity dashboard of the web pages shows, once. */
export function activityDashboardCommand(activities: Command): void {
  sub(activities, 'dashboard <activity>', "An activity's figures now: queue, runners, submissions per minute, verdicts, judging errors, questions and printouts waiting").action(
    async (idOrSlug: string, o: JsonOption) => {
      const c = await api();
      const d = await c.call(ops.getActivityDashboard, { params: { idOrSlug } });
      emit(o, d, () => `${d.slug} at ${when(d.at)}\n${dashboardFields(d)}`);
    },
  );
}
