import { useMay } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { useStaffActivity } from '../activity/context';
import { JudgectlHint } from '../JudgectlHint';
import { useManagedSeries } from './queries';
import { SeriesAssignments } from './SeriesAssignments';
import './problems.css';

/**
 * The problems of one activity, series by series: each assignment with its letter, limits, points
 * and languages, links to its problem page and to what participants see; and a problem of the
 * library assigned to a series. Changes are offered to holders of problem:attach.
 */
export default function ActivityProblemsPage() {
  const t = useT();
  const { activity } = useStaffActivity();
  usePageTitle(t('staff.problems.assign.title', { name: activity.name }));
  const series = useManagedSeries(activity.slug);
  const mayAttach = useMay(activity.id, 'problem:attach') === true;
  return (
    <section className="staff-assignments">
      <h2 className="page-title">{t('staff.problems.assign.heading')}</h2>
      {series.isPending && <Loading />}
      {series.isError && <ErrorBox error={series.error} />}
      {series.data?.length === 0 && <p>{t('staff.problems.assign.noSeries')}</p>}
      {series.data?.map((s) => <SeriesAssignments key={s.id} activitySlug={activity.slug} series={s} mayAttach={mayAttach} />)}
      <JudgectlHint command={`judgectl assign ${activity.slug} SERIES PROBLEM --max-points N`} />
      <JudgectlHint command={`judgectl assignments update ${activity.slug} SERIES PROBLEM --time-limit S --memory MIB --languages c,cpp,python3 --points N`} />
    </section>
  );
}
