import { useEffect, useRef, useState } from 'react';
import { useT } from '../../../i18n/I18n';
import { useVerdictWords } from '../../../components/Verdict';
import { STATES, VERDICTS, type StreamFilters } from './filters';
import type { useProblemLabels } from './queries';
import { instantOf, localOf } from './zoned';

interface Props {
  filters: StreamFilters;
  series: ReturnType<typeof useProblemLabels>['series'];
  timeZone: string;
  set(f: StreamFilters): void;
}

/** Every filter of GET /submissions for one activity: series, problem, verdict, state, counted, time window, search. */
export function StreamFilterBar({ filters, series, timeZone, set }: Props) {
  const t = useT();
  const words = useVerdictWords();
  const change = (patch: Partial<StreamFilters>) => set({ ...filters, ...patch, page: 1 });
  const problems = series.filter((s) => !filters.seriesId || s.id === filters.seriesId);
  return (
    <form className="staff-filters" role="search" aria-label={t('staff.subs.filters')} onSubmit={(e) => e.preventDefault()}>
      {series.length > 1 && (
        <label>
          {t('staff.series')}
          <select value={filters.seriesId} onChange={(e) => change({ seriesId: e.target.value, seriesProblemId: '' })}>
            <option value="">{t('staff.allSeries')}</option>
            {series.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        {t('staff.subs.problem')}
        <select value={filters.seriesProblemId} onChange={(e) => change({ seriesProblemId: e.target.value })}>
          <option value="">{t('staff.subs.allProblems')}</option>
          {problems.flatMap((s) =>
            s.problems.map((p) => (
              <option key={p.id} value={p.id}>
                {series.length > 1 ? `${s.name}: ` : ''}
                {p.label.letter} · {p.label.name}
              </option>
            )),
          )}
        </select>
      </label>
      <label>
        {t('staff.subs.verdict')}
        <select value={filters.verdict} onChange={(e) => change({ verdict: e.target.value })}>
          <option value="">{t('staff.subs.anyVerdict')}</option>
          {VERDICTS.map((v) => (
            <option key={v} value={v}>
              {words({ verdict: v })} ({v})
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('staff.subs.state')}
        <select value={filters.state} onChange={(e) => change({ state: e.target.value as StreamFilters['state'] })}>
          <option value="">{t('staff.subs.anyState')}</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {words({ state: s })}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('staff.subs.counted')}
        <select value={filters.excluded} onChange={(e) => change({ excluded: e.target.value as StreamFilters['excluded'] })}>
          <option value="">{t('staff.subs.counted.all')}</option>
          <option value="false">{t('staff.subs.counted.only')}</option>
          <option value="true">{t('staff.subs.counted.excluded')}</option>
        </select>
      </label>
      <TimeField label={t('staff.subs.from')} value={filters.submittedFrom} timeZone={timeZone} onChange={(submittedFrom) => change({ submittedFrom })} />
      <TimeField label={t('staff.subs.before')} value={filters.submittedBefore} timeZone={timeZone} onChange={(submittedBefore) => change({ submittedBefore })} />
      <SearchBox value={filters.search} onSearch={(search) => change({ search })} />
    </form>
  );
}

/** A time in the activity's zone (the stream says which); the address holds the instant. */
function TimeField({ label, value, timeZone, onChange }: { label: string; value: string; timeZone: string; onChange(iso: string): void }) {
  return (
    <label>
      {label}
      <input type="datetime-local" value={value ? localOf(value, timeZone) : ''} onChange={(e) => onChange(instantOf(e.target.value, timeZone) ?? '')} />
    </label>
  );
}

/** The search, sent a moment after typing stops rather than at every key. */
function SearchBox({ value, onSearch }: { value: string; onSearch(v: string): void }) {
  const t = useT();
  const [text, setText] = useState(value);
  // the stream re-renders at every live update: the pause is counted from the last key, not the last render
  const search = useRef(onSearch);
  search.current = onSearch;
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => search.current(text.trim()), 350);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <label className="search">
      {t('staff.subs.search')}
      <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
    </label>
  );
}
