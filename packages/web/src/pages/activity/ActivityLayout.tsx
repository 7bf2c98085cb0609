import type { ParticipantActivity, ParticipantSeries } from '@judge/contract';
import { Suspense } from 'react';
import { NavLink, Outlet, useParams } from 'react-router';
import { ErrorBox, Loading } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { ContestClock } from './ContestClock';
import { JoinBox } from './JoinBox';
import { mayBrowse, useActivity, useSeries } from './queries';
import './activity.css';

/** What the pages inside an activity read from the layout through <Outlet context>. */
export interface ActivityContext {
  activity: ParticipantActivity;
  series: ParticipantSeries[] | undefined;
  /** Why the series could not be read, if they could not. */
  seriesError: unknown;
}

function Tabs({ slug }: { slug: string }) {
  const t = useT();
  const base = `/a/${encodeURIComponent(slug)}`;
  return (
    <nav className="activity-tabs" aria-label={t('activity.tabs')}>
      <NavLink to={base} end>
        {t('activity.tab.problems')}
      </NavLink>
      <NavLink to={`${base}/submissions`}>{t('activity.tab.submissions')}</NavLink>
      <NavLink to={`${base}/standings`}>{t('activity.tab.standings')}</NavLink>
    </nav>
  );
}

/**
 * The frame of every page inside an activity: its name, the contest clock and the tabs. Someone
 * who has not joined sees the join box instead of the page (its content is the members').
 */
export default function ActivityLayout() {
  const { activity: slug = '' } = useParams();
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
        <ContestClock activity={activity} series={series.data} />
      </header>
      {browse ? (
        <>
          <Tabs slug={activity.slug} />
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
