import { describeFailure, ops, slugFromName } from '@judge/sdk/browser';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../../api/client';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { CheckField, DateField, SelectField, TextField } from './fields';
import { useRefetchActivity } from './queries';
import { errorsByField, Refusal } from './Refusal';
import { KINDS } from './SettingsSections';
import { fromLocalInput } from './zoned';
import { JoinSelect, RankingSelect, TimeZoneField } from './common-fields';

const ownZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * A new contest or course from nothing: its name, slug, kind, standings, zone, dates and who may
 * join; with one series over the whole time unless unticked. It opens on its settings page.
 */
export function ScratchForm() {
  const t = useT();
  const navigate = useNavigate();
  const refetch = useRefetchActivity();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [type, setType] = useState<string>('contest@1');
  const [rankingType, setRanking] = useState<'icpc' | 'points'>('icpc');
  const [timeZone, setZone] = useState(ownZone);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [joinPolicy, setJoin] = useState<'closed' | 'password' | 'open'>('closed');
  const [joinPassword, setPassword] = useState('');
  const [withSeries, setWithSeries] = useState(true);
  const { busy, error, submit } = useFormSend();
  const errors = errorsByField(error);
  const theSlug = slug || slugFromName(name);

  const onSubmit = submit(async () => {
    const dates = { startDate: fromLocalInput(start), endDate: fromLocalInput(end) };
    const given = Object.fromEntries(Object.entries(dates).filter(([, v]) => v !== null)) as { startDate?: string; endDate?: string };
    const made = await call(ops.createActivity, {
      body: { slug: theSlug, name, type, rankingType, timeZone: timeZone.trim(), joinPolicy, ...(joinPolicy === 'password' ? { joinPassword } : {}), ...given },
    });
    if (withSeries) {
      const range = { ...(made.startDate ? { startDate: made.startDate } : {}), ...(made.endDate ? { endDate: made.endDate } : {}) };
      try {
        await call(ops.createSeries, { params: { idOrSlug: made.id }, body: { slug: 'main', name, ...range } });
      } catch (e) {
        // the activity stands: say so, so it is not made twice
        await refetch();
        throw new Error(t('staff.activities.new.seriesFailed', { slug: made.slug, why: describeFailure(e) }));
      }
    }
    await refetch();
    navigate(`/staff/a/${encodeURIComponent(made.slug)}/settings`);
  });
  const zone = { zone: timeZone };
  return (
    <form className="form staff-form" onSubmit={onSubmit} noValidate aria-label={t('staff.activities.new.scratch')}>
      <TextField label={t('staff.activities.name')} hint={t('staff.activities.name.hint')} errors={errors.name} value={name} onChange={setName} />
      <TextField label={t('staff.activities.slug')} hint={t('staff.activities.new.slug.hint')} errors={errors.slug} value={theSlug} onChange={setSlug} />
      <SelectField
        label={t('staff.activities.kind')}
        hint={t('staff.activities.kind.hint')}
        errors={errors.type}
        value={type}
        onChange={setType}
        options={KINDS.map((k) => ({ value: k, label: t(k === 'course@1' ? 'staff.activities.kind.course' : 'staff.activities.kind.contest') }))}
      />
      <RankingSelect value={rankingType} onChange={setRanking} errors={errors.rankingType} />
      <TimeZoneField value={timeZone} onChange={setZone} errors={errors.timeZone} />
      <DateField label={t('staff.activities.start')} hint={t('staff.activities.start.hint', zone)} errors={errors.startDate} value={start} onChange={setStart} />
      <DateField label={t('staff.activities.end')} hint={t('staff.activities.end.hint', zone)} errors={errors.endDate} value={end} onChange={setEnd} />
      <JoinSelect value={joinPolicy} onChange={setJoin} errors={errors.joinPolicy} />
      {joinPolicy === 'password' && <TextField label={t('staff.activities.joinPassword')} hint={t('staff.activities.joinPassword.hint')} errors={errors.joinPassword} value={joinPassword} onChange={setPassword} autoComplete="off" />}
      <CheckField label={t('staff.activities.new.withSeries')} hint={t('staff.activities.new.withSeries.hint')} checked={withSeries} onChange={setWithSeries} />
      <Refusal error={error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('staff.activities.new.create')}
        </button>
      </div>
    </form>
  );
}
