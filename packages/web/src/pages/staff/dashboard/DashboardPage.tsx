import { useMay } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { ContestClock } from '../../activity/ContestClock';
import { useSeries } from '../../activity/queries';
import { useStaffActivity } from '../activity/context';
import { ACTIVITY_SECTIONS } from '../sections';
import { TerminalTasks } from '../terminal/TerminalTasks';
import { ACTIVITY_TASKS } from '../terminal/tasks';
import { Figures } from './Figures';
import { dashboardLinks } from './links';
import { useDashboard } from './useDashboard';
import { Verdicts } from './Verdicts';
import './dashboard.css';

/**
 * The first page of an activity's staff pages: its clock and live figures, each one click from the
 * list behind it, and the terminal commands of the tasks no page does yet. Its managers only.
 */
export default function DashboardPage() {
  const t = useT();
  const { activity, access } = useStaffActivity();
  usePageTitle(t('staff.dashboard.title', { name: activity.name }));
  const figures = useDashboard(activity, access.manages);
  const series = useSeries(activity.slug, access.manages);
  const mayRunners = useMay(undefined, 'runner:read') ?? false;
  const links = dashboardLinks(activity.slug);
  if (!access.manages) {
    return (
      <section>
        <h2>{t('staff.dashboard.heading')}</h2>
        <p role="alert">{t('staff.dashboard.notManager')}</p>
      </section>
    );
  }
  const pageOf = (key: string) => {
    const s = ACTIVITY_SECTIONS.find((x) => x.key === key && x.shown(access));
    return s ? links.section(s.path) : undefined;
  };
  return (
    <section className="dashboard">
      <div className="dashboard-head">
        <h2>{t('staff.dashboard.heading')}</h2>
        <ContestClock activity={activity} series={series.data} ready={!series.isPending} />
      </div>
      {figures.isPending && <Loading />}
      {figures.isError && <ErrorBox error={figures.error} />}
      {figures.data && (
        <>
          <Figures d={figures.data} activity={activity} links={links} may={{ runners: mayRunners, printouts: access.printouts }} />
          <Verdicts d={figures.data} links={links} />
        </>
      )}
      <TerminalTasks groups={ACTIVITY_TASKS} activitySlug={activity.slug} pageOf={pageOf} level={3} />
    </section>
  );
}
