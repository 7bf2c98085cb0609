import type { Series } from '@judge/contract';
import { neverOpened, ops, startMovedTo } from '@judge/sdk/browser';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { serverNow } from '../../../clock/serverClock';
import { useT } from '../../../i18n/I18n';
import { useRefetchActivity } from './queries';
import { Refusal } from './Refusal';

interface Props {
  series: Series;
  /** The whole list in order, for moving this one up or down. */
  all: Series[];
  activitySlug: string;
}

/** Pause, resume, open now, shift, move up or down, and delete one series. */
export function SeriesActions({ series: s, all, activitySlug }: Props) {
  const t = useT();
  const id = useId();
  const refetch = useRefetchActivity();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [hide, setHide] = useState(false);
  const [extend, setExtend] = useState(true);
  const [minutes, setMinutes] = useState('15');
  const [confirming, setConfirming] = useState(false);
  const run = (work: () => Promise<unknown>) => async () => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await refetch();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const now = new Date(serverNow()).toISOString();
  const ended = !!s.endDate && s.endDate <= now;
  const openNow = run(async () => {
    const at = new Date(serverNow()).toISOString();
    if (neverOpened(s, at)) await call(ops.updateSeries, { params: { seriesId: s.id }, body: startMovedTo(s, at, false) });
    if (s.pausedAt) await call(ops.resumeSeries, { params: { seriesId: s.id }, body: { extendEnd: false } });
  });
  const index = all.findIndex((x) => x.id === s.id);
  const move = (by: number) =>
    run(() => {
      const ids = all.map((x) => x.id);
      ids.splice(index, 1);
      ids.splice(index + by, 0, s.id);
      return call(ops.reorderSeries, { params: { idOrSlug: activitySlug }, body: { orderedIds: ids } });
    });
  const shift = run(() => call(ops.shiftSeries, { params: { seriesId: s.id }, body: { minutes: Number(minutes) } }));
  return (
    <div className="series-actions">
      <div className="staff-actions">
        {s.pausedAt ? (
          <>
            <button type="button" className="primary" disabled={busy} onClick={run(() => call(ops.resumeSeries, { params: { seriesId: s.id }, body: { extendEnd: extend } }))}>
              {t('staff.activities.series.resume')}
            </button>
            <label className="check">
              <input type="checkbox" checked={extend} onChange={(e) => setExtend(e.target.checked)} /> {t('staff.activities.series.extendEnd')}
            </label>
          </>
        ) : (
          <>
            <button type="button" disabled={busy || ended} onClick={run(() => call(ops.pauseSeries, { params: { seriesId: s.id }, body: { hideProblems: hide } }))}>
              {t('staff.activities.series.pause')}
            </button>
            <label className="check">
              <input type="checkbox" checked={hide} onChange={(e) => setHide(e.target.checked)} /> {t('staff.activities.series.hideWhilePaused')}
            </label>
          </>
        )}
        {!s.isOpen && !ended && (
          <button type="button" disabled={busy} onClick={openNow}>
            {t('staff.activities.series.openNow')}
          </button>
        )}
      </div>
      <div className="staff-actions">
        <label htmlFor={`${id}-shift`}>{t('staff.activities.series.shiftBy')}</label>
        <input id={`${id}-shift`} className="minutes" type="number" step={1} value={minutes} onChange={(e) => setMinutes(e.target.value)} aria-describedby={`${id}-shift-hint`} />
        <button type="button" disabled={busy || !/^-?\d+$/.test(minutes.trim())} onClick={shift}>
          {t('staff.activities.series.shift')}
        </button>
        <small id={`${id}-shift-hint`} className="muted">
          {t('staff.activities.series.shift.hint')}
        </small>
      </div>
      <div className="staff-actions">
        <button type="button" disabled={busy || index <= 0} onClick={move(-1)} aria-label={t('staff.activities.series.up', { name: s.name })}>
          ↑ {t('staff.activities.series.upShort')}
        </button>
        <button type="button" disabled={busy || index >= all.length - 1} onClick={move(1)} aria-label={t('staff.activities.series.down', { name: s.name })}>
          ↓ {t('staff.activities.series.downShort')}
        </button>
        {!confirming ? (
          <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)}>
            {t('staff.activities.series.delete')}
          </button>
        ) : (
          <span className="confirm" role="group" aria-label={t('staff.activities.series.delete')}>
            {t('staff.activities.series.deleteConfirm', { name: s.name })}
            <button type="button" className="danger" disabled={busy} onClick={run(() => call(ops.deleteSeries, { params: { seriesId: s.id } }))}>
              {t('staff.activities.series.deleteYes')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('staff.cancel')}
            </button>
          </span>
        )}
      </div>
      <Refusal error={error} />
    </div>
  );
}
