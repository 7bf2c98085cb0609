import type { ParticipantActivity, ParticipantSeries } from '@judge/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Link, NavLink, Outlet, useParams } from 'react-router';
import { ErrorBox, Loading } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { ContestClock } from './ContestClock';
import { JoinBox } from './JoinBox';
import { problemQuery } from '../problem/query';
import { QuestionsNews, QuestionsTab } from '../questions/QuestionsTab';
import { mayBrowse, useActivity, useSeries } from './queries';
import './activity.css';

/** What the pages inside an activity read from the layout through <Outlet context>. */
export interface ActivityContext {
  activity: ParticipantActivity;
  series: ParticipantSeries[] | undefined;
  /** Why the series could not be read, if they could not. */
  seriesError: unknown;
}

function Tabs({ activity }: { activity: ParticipantActivity }) {
  const t = useT();
  const base = `/a/${encodeURIComponent(activity.slug)}`;
  return (
    <nav className="tabs activity-tabs" aria-label={t('activity.tabs')}>
      <NavLink to={base} end>
        {t('activity.tab.problems')}
      </NavLink>
      <NavLink to={`${base}/submissions`}>{t('activity.tab.submissions')}</NavLink>
      <NavLink to={`${base}/standings`}>{t('activity.tab.standings')}</NavLink>
      {activity.modules.questions && <QuestionsTab activity={activity} />}
      {activity.modules.printouts && <NavLink to={`${base}/printouts`}>{t('activity.tab.printouts')}</NavLink>}
    </nav>
  );
}

/** For the activity's managers: its staff pages, one click from what participants see. */
function StaffPagesLink({ slug }: { slug: string }) {
  const t = useT();
  return (
    <Link className="staff-pages-link" to={`/staff/a/${encodeURIComponent(slug)}`}>
      {t('staff.home.staffPages')}
    </Link>
  );
}

/**
 * A deep link to a problem asks for the problem and the page's code while the activity is still on
 * its way, instead of after it: the statement shows a round trip sooner.
 */
function usePrefetchProblem(slug: string, problem: string | undefined): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!problem) return;
    void qc.prefetchQuery(problemQuery(slug, problem));
    void import('../problem/ProblemPage');
  }, [qc, slug, problem]);
}

/**
 * The frame of every page inside an activity: its name, the contest clock and the tabs. Someone
 * who has not joined sees the join box instead of the page (its content is the members').
 */
export default function ActivityLayout() {
  const { activity: slug = '', problem } = useParams();
  usePrefetchProblem(slug, problem);
  const a = useActivity(slug);
  const browse = mayBrowse(a.data);
  const series = useSeries(slug, browse);
  if (a.isPending) return <Loading />;
  if (a.isError) return <ErrorBox error={a.error} />;
  const activity = a.data;
  return (
    <div className="activity">
      <header className="activity-header">
        <p className="activity-name">{activity.name}</p>
        {activity.canManage && <StaffPagesLink slug={activity.slug} />}
        <ContestClock activity={activity} series={series.data} ready={!browse || !series.isPending} />
      </header>
      {browse ? (
        <>
          <Tabs activity={activity} />
          {activity.modules.questions && <QuestionsNews activity={activity} />}
          <Suspense fallback={<Loading />}>
            <Outlet context={{ activity, series: series.data, seriesError: series.error } satisfies ActivityContext} />
          </Suspense>
        </>
      ) : (
        <JoinBox activity={activity} />
      )}
    </div>
  );
}
