import type { Activity } from '@judge/contract';
import { useT } from '../../../i18n/I18n';
import { formatDuration, Time } from '../../../i18n/time';
import { clockState } from '../../activity/clockPhase';

/** Where an activity stands on its own dates at `now` (server time): to start, running, ended; with its clock. */
export function ActivityPhase({ activity, now }: { activity: Activity; now: number }) {
  const t = useT();
  const p = clockState([{ startDate: activity.startDate, endDate: activity.endDate }], now).phase;
  if (p.kind === 'before')
    return (
      <span className="phase phase-before">
        {t('clock.startsIn')} <strong className="clock-time">{formatDuration(p.at - now)}</strong> · <Time iso={activity.startDate!} timeZone={activity.timeZone} />
      </span>
    );
  if (p.kind === 'running')
    return (
      <span className="phase phase-running">
        {t('clock.running')}
        {p.until !== undefined && (
          <>
            {' · '}
            {t('clock.timeLeft')} <strong className="clock-time">{formatDuration(p.until - now)}</strong>
          </>
        )}
      </span>
    );
  if (p.kind === 'ended')
    return (
      <span className="phase phase-ended">
        {t('clock.ended')} · <Time iso={activity.endDate!} timeZone={activity.timeZone} />
      </span>
    );
  return <span className="phase muted">{t('staff.home.noDates')}</span>;
}
