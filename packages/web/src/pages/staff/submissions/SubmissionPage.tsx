import type { SubmissionDetail } from '@judge/contract';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { useStaffActivity } from '../activity/context';
import { AttemptOutput } from './AttemptOutput';
import { Attempts } from './Attempts';
import { ExclusionForm } from './ExclusionForm';
import { useProblemLabels, useStaffSubmission } from './queries';
import { RejudgeButtons } from './RejudgeButtons';
import { SourceDiff } from './SourceDiff';
import { StaffSourceFiles } from './StaffSourceFiles';
import { StaffSubmissionFacts } from './StaffSubmissionFacts';
import { problemText } from './StreamTable';
import '../../submissions/submissions.css';
import './staff-submissions.css';

/**
 * One submission as staff see it: whose it is, every attempt with its runner, the tests, compiler
 * output and judge log of an attempt, the source and what changed since the author's previous
 * submission to the problem; rejudge, cancel, exclude and include. Live like the stream.
 */
export default function SubmissionPage() {
  const t = useT();
  const { id = '' } = useParams();
  const q = useStaffSubmission(id);
  usePageTitle(q.data ? t('staff.sub.title', { who: q.data.userName, problem: q.data.problemName }) : t('staff.subs.title'));
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorBox error={q.error} />;
  return <SubmissionView s={q.data} />;
}

function SubmissionView({ s }: { s: SubmissionDetail }) {
  const t = useT();
  const { activity } = useStaffActivity();
  const { labels } = useProblemLabels(activity.slug);
  const [params, setParams] = useSearchParams();
  const chosen = Number(params.get('attempt'));
  const attempt = s.attemptList.find((a) => a.attempt === chosen) ?? s.attemptList[0];
  const stream = `/staff/a/${encodeURIComponent(activity.slug)}/submissions`;
  return (
    <article className="staff-submission">
      <p className="muted">
        <Link to={stream}>{t('staff.sub.back')}</Link>
      </p>
      <h1 className="page-title">{t('staff.sub.title', { who: s.userName, problem: problemText(s, labels) })}</h1>
      <StaffSubmissionFacts s={s} problem={problemText(s, labels)} stream={stream} timeZone={activity.timeZone} />
      <section aria-labelledby="judging-title" className="submission-actions">
        <h2 id="judging-title">{t('staff.sub.actions')}</h2>
        <RejudgeButtons s={s} problem={problemText(s, labels)} seriesSlug={labels.get(s.seriesProblemId)?.seriesSlug ?? s.seriesId} />
        <ExclusionForm s={s} timeZone={activity.timeZone} />
      </section>
      <Attempts s={s} shown={attempt?.attempt} show={(n) => setParams({ attempt: String(n) }, { replace: true })} timeZone={activity.timeZone} />
      {attempt && <AttemptOutput attempt={attempt} submissionId={s.id} />}
      <StaffSourceFiles s={s} />
      <SourceDiff s={s} timeZone={activity.timeZone} />
    </article>
  );
}
