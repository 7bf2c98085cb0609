import type { ParticipantActivity } from '@judge/contract';
import { useId } from 'react';
import { useT } from '../../i18n/I18n';
import { useActivitySeries } from './useActivitySeries';

interface About {
  activity: string;
  series: string;
  problem: string;
}

/** Picks what an announcement is about: the activity, and optionally a series and one of its problems. */
export function AboutPickers({ activities, value, set }: { activities: ParticipantActivity[]; value: About; set(v: About): void }) {
  const t = useT();
  const id = useId();
  const series = useActivitySeries(value.activity);
  const chosen = series.data?.find((s) => s.id === value.series);
  return (
    <>
      <label htmlFor={`${id}-a`}>{t('staff.activity')}</label>
      <select id={`${id}-a`} value={value.activity} onChange={(e) => set({ activity: e.target.value, series: '', problem: '' })}>
        {activities.map((a) => (
          <option key={a.id} value={a.slug}>
            {a.name}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-s`}>{t('staff.a.series')}</label>
      <select id={`${id}-s`} value={value.series} onChange={(e) => set({ ...value, series: e.target.value, problem: '' })}>
        <option value="">{t('staff.a.wholeActivity')}</option>
        {(series.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-p`}>{t('staff.a.problem')}</label>
      <select id={`${id}-p`} value={value.problem} onChange={(e) => set({ ...value, problem: e.target.value })} disabled={!chosen}>
        <option value="">{t('staff.a.wholeSeries')}</option>
        {(chosen?.problems ?? []).map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </>
  );
}
