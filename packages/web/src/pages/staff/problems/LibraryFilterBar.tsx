import { useEffect, useState } from 'react';
import { useT } from '../../../i18n/I18n';
import { AddressCheckbox } from '../AddressCheckbox';
import type { LibraryFilters } from './queries';

/** The library's filters: a search of slug and name, only the reader's own, archived ones too. */
export function LibraryFilterBar({ filters, set }: { filters: LibraryFilters; set(f: LibraryFilters): void }) {
  const t = useT();
  const change = (patch: Partial<LibraryFilters>) => set({ ...filters, ...patch, page: 1 });
  const [text, setText] = useState(filters.search);
  useEffect(() => setText(filters.search), [filters.search]);
  // sent a moment after typing stops rather than at every key
  useEffect(() => {
    if (text.trim() === filters.search) return;
    const timer = setTimeout(() => set({ ...filters, search: text.trim(), page: 1 }), 350);
    return () => clearTimeout(timer);
  }, [text, filters, set]);
  return (
    <form className="staff-filters" role="search" aria-label={t('staff.problems.filters')} onSubmit={(e) => e.preventDefault()}>
      <label>
        {t('staff.problems.search')}
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      {/* one or the other: together they would match nothing */}
      <AddressCheckbox label={t('staff.problems.mineOnly')} value={filters.mine} onChange={(mine) => change({ mine, shared: mine ? false : filters.shared })} />
      <AddressCheckbox label={t('staff.problems.sharedOnly')} value={filters.shared} onChange={(shared) => change({ shared, mine: shared ? false : filters.mine })} />
      <AddressCheckbox label={t('staff.problems.withArchived')} value={filters.archived} onChange={(archived) => change({ archived })} />
    </form>
  );
}
