import type { Series } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useState } from 'react';
import { call } from '../../../api/client';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { DateField, TextField } from './fields';
import { useRefetchActivity } from './queries';
import { errorsByField, Refusal } from './Refusal';
import { changedDates, toLocalInput } from './zoned';

const DATES = ['startDate', 'endDate', 'rankingFreezeAt', 'rankingRevealAt'] as const;
type Dates = Record<(typeof DATES)[number], string>;

const datesOf = (s: Series, zone: string): Dates => ({
  startDate: toLocalInput(s.startDate, zone),
  endDate: toLocalInput(s.endDate, zone),
  rankingFreezeAt: toLocalInput(s.rankingFreezeAt, zone),
  rankingRevealAt: toLocalInput(s.rankingRevealAt, zone),
});

/**
 * A series' name and dates, each its own field: changing the end changes the end and nothing else
 * (moving the whole series is Shift). Only the fields changed are sent.
 */
export function SeriesDatesForm({ series, timeZone, onSaved }: { series: Series; timeZone: string; onSaved: () => void }) {
  const t = useT();
  const refetch = useRefetchActivity();
  const [name, setName] = useState(series.name);
  const [dates, setDates] = useState<Dates>(() => datesOf(series, timeZone));
  const { busy, error, submit } = useFormSend();
  const errors = errorsByField(error);
  const set = (k: keyof Dates) => (v: string) => setDates((d) => ({ ...d, [k]: v }));

  const onSubmit = submit(async () => {
    const body = { ...(name !== series.name ? { name } : {}), ...changedDates<keyof Dates>(dates, series, timeZone) };
    if (!Object.keys(body).length) return;
    const saved = await call(ops.updateSeries, { params: { seriesId: series.id }, body });
    setName(saved.name);
    setDates(datesOf(saved, timeZone));
    // said by the card: the saved series comes back as new fields, and this form with it
    onSaved();
    await refetch();
  });
  const zone = { zone: timeZone };
  return (
    <form className="form staff-form series-form" onSubmit={onSubmit} noValidate aria-label={t('staff.activities.series.datesOf', { name: series.name })}>
      <TextField label={t('staff.activities.series.name')} errors={errors.name} value={name} onChange={setName} />
      <div className="date-grid">
        <DateField label={t('staff.activities.series.start')} hint={t('staff.activities.series.start.hint', zone)} errors={errors.startDate} value={dates.startDate} onChange={set('startDate')} />
        <DateField label={t('staff.activities.series.end')} hint={t('staff.activities.series.end.hint', zone)} errors={errors.endDate} value={dates.endDate} onChange={set('endDate')} />
        <DateField label={t('staff.activities.series.freezeAt')} hint={t('staff.activities.series.freezeAt.hint', zone)} errors={errors.rankingFreezeAt} value={dates.rankingFreezeAt} onChange={set('rankingFreezeAt')} />
        <DateField label={t('staff.activities.series.revealAt')} hint={t('staff.activities.series.revealAt.hint', zone)} errors={errors.rankingRevealAt} value={dates.rankingRevealAt} onChange={set('rankingRevealAt')} />
      </div>
      <Refusal error={error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('staff.activities.series.save')}
        </button>
      </div>
    </form>
  );
}
