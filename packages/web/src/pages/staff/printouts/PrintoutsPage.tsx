import { ops } from '@judge/sdk/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { usePrintoutActivities } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { Pager } from '../../../components/Pager';
import { PrintoutFilters, STATE_CHOICES, type StateChoice } from './PrintoutFilters';
import { PrintoutItem } from './PrintoutItem';

const PAGE_SIZE = 25;

/** The printout queue of the activities the reader handles printouts for: oldest first, live. */
export default function PrintoutsPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const activities = usePrintoutActivities();
  const state = (STATE_CHOICES as readonly string[]).includes(params.get('state') ?? '') ? (params.get('state') as StateChoice) : 'open';
  const activitySlug = params.get('activity') ?? '';
  const activityId = activities.data?.find((a) => a.slug === activitySlug)?.id;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = { page, pageSize: PAGE_SIZE, state: state === 'open' ? 'queued,claimed' : state === 'all' ? '' : state, ...(activityId ? { activityId } : {}) };
  const list = useQuery({
    queryKey: keys.staffPrintouts(query),
    queryFn: () => call(ops.listPrintouts, { query }),
    placeholderData: keepPreviousData,
    enabled: !activitySlug || !!activities.data,
  });
  const waiting = useQuery({ queryKey: keys.staffPrintouts({ waiting: true }), queryFn: () => call(ops.listPrintouts, { query: { pageSize: 1, state: 'queued' } }) });
  const queued = waiting.data?.total;
  usePageTitle(queued ? t('staff.p.titleCount', { count: queued }) : t('staff.p.title'));
  const set = (next: { activity?: string; state?: StateChoice; page?: number }) => {
    const merged = { activity: activitySlug, state, page: 1, ...next };
    const out: Record<string, string> = {};
    if (merged.activity) out.activity = merged.activity;
    if (merged.state !== 'open') out.state = merged.state;
    if (merged.page > 1) out.page = String(merged.page);
    setParams(out);
  };
  return (
    <section className="staff-printouts">
      <h1 className="page-title">{t('staff.p.title')}</h1>
      {activities.data && activities.data.length === 0 && <p>{t('staff.p.noActivities')}</p>}
      <PrintoutFilters activities={activities.data ?? []} activity={activitySlug} state={state} set={set} />
      {list.isPending && <Loading />}
      {list.isError && <ErrorBox error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('staff.p.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <ol className="printout-list">
          {list.data.items.map((p) => (
            <PrintoutItem key={p.id} printout={p} />
          ))}
        </ol>
      )}
      {list.data && <Pager page={page} pages={Math.ceil(list.data.total / PAGE_SIZE)} go={(p) => set({ page: p })} previous={t('staff.previous')} next={t('staff.next')} />}
    </section>
  );
}
