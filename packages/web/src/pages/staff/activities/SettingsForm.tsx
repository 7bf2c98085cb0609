import type { Activity, Series } from '@judge/contract';
import { ApiProblem, ops } from '@judge/sdk/browser';
import { useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../../api/client';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { useRefetchActivity } from './queries';
import { errorsByField, Refusal } from './Refusal';
import { GeneralFields, JoinFields, LimitFields, ParticipantFields } from './SettingsSections';
import { bodyOf, draftOf, parseProps, type SettingsDraft } from './settings-draft';
import { toLocalInput } from './zoned';

/** The earliest start and the latest end of the series: the range the activity's dates must span. */
function seriesRange(series: Series[], zone: string): { startDate: string; endDate: string } | undefined {
  const starts = series.map((s) => s.startDate).filter((x): x is string => !!x).sort();
  const ends = series.map((s) => s.endDate).filter((x): x is string => !!x).sort();
  if (!starts.length && !ends.length) return undefined;
  return { startDate: toLocalInput(starts[0], zone), endDate: toLocalInput(ends.at(-1), zone) };
}

/**
 * Every writable setting of an activity, with help under each field. Only what was changed is
 * sent; a refusal keeps everything typed and says under each field what is wrong with it.
 */
export function SettingsForm({ activity, series }: { activity: Activity; series: Series[] }) {
  const t = useT();
  const [d, setD] = useState<SettingsDraft>(() => draftOf(activity));
  const [own, setOwn] = useState<Record<string, string[]>>({});
  const { busy, sent, error, submit } = useFormSend();
  const refetch = useRefetchActivity();
  const set = (patch: Partial<SettingsDraft>) => setD((was) => ({ ...was, ...patch }));
  const errors = { ...errorsByField(error), ...own };
  const outside = error instanceof ApiProblem && error.code === 'activity.seriesOutside';
  const range = seriesRange(series, activity.timeZone);

  const onSubmit = submit(async () => {
    const props = parseProps(d.props);
    setOwn('error' in props ? { props: [t('staff.activities.props.invalid')] } : {});
    if ('error' in props) throw new Error(t('staff.activities.props.invalid'));
    const saved = await call(ops.updateActivity, { params: { idOrSlug: activity.id }, body: bodyOf(activity, d) });
    setD(draftOf(saved));
    await refetch();
  });

  const fix = outside && (
    <>
      <Link to="../series">{t('staff.activities.fix.moveSeries')}</Link>
      {range && (
        <button type="button" className="link-button" onClick={() => set(range)}>
          {t('staff.activities.fix.spanSeries')}
        </button>
      )}
    </>
  );
  return (
    <form className="form staff-form" onSubmit={onSubmit} noValidate aria-label={t('staff.activities.settingsForm')}>
      <GeneralFields d={d} set={set} errors={errors} slug={activity.slug} />
      <JoinFields d={d} set={set} errors={errors} />
      <ParticipantFields d={d} set={set} errors={errors} />
      <LimitFields d={d} set={set} errors={errors} />
      <Refusal error={error} fix={fix} />
      {sent && !error && (
        <p className="ok-box" role="status">
          {t('staff.activities.saved')}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('staff.activities.save')}
        </button>
        <button type="button" onClick={() => setD(draftOf(activity))} disabled={busy}>
          {t('staff.activities.undo')}
        </button>
      </div>
    </form>
  );
}
