import type { ActivityDashboard } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import { managedActivity } from '../policy/index.js';
import { readRunnerCensus } from '../runners/index.js';
import { busyRunners, oldestQueued, openPrintouts, outcomes, perMinute, unansweredQuestions } from './queries.js';

/**
 * The figures of one activity for its staff (its managers and the administrators), read at once
 * from the tables' indexes: the page refetches them on every event of the activity, so a request
 * costs a handful of index lookups and one pass over the activity's own submissions.
 */
export class DashboardService {
  constructor(private readonly d: Deps) {}

  async get(actor: Actor, idOrSlug: string): Promise<ActivityDashboard> {
    // 404 to whoever may not see the activity, 403 to a member who does not manage it
    const a = await managedActivity(this.d, actor, idOrSlug);
    const now = this.d.clock.now();
    // one read: no report commits between these queries, so the figures agree
    const { o, oldest, minutes, busy, census, unanswered, printouts } = await this.d.tx.read(async (q) => ({
      o: await outcomes(q, a.id),
      oldest: await oldestQueued(q, a.id),
      minutes: await perMinute(q, a.id, now.getTime()),
      busy: await busyRunners(q),
      census: await readRunnerCensus(q, now.getTime()),
      unanswered: await unansweredQuestions(q, a.id),
      printouts: await openPrintouts(q, a.id),
    }));
    return {
      activityId: a.id,
      slug: a.slug,
      at: iso(now),
      queue: { queued: o.states.queued, running: o.states.running, ...(oldest ? { oldestQueuedAt: oldest.at, oldestQueuedId: oldest.id } : {}) },
      runners: { connected: census.connected, busy, approved: census.approved, pendingApproval: census.pendingApproval },
      submissions: { total: o.total, lastTenMinutes: minutes.reduce((s, n) => s + n, 0), perMinute: minutes },
      states: o.states,
      verdicts: o.verdicts,
      judgingErrors: { failed: o.states.failed, judgeError: o.judgeError },
      questions: { unanswered },
      printouts,
    };
  }
}
