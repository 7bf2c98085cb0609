import type { ParticipantActivity, ParticipantSeries } from '@judge/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { keys } from '../../api/keys';
import { useServerClockSync, useServerSecond } from '../../clock/hooks';
import { useT } from '../../i18n/I18n';
import { formatDuration, Time } from '../../i18n/time';
import { clockState, phaseKey, type ClockState, type Window } from './clockPhase';

/** The windows the clock follows: the series' when readable, else the activity's own dates. */
function windowsOf(activity: ParticipantActivity, series: ParticipantSeries[] | undefined): Window[] {
  if (series?.some((s) => s.startDate)) return series;
  return [{ startDate: activity.startDate, endDate: activity.endDate }];
}

/** What changes of the clock a screen reader is told: a phase change only, never the seconds. */
function useAnnouncement(state: ClockState): string {
  const t = useT();
  const key = `${phaseKey(state.phase)}${state.frozen ? '+frozen' : ''}`;
  const first = useRef(key);
  if (key === first.current) return '';
  if (state.phase.kind === 'running' && !state.phase.paused) return state.frozen ? t('clock.nowFrozen') : t('clock.nowStarted');
  if (state.phase.kind === 'ended') return t('clock.nowEnded');
  if (state.phase.kind === 'running') return t('clock.nowPaused');
  return '';
}

/** When the clock passes a start or an end, the series (and the problems they show) are read again. */
function useRefetchOnPhaseChange(slug: string, state: ClockState): void {
  const qc = useQueryClient();
  const key = phaseKey(state.phase);
  const last = useRef(key);
  useEffect(() => {
    if (last.current === key) return;
    last.current = key;
    void qc.invalidateQueries({ queryKey: keys.series(slug) });
    void qc.invalidateQueries({ queryKey: keys.activity(slug) });
  }, [key, qc, slug]);
}

function ClockFace({ state, now, timeZone }: { state: ClockState; now: number; timeZone: string }) {
  const t = useT();
  const p = state.phase;
  if (p.kind === 'before')
    return (
      <>
        <span className="clock-label">{t('clock.startsIn')}</span> <span className="clock-time">{formatDuration(p.at - now)}</span>{' '}
        <span className="clock-at">
          · <Time iso={new Date(p.at).toISOString()} timeZone={timeZone} />
        </span>
      </>
    );
  if (p.kind === 'running' && p.paused) return <span className="clock-label">{t('clock.paused')}</span>;
  if (p.kind === 'running' && p.until !== undefined)
    return (
      <>
        <span className="clock-label">{t('clock.timeLeft')}</span> <span className="clock-time">{formatDuration(p.until - now)}</span>
      </>
    );
  if (p.kind === 'running') return <span className="clock-label">{t('clock.running')}</span>;
  if (p.kind === 'ended') return <span className="clock-label">{t('clock.ended')}</span>;
  return null;
}

/**
 * The contest clock: time to start, time left, or ended, and a frozen ranking, on the server's
 * time (never the browser's), ticking with the app's one timer.
 */
export function ContestClock({ activity, series }: { activity: ParticipantActivity; series: ParticipantSeries[] | undefined }) {
  const t = useT();
  useServerClockSync();
  const now = useServerSecond() * 1000;
  const state = clockState(windowsOf(activity, series), now);
  useRefetchOnPhaseChange(activity.slug, state);
  const announcement = useAnnouncement(state);
  if (state.phase.kind === 'none' && !state.frozen) return null;
  return (
    <div className={`contest-clock phase-${phaseKey(state.phase)}`}>
      <p className="clock-face" aria-label={t('clock.label')} role="timer" aria-live="off">
        <ClockFace state={state} now={now} timeZone={activity.timeZone} />
      </p>
      {state.frozen && <span className="badge frozen">{t('clock.frozen')}</span>}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}
