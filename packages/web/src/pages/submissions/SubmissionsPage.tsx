import type { SubmissionSummary } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useOutletContext, useParams, useSearchParams } from 'react-router';
import type { ActivityContext } from '../activity/ActivityLayout';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { Pager } from '../../components/Pager';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { useVerdictNotifications } from '../submit/VerdictNotifier';
import { SubmissionRows } from './SubmissionRows';
import { useKnownLanguages } from './knownLanguages';
import { usePendingRefetch } from './pendingRefetch';
import { useActivityZone } from './useActivityZone';
import './submissions.css';

const PAGE_SIZE = 25;

/** The reader's own submissions in an activity, newest first, a page at a time; verdicts arrive live. */
export default function SubmissionsPage() {
  const t = useT();
  usePageTitle(t('submissions.title'));
  useVerdictNotifications();
  const { activity = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const zone = useActivityZone(activity);
  const languages = useKnownLanguages(activity);
  const refetchInterval = usePendingRefetch((d: { items: SubmissionSummary[] }) => d.items);
  const q = useQuery({
    queryKey: [...keys.submissions(activity), 'page', page],
    queryFn: () => call(ops.listOwnSubmissions, { params: { idOrSlug: activity }, query: { page, pageSize: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
  return (
    <section className="submissions-page">
      <h1 className="page-title">{t('submissions.title')}</h1>
      <ManagerNotice />
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {q.data && q.data.items.length === 0 && (
        <p>
          {t('submissions.none')} <Link to={`/a/${encodeURIComponent(activity)}`}>{t('submissions.toProblems')}</Link>
        </p>
      )}
      {q.data && q.data.items.length > 0 && <SubmissionRows items={q.data.items} activity={activity} timeZone={zone} withProblem caption={t('submissions.title')} languages={languages} />}
      {q.data && <Pager page={page} pages={Math.ceil(q.data.total / PAGE_SIZE)} go={(p) => setSearch(p > 1 ? { page: String(p) } : {})} previous={t('submissions.newer')} next={t('submissions.older')} />}
    </section>
  );
}

/** A manager's own list is their own: everyone's submissions are on the staff stream, which this points to. */
function ManagerNotice() {
  const t = useT();
  const { activity } = useOutletContext<ActivityContext>();
  if (!activity.canManage) return null;
  return (
    <p className="manager-notice">
      {t('staff.participant.managerNotice')} <Link to={`/staff/a/${encodeURIComponent(activity.slug)}/submissions`}>{t('staff.participant.toStream')}</Link>
    </p>
  );
}
