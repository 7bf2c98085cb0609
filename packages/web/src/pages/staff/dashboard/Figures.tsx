import type { ActivityDashboard, ParticipantActivity } from '@judge/contract';
import { useServerSecond } from '../../../clock/hooks';
import { useT } from '../../../i18n/I18n';
import { formatDuration } from '../../../i18n/time';
import { Figure } from './Figure';
import type { DashboardLinks } from './links';
import { PerMinute } from './PerMinute';

interface Props {
  d: ActivityDashboard;
  activity: ParticipantActivity;
  links: DashboardLinks;
  /** What the reader may open: the runners page (runner:read) and the printout queue (printout:manage). */
  may: { runners: boolean; printouts: boolean };
}

/** How long the oldest queued submission has waited, on the server's clock, ticking each second. */
function OldestWait({ since }: { since: string }) {
  const t = useT();
  const now = useServerSecond() * 1000;
  return <>{t('staff.dashboard.oldest', { wait: formatDuration(now - Date.parse(since)) })}</>;
}

/** Every figure, judging first, then what waits for staff (where the activity has the module, or one waits). */
export function Figures({ d, activity, links, may }: Props) {
  const t = useT();
  const errors = d.judgingErrors;
  const printouts = d.printouts.queued + d.printouts.claimed;
  return (
    <ul className="figures" aria-label={t('staff.dashboard.figures')}>
      <Figure
        name="queued"
        to={links.queued}
        value={d.queue.queued}
        label={t('staff.dashboard.queued', { count: d.queue.queued })}
        detail={d.queue.oldestQueuedAt ? <OldestWait since={d.queue.oldestQueuedAt} /> : t('staff.dashboard.queueEmpty')}
        tone={d.queue.queued > 0 && d.runners.connected === 0 ? 'bad' : d.queue.queued > 0 ? 'warn' : 'plain'}
      />
      <Figure name="running" to={links.running} value={d.queue.running} label={t('staff.dashboard.running', { count: d.queue.running })} />
      <Figure
        name="runners"
        to={may.runners ? links.runners : undefined}
        value={d.runners.connected}
        label={t('staff.dashboard.runners', { count: d.runners.connected })}
        detail={t('staff.dashboard.runnersDetail', { busy: d.runners.busy, pending: d.runners.pendingApproval })}
        tone={d.runners.connected === 0 ? 'bad' : 'plain'}
      />
      <Figure
        name="rate"
        to={links.submissions()}
        value={d.submissions.lastTenMinutes}
        label={t('staff.dashboard.lastTen', { count: d.submissions.lastTenMinutes })}
        detail={<PerMinute minutes={d.submissions.perMinute} total={d.submissions.total} />}
      />
      <Figure name="failed" to={links.failed} value={errors.failed} label={t('staff.dashboard.failed', { count: errors.failed })} tone={errors.failed ? 'bad' : 'plain'} />
      <Figure name="je" to={links.verdict('JE')} value={errors.judgeError} label={t('staff.dashboard.judgeError', { count: errors.judgeError })} tone={errors.judgeError ? 'bad' : 'plain'} />
      {(activity.modules.questions || d.questions.unanswered > 0) && (
        <Figure
          name="questions"
          to={links.questions}
          value={d.questions.unanswered}
          label={t('staff.dashboard.unanswered', { count: d.questions.unanswered })}
          tone={d.questions.unanswered ? 'warn' : 'plain'}
        />
      )}
      {(activity.modules.printouts || printouts > 0) && (
        <Figure
          name="printouts"
          to={may.printouts ? links.printouts : undefined}
          value={printouts}
          label={t('staff.dashboard.printouts', { count: printouts })}
          detail={t('staff.dashboard.printoutsDetail', { queued: d.printouts.queued, claimed: d.printouts.claimed })}
          tone={d.printouts.queued ? 'warn' : 'plain'}
        />
      )}
    </ul>
  );
}
