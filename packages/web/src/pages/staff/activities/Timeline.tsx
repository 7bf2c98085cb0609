import type { Series } from '@judge/contract';
import { useServerSecond } from '../../../clock/hooks';
import { useI18n } from '../../../i18n/I18n';
import { formatInZone } from '../../../i18n/time';
import { timelineOf } from './timeline';

/**
 * The series drawn as bars on one time axis, the freeze marked on each and now as a line. The
 * drawing is for the eye; the list beside it (read by screen readers, and the same facts as the
 * series below) says it in words.
 */
export function Timeline({ series, timeZone }: { series: Series[]; timeZone: string }) {
  const { t, locale } = useI18n();
  const now = useServerSecond() * 1000;
  const m = timelineOf(series, now);
  if (!m) return <p className="muted">{t('staff.activities.series.timeline.empty')}</p>;
  const when = (iso: string | undefined, none: string) => (iso ? formatInZone(iso, timeZone, locale) : none);
  return (
    <figure className="timeline">
      <figcaption>{t('staff.activities.series.timeline', { from: formatInZone(m.from, timeZone, locale), to: formatInZone(m.to, timeZone, locale) })}</figcaption>
      <div className="timeline-drawing" aria-hidden="true">
        {m.bars.map((b) => (
          <div className="timeline-row" key={b.id}>
            <span className="timeline-label">{b.name}</span>
            <div className="timeline-track">
              <div className={`timeline-bar${b.openEnded ? ' open-ended' : ''}`} style={{ left: `${b.left}%`, width: `${b.width}%` }} data-series={b.id}>
                {b.freeze !== undefined && <span className="timeline-freeze" style={{ left: `${b.freeze}%` }} title={t('staff.activities.series.freeze')} />}
              </div>
              {m.now !== undefined && <span className="timeline-now" style={{ left: `${m.now}%` }} />}
            </div>
          </div>
        ))}
        <p className="timeline-legend">
          <span className="legend-freeze" /> {t('staff.activities.series.freeze')} <span className="legend-now" /> {t('staff.activities.series.now')}
        </p>
      </div>
      <ul className="visually-hidden">
        {series.map((s) => (
          <li key={s.id}>
            {t('staff.activities.series.timeline.text', {
              name: s.name,
              start: when(s.startDate, t('staff.activities.series.noStart')),
              end: when(s.endDate, t('staff.activities.series.noEnd')),
              freeze: when(s.rankingFreezeAt, t('staff.activities.series.noFreeze')),
            })}
          </li>
        ))}
        <li>{t('staff.activities.series.timeline.now', { now: formatInZone(now, timeZone, locale) })}</li>
      </ul>
    </figure>
  );
}
