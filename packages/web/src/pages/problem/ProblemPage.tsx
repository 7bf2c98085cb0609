import type { ParticipantProblem } from '@judge/contract';
import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext, useParams } from 'react-router';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import type { ActivityContext } from '../activity/ActivityLayout';
import { letterOf } from '../activity/letters';
import { useIcpc } from '../activity/useIcpc';
import { SubmitPanel } from '../submit/SubmitPanel';
import { ProblemFacts } from './ProblemFacts';
import { problemQuery } from './query';
import { Samples } from './Samples';
import { pairSamples } from './samples';
import { Statement } from './Statement';
import { AskAboutProblem } from '../questions/AskAboutProblem';
import './problem.css';

function useLetter(problem: ParticipantProblem | undefined): string | undefined {
  const { series } = useOutletContext<ActivityContext>();
  const inSeries = series?.find((s) => s.id === problem?.seriesId)?.problems;
  return problem && inSeries ? letterOf(inSeries, problem.id) : undefined;
}

/** The reader's standing on the problem: solved or tried with the tries in an icpc contest, with the best score otherwise. */
function statusText(t: ReturnType<typeof useT>, problem: ParticipantProblem, icpc: boolean): string {
  const status = t(`problems.status.${problem.status}`);
  if (icpc) return problem.attempts > 0 ? `${status} · ${t('problems.tries', { count: problem.attempts })}` : status;
  const scored = (problem.status === 'partial' || problem.status === 'solved') && problem.bestScore !== undefined && problem.maxScore !== undefined;
  return scored ? `${status} ${t('problems.score', { score: problem.bestScore!, max: problem.maxScore! })}` : status;
}

function Heading({ problem, letter }: { problem: ParticipantProblem; letter: string | undefined }) {
  const t = useT();
  const icpc = useIcpc();
  return (
    <div className="problem-heading">
      <h1>
        {letter && <span className="letter">{letter}</span>} {problem.name}
      </h1>
      <span className={`status status-${problem.status}`}>{statusText(t, problem, icpc)}</span>
    </div>
  );
}

/** A problem as a participant works on it: the statement on the left, samples, limits and the submit form on the right. */
export default function ProblemPage() {
  const t = useT();
  const { activity } = useOutletContext<ActivityContext>();
  const { problem: problemSlug = '' } = useParams();
  const q = useQuery(problemQuery(activity.slug, problemSlug));
  const letter = useLetter(q.data);
  usePageTitle(q.data ? `${letter ? `${letter}. ` : ''}${q.data.name}` : undefined);
  if (q.isPending) return <Loading />;
  if (q.isError)
    return (
      <>
        <ErrorBox error={q.error} />
        <Link to={`/a/${encodeURIComponent(activity.slug)}`}>{t('problem.back')}</Link>
      </>
    );
  const problem = q.data;
  return (
    <article className="problem-page">
      <Heading problem={problem} letter={letter} />
      <div className="problem-columns">
        <div className="problem-main">
          <Statement statements={problem.statements} />
        </div>
        <aside className="problem-side" aria-label={t('problem.side')}>
          <ProblemFacts problem={problem} />
          {activity.modules.questions && <AskAboutProblem activity={activity.slug} problemId={problem.id} />}
          <Samples files={problem.attachments} />
          <section className="submit card" aria-labelledby="submit-title">
            <h2 id="submit-title">{t('problem.submit')}</h2>
            <SubmitPanel activity={activity.slug} problem={problem} sampleRuns={activity.modules.sampleRuns && pairSamples(problem.attachments).length > 0} />
          </section>
        </aside>
      </div>
    </article>
  );
}
