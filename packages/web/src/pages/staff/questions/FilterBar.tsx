import type { ParticipantActivity } from '@judge/contract';
import { useEffect, useState } from 'react';
import { useT } from '../../../i18n/I18n';
import { ActivitySelect } from '../ActivitySelect';
import { AddressCheckbox } from '../AddressCheckbox';
import { useActivitySeries } from '../useActivitySeries';
import type { QuestionFilters } from './filters';

interface Props {
  filters: QuestionFilters;
  activities: ParticipantActivity[];
  set(f: QuestionFilters): void;
}

/** Every filter of GET /questions: activity, series, kind, unanswered only, and a search. */
export function FilterBar({ filters, activities, set }: Props) {
  const t = useT();
  const series = useActivitySeries(filters.activity || undefined);
  const change = (patch: Partial<QuestionFilters>) => set({ ...filters, ...patch, page: 1 });
  return (
    <form className="staff-filters" role="search" aria-label={t('staff.q.filters')} onSubmit={(e) => e.preventDefault()}>
      <ActivitySelect activities={activities} value={filters.activity} onChange={(slug) => change({ activity: slug, series: '' })} />
      <label>
        {t('staff.series')}
        <select value={filters.series} onChange={(e) => change({ series: e.target.value })} disabled={!filters.activity}>
          <option value="">{t('staff.allSeries')}</option>
          {(series.data ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('staff.q.kind')}
        <select value={filters.kind} onChange={(e) => change({ kind: e.target.value as QuestionFilters['kind'] })}>
          <option value="">{t('staff.q.kind.all')}</option>
          <option value="question">{t('staff.q.kind.question')}</option>
          <option value="announcement">{t('staff.q.kind.announcement')}</option>
        </select>
      </label>
      <AddressCheckbox label={t('staff.q.unansweredOnly')} value={filters.unanswered} onChange={(unanswered) => change({ unanswered })} />
      <SearchBox value={filters.search} onSearch={(search) => change({ search })} />
    </form>
  );
}

/** The search, sent a moment after typing stops rather than at every key. */
function SearchBox({ value, onSearch }: { value: string; onSearch(v: string): void }) {
  const t = useT();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onSearch(text.trim()), 350);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <label className="search">
      {t('staff.q.search')}
      <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
    </label>
  );
}
