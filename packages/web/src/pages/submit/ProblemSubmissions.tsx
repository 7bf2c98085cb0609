import type { ParticipantProblem } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { ErrorBox, Loading } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { SubmissionRows } from '../submissions/SubmissionRows';
import { useActivityZone } from '../submissions/useActivityZone';
import { problemSubmissionsKey } from './useSubmitForm';

/** The reader's latest submissions to this problem, newest first; the socket's events keep them current. */
export function ProblemSubmissions({ activity, problem }: { activity: string; problem: ParticipantProblem }) {
  const t = useT();
  const zone = useActivityZone(activity);
  const titleId = useId();
  const q = useQuery({
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
      {q.data && q.data.total > q.data.items.length && <Link to={`/a/${encodeURIComponent(activity)}/submissions`}>{t('submit.mine.all')}</Link>}
    </section>
  );
}
