import type { Attempt, SubmissionDetail } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { call } from '../../../api/client';
import { useMay } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { VerdictBadge } from '../../../components/Verdict';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { useSubmissionAction } from './queries';

interface Props {
  s: SubmissionDetail;
  /** The attempt whose tests and logs are shown below. */
  shown: number | undefined;
  show(attempt: number): void;
  timeZone: string;
}

/** Every attempt, newest first, with its runner and times; an unfinished one can be cancelled. */
export function Attempts({ s, shown, show, timeZone }: Props) {
  const t = useT();
  const mayCancel = useMay(s.activityId, 'submission:cancel') === true;
  const cancel = useSubmissionAction((a: Attempt) => call(ops.cancelAttempt, { params: { submissionId: s.id, attemptId: a.id } }));
  return (
    <section aria-labelledby="attempts-title">
      <h2 id="attempts-title">{t('staff.sub.attempts')}</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="attempts-title">
        <table className="attempts-table">
          <thead>
            <tr>
              <th scope="col">{t('staff.sub.attempt')}</th>
              <th scope="col">{t('staff.sub.result')}</th>
              <th scope="col">{t('staff.sub.runner')}</th>
              <th scope="col">{t('staff.sub.queuedAt')}</th>
              <th scope="col">{t('staff.sub.startedAt')}</th>
              <th scope="col">{t('staff.sub.finishedAt')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('staff.sub.show')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {s.attemptList.map((a) => (
              <tr key={a.id} data-attempt={a.attempt} data-state={a.state}>
                <th scope="row">{a.attempt}</th>
                <td>
                  <VerdictBadge of={a.state === 'running' && a.attempt === s.attempts ? { ...a, progress: s.progress } : a} />
                  {a.failureReason && <p className="muted attempt-failure">{t('staff.sub.failure', { reason: a.failureReason })}</p>}
                </td>
                <td>{a.runnerName ?? <span className="muted">{t('staff.sub.noRunner')}</span>}</td>
                <td>
                  <Time iso={a.createdAt} timeZone={timeZone} />
                </td>
                <td>{a.startedAt ? <Time iso={a.startedAt} timeZone={timeZone} /> : '—'}</td>
                <td>{a.finishedAt ? <Time iso={a.finishedAt} timeZone={timeZone} /> : '—'}</td>
                <td className="attempt-buttons">
                  {shown === a.attempt ? (
                    <span className="muted">{t('staff.sub.shown')}</span>
                  ) : (
                    <button type="button" onClick={() => show(a.attempt)} aria-label={t('staff.sub.showAttempt', { n: a.attempt })}>
                      {t('staff.sub.show')}
                    </button>
                  )}
                  {mayCancel && (a.state === 'queued' || a.state === 'running') && (
                    <button type="button" className="danger" disabled={cancel.isPending} onClick={() => cancel.mutate(a)} aria-label={t('staff.sub.cancelAttempt', { n: a.attempt })}>
                      {t('staff.sub.cancel')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="visually-hidden" role="status">
        {cancel.isSuccess && cancel.variables && t('staff.sub.cancelled', { n: cancel.variables.attempt })}
      </p>
      {cancel.isError && <ErrorBox error={cancel.error} />}
      {mayCancel && <JudgectlHint command={`judgectl submissions cancel ${s.id}`} />}
    </section>
  );
}
