import type { SubmissionDetail } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext, useParams } from 'react-router';
import type { ActivityContext } from '../activity/ActivityLayout';
import { PrintSubmission } from '../printouts/PrintSubmission';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { useVerdictNotifications } from '../submit/VerdictNotifier';
import { CompileOutput, OtherAttachments } from './AttemptFiles';
import { parseDetails } from './details';
import { useFileText } from './files';
import { SampleFailures } from './SampleFailures';
import { SourceFiles } from './SourceFiles';
import { SubmissionFacts } from './SubmissionFacts';
import { usePendingRefetch } from './pendingRefetch';
import { TestResults } from './TestResults';
import { WrongLanguage } from './WrongLanguage';
import './submissions.css';

/** One submission of the reader's: its verdict (live), source, compiler output, tests and failed samples. */
export default function SubmissionPage() {
  const t = useT();
  const { activity = '', id = '' } = useParams();
  useVerdictNotifications();
  const refetchInterval = usePendingRefetch((d: SubmissionDetail) => [d]);
  const q = useQuery({ queryKey: keys.submission(activity, id), queryFn: () => call(ops.getOwnSubmission, { params: { idOrSlug: activity, id } }), refetchInterval });
  usePageTitle(q.data ? t('submission.title', { problem: q.data.problemName }) : t('submission.titlePlain'));
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorBox error={q.error} />;
  return <SubmissionView activity={activity} s={q.data} />;
}

function SubmissionView({ activity, s }: { activity: string; s: SubmissionDetail }) {
  const t = useT();
  const printable = useOutletContext<ActivityContext>().activity.modules.printouts;
  const problem = useQuery({
    queryKey: keys.problem(activity, s.problemSlug),
    queryFn: () => call(ops.getActivityProblem, { params: { idOrSlug: activity, problemSlug: s.problemSlug } }),
  });
  const attempt = s.attemptList[0];
  const files = attempt?.files ?? [];
  const detailsFile = files.find((f) => f.name === 'details');
  const details = parseDetails(useFileText(detailsFile?.fileId).data);
  const compile = files.find((f) => f.name === 'compile');
  const language = problem.data?.allowedLanguages.find((l) => l.id === s.props?.language);
  return (
    <article className="submission-page">
      <p className="muted">
        <Link to={`/a/${encodeURIComponent(activity)}/submissions`}>{t('submissions.title')}</Link>
      </p>
      <h1 className="page-title">{t('submission.title', { problem: s.problemName })}</h1>
      <SubmissionFacts activity={activity} s={s} details={details} language={language?.name} />
      {printable && <PrintSubmission activity={activity} submissionId={s.id} />}
      <WrongLanguage s={s} language={language} allowed={problem.data?.allowedLanguages ?? []} />
      {compile && <CompileOutput file={compile} open={s.verdict === 'CE'} />}
      {details && <TestResults details={details} />}
      {details && <SampleFailures tests={details.tests} problem={problem.data} />}
      <SourceFiles files={s.files} language={language} />
      <OtherAttachments files={files.filter((f) => f.name !== 'details' && f.name !== 'compile')} />
    </article>
  );
}
