import type { Series } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { useServerSecond } from '../../../clock/hooks';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { useStaffActivity } from '../activity/context';
import { JudgectlHint } from '../JudgectlHint';
import { NewSeriesForm } from './NewSeriesForm';
import { useManagedActivity, useManagedSeries, useRefetchActivity } from './queries';
import { Refusal } from './Refusal';
import { SeriesCard } from './SeriesCard';
import { Timeline } from './Timeline';
import '../staff.css';
import './activities.css';

/** Moves every series by the same number of minutes (each series' own shift, one after another). */
function ShiftAll({ series }: { series: Series[] }) {
  const t = useT();
  const id = useId();
  const refetch = useRefetchActivity();
  const [minutes, setMinutes] = useState('10');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const shift = async () => {
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      for (const s of series) await call(ops.shiftSeries, { params: { seriesId: s.id }, body: { minutes: Number(minutes) } });
      setDone(true);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      await refetch();
    }
  };
  return (
    <div className="staff-actions shift-all">
      <label htmlFor={`${id}-all`}>{t('staff.activities.series.shiftAllBy')}</label>
      <input id={`${id}-all`} className="minutes" type="number" step={1} value={minutes} onChange={(e) => setMinutes(e.target.value)} />
      <button type="button" disabled={busy || !series.length || !/^-?\d+$/.test(minutes.trim())} onClick={shift}>
        {t('staff.activities.series.shiftAll')}
      </button>
      {done && <span role="status">{t('staff.activities.series.shiftedAll', { minutes })}</span>}
      <Refusal error={error} />
    </div>
  );
}

/** /staff/a/:activity/series: the series on a timeline, each with its dates and actions, and a form for a new one. */
export default function SeriesPage() {
  const t = useT();
  const { activity: shown } = useStaffActivity();
  const a = useManagedActivity(shown.slug);
  const s = useManagedSeries(shown.slug);
  const now = new Date(useServerSecond() * 1000).toISOString();
  usePageTitle(t('staff.activities.series.title', { name: shown.name }));
  if (a.isPending || s.isPending) return <Loading />;
  if (a.isError) return <ErrorBox error={a.error} />;
  if (s.isError) return <ErrorBox error={s.error} />;
  const zone = a.data.timeZone;
  const series = s.data;
  return (
    <div className="staff-activities">
      <h2 className="page-title">{t('staff.activities.series.heading')}</h2>
      <p className="muted">{t('staff.activities.series.intro', { zone })}</p>
      <Timeline series={series} timeZone={zone} />
      {series.length === 0 && <p>{t('staff.activities.series.none')}</p>}
      <ol className="series-list">
        {series.map((x) => (
          <SeriesCard key={x.id} series={x} all={series} timeZone={zone} activitySlug={a.data.slug} now={now} />
        ))}
      </ol>
      <ShiftAll series={series} />
      <JudgectlHint command={`judgectl series update ${a.data.slug} SERIES --end … --freeze …  ·  judgectl series pause|resume|open|shift`} />
      <NewSeriesForm activitySlug={a.data.slug} timeZone={zone} />
      <JudgectlHint command={`judgectl series create ${a.data.slug} SLUG --start … --end …`} />
    </div>
  );
}
