import type { Series } from '@judge/contract';
import { useState } from 'react';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { SeriesActions } from './SeriesActions';
import { SeriesDatesForm } from './SeriesDatesForm';

type State = 'paused' | 'open' | 'upcoming' | 'ended' | 'closed';

function stateOf(s: Series, now: string): State {
  if (s.pausedAt) return 'paused';
  if (s.isOpen) return 'open';
  if (s.endDate && s.endDate <= now) return 'ended';
  if (s.startDate && s.startDate > now) return 'upcoming';
  return 'closed';
}

/** One series: its state, its dates (activity zone, the reader's own on hover), the form for them, and its actions. */
export function SeriesCard({ series: s, all, timeZone, activitySlug, now }: { series: Series; all: Series[]; timeZone: string; activitySlug: string; now: string }) {
  const t = useT();
  const state = stateOf(s, now);
  const [saved, setSaved] = useState(false);
  const when = (iso: string | undefined, none: string) => (iso ? <Time iso={iso} timeZone={timeZone} /> : <span className="muted">{none}</span>);
  // a change made elsewhere (a shift, Open now, another manager) shows in fresh fields
  const version = [s.name, s.startDate, s.endDate, s.rankingFreezeAt, s.rankingRevealAt].join('|');
  return (
    <li className="card series-card" data-series={s.slug} aria-labelledby={`series-${s.id}`}>
      <header>
        <h3 id={`series-${s.id}`}>{s.name}</h3>
        <code>{s.slug}</code>
        <span className={`badge ${state}`}>{t(`staff.activities.series.state.${state}`)}</span>
        <span className="muted">{t('staff.activities.series.problemCount', { count: s.problems.length })}</span>
      </header>
      <dl className="series-times">
        <dt>{t('staff.activities.series.start')}</dt>
        <dd>{when(s.startDate, t('staff.activities.series.noStart'))}</dd>
        <dt>{t('staff.activities.series.end')}</dt>
        <dd>{when(s.endDate, t('staff.activities.series.noEnd'))}</dd>
        <dt>{t('staff.activities.series.freezeAt')}</dt>
        <dd>{when(s.rankingFreezeAt, t('staff.activities.series.noFreeze'))}</dd>
        <dt>{t('staff.activities.series.revealAt')}</dt>
        <dd>{when(s.rankingRevealAt, t('staff.activities.series.noReveal'))}</dd>
        {s.pausedAt && (
          <>
            <dt>{t('staff.activities.series.pausedAt')}</dt>
            <dd>{when(s.pausedAt, '')}</dd>
          </>
        )}
      </dl>
      <details>
        <summary>{t('staff.activities.series.change', { name: s.name })}</summary>
        <SeriesDatesForm key={version} series={s} timeZone={timeZone} onSaved={() => setSaved(true)} />
        {saved && (
          <p className="ok-box" role="status">
            {t('staff.activities.series.saved', { name: s.name })}
          </p>
        )}
      </details>
      <SeriesActions series={s} all={all} activitySlug={activitySlug} />
    </li>
  );
}
