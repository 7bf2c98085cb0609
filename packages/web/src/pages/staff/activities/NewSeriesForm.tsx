import { ops, slugFromName } from '@judge/sdk/browser';
import { useState } from 'react';
import { call } from '../../../api/client';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { DateField, TextField } from './fields';
import { useRefetchActivity } from './queries';
import { errorsByField, Refusal } from './Refusal';
import { fromLocalInput } from './zoned';

/** Adds a series (last in order); dates in the activity's zone, all optional. */
export function NewSeriesForm({ activitySlug, timeZone }: { activitySlug: string; timeZone: string }) {
  const t = useT();
  const refetch = useRefetchActivity();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [freeze, setFreeze] = useState('');
  const { busy, sent, error, submit } = useFormSend();
  const errors = errorsByField(error);
  const theSlug = slug || slugFromName(name);
  const onSubmit = submit(async () => {
    const dates = { startDate: fromLocalInput(start), endDate: fromLocalInput(end), rankingFreezeAt: fromLocalInput(freeze) };
    const body = { slug: theSlug, name, ...Object.fromEntries(Object.entries(dates).filter(([, v]) => v !== null)) };
    await call(ops.createSeries, { params: { idOrSlug: activitySlug }, body });
    setName('');
    setSlug('');
    setStart('');
    setEnd('');
    setFreeze('');
    await refetch();
  });
  const zone = { zone: timeZone };
  return (
    <form className="form staff-form" onSubmit={onSubmit} noValidate aria-labelledby="new-series-heading">
      <h3 id="new-series-heading">{t('staff.activities.series.new')}</h3>
      <TextField label={t('staff.activities.series.name')} errors={errors.name} value={name} onChange={setName} />
      <TextField label={t('staff.activities.series.slug')} hint={t('staff.activities.series.slug.hint')} errors={errors.slug} value={theSlug} onChange={setSlug} />
      <div className="date-grid">
        <DateField label={t('staff.activities.series.start')} hint={t('staff.activities.series.start.hint', zone)} errors={errors.startDate} value={start} onChange={setStart} />
        <DateField label={t('staff.activities.series.end')} hint={t('staff.activities.series.end.hint', zone)} errors={errors.endDate} value={end} onChange={setEnd} />
        <DateField label={t('staff.activities.series.freezeAt')} hint={t('staff.activities.series.freezeAt.hint', zone)} errors={errors.rankingFreezeAt} value={freeze} onChange={setFreeze} />
      </div>
      <Refusal error={error} />
      {sent && !error && (
        <p className="ok-box" role="status">
          {t('staff.activities.series.created')}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={busy}>
          {t('staff.activities.series.create')}
        </button>
      </div>
    </form>
  );
}
