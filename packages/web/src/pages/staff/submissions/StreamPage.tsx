import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useMay } from '../../../app/permissions';
import { Pager } from '../../../components/Pager';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { useStaffActivity } from '../activity/context';
import { JudgectlHint } from '../JudgectlHint';
import { narrowed, readFilters, streamQuery, writeFilters, type StreamFilters } from './filters';
import { useProblemLabels, useStream } from './queries';
import { StreamFilterBar } from './StreamFilterBar';
import { StreamTable } from './StreamTable';
import { STREAM_PAGE_SIZE } from './streamList';
import { useStreamRefetch } from './useStreamRefetch';
import '../../submissions/submissions.css';
import './staff-submissions.css';

/**
 * Every submission of the activity, newest first, live: a new one appears and a verdict changes
 * without reloading. The filters are GET /submissions' own and live in the address.
 */
export default function StreamPage() {
  const t = useT();
  usePageTitle(t('staff.subs.title'));
  const { activity } = useStaffActivity();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const set = useCallback((f: StreamFilters) => setParams(writeFilters(f)), [setParams]);
  const query = streamQuery(filters, activity.id, STREAM_PAGE_SIZE);
  const list = useStream(query);
  useStreamRefetch(activity.id, () => list.refetch({ cancelRefetch: false }));
  const { labels, series } = useProblemLabels(activity.slug);
  const reads = useMay(activity.id, 'submission:read:all');
  const author = filters.userId ? list.data?.items.find((s) => s.userId === filters.userId)?.userName : undefined;
  if (reads === false) return <p role="alert">{t('staff.subs.refused')}</p>;
  return (
    <section className="staff-stream-page">
      <h1 className="page-title">{t('staff.subs.title')}</h1>
      <StreamFilterBar filters={filters} series={series} timeZone={activity.timeZone} set={set} />
      <div className="stream-status">
        <p className="muted" aria-live="polite">
          {list.data && t('staff.subs.count', { count: list.data.total })}
        </p>
        <p className="muted">{t('staff.subs.zone', { zone: activity.timeZone })}</p>
        {filters.userId && (
          <p>
            {author ? t('staff.subs.onlyAuthor', { name: author }) : t('staff.subs.authorFilter')}{' '}
            <button type="button" className="link-button" onClick={() => set({ ...filters, userId: '', page: 1 })}>
              {t('staff.subs.clearAuthor')}
            </button>
          </p>
        )}
        {narrowed(filters) && (
          <button type="button" onClick={() => setParams({})}>
            {t('staff.subs.clear')}
          </button>
        )}
      </div>
      {list.isPending && <Loading />}
      {list.isError && <ErrorBox error={list.error} />}
      {list.data && list.data.items.length === 0 && <p>{t('staff.subs.none')}</p>}
      {list.data && list.data.items.length > 0 && (
        <StreamTable
          items={list.data.items}
          activity={activity.slug}
          timeZone={activity.timeZone}
          labels={labels}
          caption={t('staff.subs.title')}
          onlyAuthor={(userId) => set({ ...filters, userId, page: 1 })}
        />
      )}
      {list.data && (
        <Pager page={filters.page} pages={Math.ceil(list.data.total / STREAM_PAGE_SIZE)} go={(page) => set({ ...filters, page })} previous={t('staff.subs.newer')} next={t('staff.subs.older')} />
      )}
      <JudgectlHint command={`judgectl submissions list --activity ${activity.slug} --state queued`} />
    </section>
  );
}
