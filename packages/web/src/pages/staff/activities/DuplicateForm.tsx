import type { Series } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../../api/client';
import { ErrorBox, Loading } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useI18n } from '../../../i18n/I18n';
import { formatInZone } from '../../../i18n/time';
import { DateField, SelectField, TextField } from './fields';
import { useManagedActivity, useManagedSeries, useRefetchActivity } from './queries';
import { errorsByField, Refusal } from './Refusal';
import { instantOf } from './zoned';

/** What moves where: each series' dates now and in the copy, shifted so the earliest start lands on the new start. */
function ShiftPreview({ series, startsAt, timeZone }: { series: Series[]; startsAt: string; timeZone: string }) {
  const { t, locale } = useI18n();
  const earliest = series.map((s) => s.startDate).filter((x): x is string => !!x).sort()[0];
  const target = instantOf(startsAt, timeZone);
  if (!earliest) return <p className="muted">{t('staff.activities.new.dup.noDates')}</p>;
  if (target === undefined) return <p className="muted">{t('staff.activities.new.dup.pickStart')}</p>;
  const by = target - Date.parse(earliest);
  const show = (iso?: string, shift = 0) => (iso ? formatInZone(Date.parse(iso) + shift, timeZone, locale) : '—');
  const days = Math.round((by / 86_400_000) * 10) / 10;
  return (
    <div className="table-scroll">
      <table className="shift-preview">
        <caption>{t('staff.activities.new.dup.preview', { days })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('staff.activities.series.name')}</th>
            <th scope="col">{t('staff.activities.new.dup.now')}</th>
            <th scope="col">{t('staff.activities.new.dup.copy')}</th>
          </tr>
        </thead>
        <tbody>
          {series.map((s) => (
            <tr key={s.id}>
              <th scope="row">{s.name}</th>
              <td>
                {show(s.startDate)} – {show(s.endDate)}
              </td>
              <td>
                {show(s.startDate, by)} – {show(s.endDate, by)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DuplicateOf({ source }: { source: string }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const refetch = useRefetchActivity();
  const a = useManagedActivity(source);
  const s = useManagedSeries(source);
  const [slug, setSlug] = useState('');
  const [startsAt, setStartsAt] = useState('');
  const { busy, error, submit } = useFormSend();
  const errors = errorsByField(error);
  if (a.isPending || s.isPending) return <Loading />;
  if (a.isError) return <ErrorBox error={a.error} />;
  if (s.isError) return <ErrorBox error={s.error} />;
  const zone = a.data.timeZone;
  const onSubmit = submit(async () => {
    const made = await call(ops.duplicateActivity, { params: { id: a.data.id }, body: { slug, startsAt } });
    await refetch();
    navigate(`/staff/a/${encodeURIComponent(made.slug)}/settings`);
  });
  return (
    <form className="form staff-form" onSubmit={onSubmit} noValidate aria-label={t('staff.activities.new.duplicate')}>
      <TextField label={t('staff.activities.new.dup.slug')} hint={t('staff.activities.new.slug.hint')} errors={errors.slug} value={slug} onChange={setSlug} placeholder={`${a.data.slug}-2`} />
      <DateField label={t('staff.activities.new.dup.startsAt')} hint={t('staff.activities.new.dup.startsAt.hint', { zone })} errors={errors.startsAt} value={startsAt} onChange={setStartsAt} />
      <ShiftPreview series={s.data} startsAt={startsAt} timeZone={zone} />
      <p className="muted">{t('staff.activities.new.dup.hint')}</p>
      <Refusal error={error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('staff.activities.new.dup.create')}
        </button>
      </div>
    </form>
  );
}

/** A copy of an activity the reader manages, with its series and problems, every date shifted. */
export function DuplicateForm({ from }: { from: string | null }) {
  const { t } = useI18n();
  const list = useQuery({ queryKey: ['staffActivity', 'summary'], queryFn: () => call(ops.managedActivitiesSummary) });
  const [source, setSource] = useState(from ?? '');
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorBox error={list.error} />;
  const chosen = source || list.data[0]?.slug || '';
  if (!chosen) return <p>{t('staff.activities.new.dup.none')}</p>;
  return (
    <div className="staff-form">
      <SelectField label={t('staff.activities.new.dup.source')} value={chosen} onChange={setSource} options={list.data.map((x) => ({ value: x.slug, label: x.name }))} />
      <DuplicateOf key={chosen} source={chosen} />
    </div>
  );
}
