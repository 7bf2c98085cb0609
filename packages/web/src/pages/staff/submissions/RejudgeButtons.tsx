import type { SubmissionDetail } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useState } from 'react';
import { call } from '../../../api/client';
import { useMay } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { useAssignmentCount, useSubmissionAction } from './queries';

/**
 * Rejudge this submission, or every submission to its problem: the second says how many it will
 * queue and asks first, since it can fill the queue in the middle of a contest.
 */
export function RejudgeButtons({ s, problem, seriesSlug }: { s: SubmissionDetail; problem: string; seriesSlug: string }) {
  const t = useT();
  const may = useMay(s.activityId, 'submission:rejudge') === true;
  const [asking, setAsking] = useState(false);
  const count = useAssignmentCount(s.activityId, s.seriesProblemId, asking);
  const one = useSubmissionAction(() => call(ops.rejudgeSubmission, { params: { id: s.id } }));
  const all = useSubmissionAction(() => call(ops.rejudgeAssignment, { params: { assignmentId: s.seriesProblemId } }));
  if (!may) return null;
  return (
    <div className="rejudge">
      <div className="confirm">
        <button type="button" onClick={() => one.mutate()} disabled={one.isPending}>
          {t('staff.sub.rejudge')}
        </button>
        {!asking && (
          <button type="button" onClick={() => setAsking(true)}>
            {t('staff.sub.rejudgeAll', { problem })}
          </button>
        )}
      </div>
      {asking && count.data !== undefined && (
        <div className="confirm" role="group" aria-label={t('staff.sub.rejudgeAll', { problem })}>
          <p>{t('staff.sub.rejudgeAllAsk', { count: count.data, problem })}</p>
          <button
            type="button"
            className="danger"
            disabled={all.isPending}
            onClick={() => all.mutate(undefined, { onSettled: () => setAsking(false) })}
            ref={(b) => b?.focus()}
          >
            {t('staff.sub.rejudgeAllYes', { count: count.data })}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            {t('staff.cancel')}
          </button>
          <JudgectlHint command={`judgectl submissions rejudge-assignment ${s.activitySlug} ${seriesSlug} ${s.problemSlug}`} />
        </div>
      )}
      {count.isError && <ErrorBox error={count.error} />}
      <p role="status" className="action-status">
        {one.isSuccess && t('staff.sub.rejudged', { n: one.data.attempts })}
        {all.isSuccess && t('staff.sub.rejudgedAll', { count: all.data })}
      </p>
      {one.isError && <ErrorBox error={one.error} />}
      {all.isError && <ErrorBox error={all.error} />}
      <JudgectlHint command={`judgectl submissions rejudge ${s.id}`} />
    </div>
  );
}
