import type { Series } from '@judge/contract';
import { neverOpened, ops, startMovedTo } from '@judge/sdk/browser';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { serverNow } from '../../../clock/serverClock';
import { useT } from '../../../i18n/I18n';
import { useRefetchActivity } from './queries';
import { Refusal } from './Refusal';

/** One request at a time for a series' buttons, the refusal kept to be said, and the pages refetched after. */
function useSeriesAction() {
  const refetch = useRefetchActivity();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
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
  return { busy, error, run };
}

type Action = ReturnType<typeof useSeriesAction>;

/** Pause (optionally hiding the problems) or resume (optionally adding the pause to the end), and Open now. */
function PauseResume({ s, act }: { s: Series; act: Action }) {
  const t = useT();
  const [hide, setHide] = useState(false);
  const [extend, setExtend] = useState(true);
  const ended = !!s.endDate && s.endDate <= new Date(serverNow()).toISOString();
  // as `judgectl series open`: a start still to come moves to now with the series' other dates; a pause ends
  const openNow = act.run(async () => {
    const at = new Date(serverNow()).toISOString();
    if (neverOpened(s, at)) await call(ops.updateSeries, { params: { seriesId: s.id }, body: startMovedTo(s, at, false) });
    if (s.pausedAt) await call(ops.resumeSeries, { params: { seriesId: s.id }, body: { extendEnd: false } });
  });
  return (
    <div className="staff-actions">
      {s.pausedAt ? (
        <>
          <button type="button" className="primary" disabled={act.busy} onClick={act.run(() => call(ops.resumeSeries, { params: { seriesId: s.id }, body: { extendEnd: extend } }))}>
            {t('staff.activities.series.resume')}
          </button>
          <label className="check">
            <input type="checkbox" checked={extend} onChange={(e) => setExtend(e.target.checked)} /> {t('staff.activities.series.extendEnd')}
          </label>
        </>
      ) : (
        <>
          <button type="button" disabled={act.busy || ended} onClick={act.run(() => call(ops.pauseSeries, { params: { seriesId: s.id }, body: { hideProblems: hide } }))}>
            {t('staff.activities.series.pause')}
          </button>
          <label className="check">
            <input type="checkbox" checked={hide} onChange={(e) => setHide(e.target.checked)} /> {t('staff.activities.series.hideWhilePaused')}
          </label>
        </>
      )}
      {!s.isOpen && !ended && (
        <button type="button" disabled={act.busy} onClick={openNow}>
          {t('staff.activities.series.openNow')}
        </button>
      )}
    </div>
  );
}

/** Moves every date of the series by a number of minutes. */
function ShiftOne({ s, act }: { s: Series; act: Action }) {
  const t = useT();
  const id = useId();
  const [minutes, setMinutes] = useState('15');
  return (
    <div className="staff-actions">
      <label htmlFor={`${id}-shift`}>{t('staff.activities.series.shiftBy')}</label>
      <input id={`${id}-shift`} className="minutes" type="number" step={1} value={minutes} onChange={(e) => setMinutes(e.target.value)} aria-describedby={`${id}-hint`} />
      <button type="button" disabled={act.busy || !/^-?\d+$/.test(minutes.trim())} onClick={act.run(() => call(ops.shiftSeries, { params: { seriesId: s.id }, body: { minutes: Number(minutes) } }))}>
        {t('staff.activities.series.shift')}
      </button>
      <small id={`${id}-hint`} className="muted">
        {t('staff.activities.series.shift.hint')}
      </small>
    </div>
  );
}

/** Up, down, and delete after asking. */
function OrderAndDelete({ s, all, activitySlug, act }: { s: Series; all: Series[]; activitySlug: string; act: Action }) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const index = all.findIndex((x) => x.id === s.id);
  const move = (by: number) =>
    act.run(() => {
      const ids = all.map((x) => x.id);
      ids.splice(index, 1);
      ids.splice(index + by, 0, s.id);
      return call(ops.reorderSeries, { params: { idOrSlug: activitySlug }, body: { orderedIds: ids } });
    });
  return (
    <div className="staff-actions">
      <button type="button" disabled={act.busy || index <= 0} onClick={move(-1)} aria-label={t('staff.activities.series.up', { name: s.name })}>
        ↑ {t('staff.activities.series.upShort')}
      </button>
      <button type="button" disabled={act.busy || index >= all.length - 1} onClick={move(1)} aria-label={t('staff.activities.series.down', { name: s.name })}>
        ↓ {t('staff.activities.series.downShort')}
      </button>
      {!confirming ? (
        <button type="button" className="danger" disabled={act.busy} onClick={() => setConfirming(true)}>
          {t('staff.activities.series.delete')}
        </button>
      ) : (
        <span className="confirm" role="group" aria-label={t('staff.activities.series.delete')}>
          {t('staff.activities.series.deleteConfirm', { name: s.name })}
          <button type="button" className="danger" disabled={act.busy} onClick={act.run(() => call(ops.deleteSeries, { params: { seriesId: s.id } }))}>
            {t('staff.activities.series.deleteYes')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('staff.cancel')}
          </button>
        </span>
      )}
    </div>
  );
}

/** Pause, resume, open now, shift, move up or down, and delete one series. */
export function SeriesActions({ series, all, activitySlug }: { series: Series; all: Series[]; activitySlug: string }) {
  const act = useSeriesAction();
  return (
    <div className="series-actions">
      <PauseResume s={series} act={act} />
      <ShiftOne s={series} act={act} />
      <OrderAndDelete s={series} all={all} activitySlug={activitySlug} act={act} />
      <Refusal error={act.error} />
    </div>
  );
}
