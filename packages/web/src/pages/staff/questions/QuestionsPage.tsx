import { ops } from '@judge/sdk/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useStaffAccess } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { Pager } from '../../../components/Pager';
import { FilterBar } from './FilterBar';
import { questionsQuery, readFilters, writeFilters, type QuestionFilters } from './filters';
import { QuestionItem } from './QuestionItem';
import { useQueueAnnouncer } from './useQueueAnnouncer';

const PAGE_SIZE = 20;

/**
 * The question queue of every activity the reader works: filtered as GET /questions allows, newest
 * first, live. The tab's title counts the unanswered questions, so a staff member sees new ones in
 * another tab.
 */
export default function QuestionsPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const { managed } = useStaffAccess();
  const set = useCallback((f: QuestionFilters) => setParams(writeFilters(f)), [setParams]);
  const query = questionsQuery(filters, managed, PAGE_SIZE);
  const list = useQuery({
    queryKey: keys.staffQuestions(query),
    queryFn: () => call(ops.listQuestions, { query }),
    placeholderData: keepPreviousData,
  });
  const unanswered = useUnansweredCount(query.activityId);
  const announcement = useQueueAnnouncer();
  usePageTitle(unanswered === undefined || unanswered === 0 ? t('staff.q.title') : t('staff.q.titleCount', { count: unanswered }));
  const byId = new Map(managed.map((a) => [a.id, a]));
  return (
    <section className="staff-questions">
      <h1 className="page-title">{t('staff.q.title')}</h1>
      <p className="unanswered-count">{unanswered !== undefined && t('staff.q.unanswered', { count: unanswered })}</p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <FilterBar filters={filters} activities={managed} set={set} />
      {list.isPending && <Loading />}
      {list.isError && <ErrorBox error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('staff.q.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <ol className="question-list">
          {list.data.items.map((q) => (
            <QuestionItem key={q.id} question={q} timeZone={byId.get(q.activityId)?.timeZone} activityName={byId.get(q.activityId)?.name} />
          ))}
        </ol>
      )}
      {list.data && <Pager page={filters.page} pages={Math.ceil(list.data.total / PAGE_SIZE)} go={(page) => set({ ...filters, page })} previous={t('staff.previous')} next={t('staff.next')} />}
    </section>
  );
}

/** How many questions wait for an answer (in the chosen activity, or everywhere). */
function useUnansweredCount(activityId: string | undefined): number | undefined {
  const query = { page: 1, pageSize: 1, kind: 'question' as const, unansweredOnly: true, ...(activityId ? { activityId } : {}) };
  const q = useQuery({ queryKey: keys.staffQuestions(query), queryFn: () => call(ops.listQuestions, { query }) });
  return q.data?.total;
}
