import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useMay } from '../../../app/permissions';
import { Pager } from '../../../components/Pager';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { LibraryFilterBar } from './LibraryFilterBar';
import { NewProblemForm } from './NewProblemForm';
import { ProblemCard } from './ProblemCard';
import { libraryQuery, readLibraryFilters, useLibrary, writeLibraryFilters, type LibraryFilters } from './queries';
import './problems.css';

const PAGE_SIZE = 20;

/**
 * The problem library: every problem the reader may read (their own, those shared with them, those
 * shared instance-wide, or all of them with problem:read:all), searched and filtered as GET
 * /problems allows, newest first; and, for those who may create problems, a package upload.
 */
export default function LibraryPage() {
  const t = useT();
  usePageTitle(t('staff.problems.title'));
  const [params, setParams] = useSearchParams();
  const filters = readLibraryFilters(params);
  const set = useCallback((f: LibraryFilters) => setParams(writeLibraryFilters(f)), [setParams]);
  const mayCreate = useMay(undefined, 'problem:create');
  const list = useLibrary(libraryQuery(filters, PAGE_SIZE));
  return (
    <section className="staff-problems">
      <h1 className="page-title">{t('staff.problems.title')}</h1>
      {mayCreate && <NewProblemForm />}
      <LibraryFilterBar filters={filters} set={set} />
      {list.isPending && <Loading />}
      {list.isError && <ErrorBox error={list.error} />}
      {list.data && (
        <p className="muted" aria-live="polite">
          {t('staff.problems.count', { count: list.data.total })}
        </p>
      )}
      {list.data && list.data.items.length > 0 && (
        <ul className="problem-cards">
          {list.data.items.map((p) => (
            <ProblemCard key={p.id} problem={p} />
          ))}
        </ul>
      )}
      {list.data && <Pager page={filters.page} pages={Math.ceil(list.data.total / PAGE_SIZE)} go={(page) => set({ ...filters, page })} previous={t('staff.previous')} next={t('staff.next')} />}
      <JudgectlHint command="judgectl problems list [--search TEXT] [--mine | --shared] [--archived]" />
    </section>
  );
}
