import type { ParticipantProblem, SubmissionSummary } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { ErrorBox, Loading } from '../../components/Status';
import { useVerdictWords } from '../../components/Verdict';
import { useT } from '../../i18n/I18n';
import { SubmissionRows } from '../submissions/SubmissionRows';
import { usePendingRefetch } from '../submissions/pendingRefetch';
import { useActivityZone } from '../submissions/useActivityZone';
import { problemSubmissionsKey } from './useSubmitForm';

/** The reader's latest submissions to this problem, newest first; the socket's events keep them current. */
export function ProblemSubmissions({ activity, problem }: { activity: string; problem: ParticipantProblem }) {
  const t = useT();
  const zone = useActivityZone(activity);
  const titleId = useId();
  const refetchInterval = usePendingRefetch((d: { items: SubmissionSummary[] }) => d.items);
  const q = useQuery({
    refetchInterval,
    queryKey: problemSubmissionsKey(activity, problem.id),
    queryFn: () => call(ops.listOwnSubmissions, { params: { idOrSlug: activity }, query: { seriesProblemId: problem.id, pageSize: 10 } }),
  });
  return (
    <section className="problem-submissions" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('submit.mine.title')}</h3>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {q.data && q.data.items.length === 0 && <p className="muted">{t('submit.mine.none')}</p>}
      {q.data && q.data.items.length > 0 && <SubmissionRows items={q.data.items} activity={activity} timeZone={zone} withProblem={false} caption={t('submit.mine.title')} languages={problem.allowedLanguages} />}
      <LatestSaid latest={q.data?.items[0]} />
      {q.data && q.data.total > q.data.items.length && <Link to={`/a/${encodeURIComponent(activity)}/submissions`}>{t('submit.mine.all')}</Link>}
    </section>
  );
}

/** Says the newest submission's state and verdict to screen readers as it changes (the table does not). */
function LatestSaid({ latest }: { latest: SubmissionSummary | undefined }) {
  const t = useT();
  const words = useVerdictWords();
  return (
    <p className="visually-hidden" role="status" aria-live="polite">
      {latest ? t('submit.mine.latest', { result: words(latest) }) : ''}
    </p>
  );
}
