import type { Problem, ProblemVersion } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useMay } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { parseMeasurement, trialRunning } from './trial';
import { TrialTable } from './TrialTable';

/** The package file of a version: the one the runner unpacks (named package.zip on the server). */
const packageOf = (v: ProblemVersion) => v.files.find((f) => f.name === 'package.zip' && f.scope === 'runner') ?? v.files.find((f) => f.name === 'package.zip');

/** A trial is asked about again every second while a runner has it: no event announces its end. */
const POLL_MS = 1000;

/**
 * Runs the package's own example submissions (submissions/accepted, wrong_answer, …) on a runner,
 * as `judgectl problems verify` does, and shows each example's expected and actual verdict side by
 * side, live while the trial runs. No problem, version or submission changes.
 */
export function TrialPanel({ problem, version }: { problem: Problem; version: ProblemVersion }) {
  const t = useT();
  const mayRun = useMay(undefined, 'trial:run');
  const [trialId, setTrialId] = useState<string>();
  const [error, setError] = useState<unknown>(null);
  const pkg = packageOf(version);
  const trial = useQuery({
    queryKey: keys.trial(trialId ?? ''),
    queryFn: () => call(ops.getTrial, { params: { trialId: trialId! } }),
    enabled: !!trialId,
    refetchInterval: (q) => (trialRunning(q.state.data?.state) ? POLL_MS : false),
  });
  if (!mayRun || !pkg) return null;
  const start = async () => {
    setError(null);
    try {
      const created = await call(ops.createTrial, { body: { problemType: problem.type, packageFileId: pkg.fileId } });
      setTrialId(created.id);
    } catch (e) {
      setError(e);
    }
  };
  const data = trial.data?.id === trialId ? trial.data : undefined;
  const measurement = parseMeasurement(data?.measurement);
  return (
    <section className="card trial" aria-labelledby="trial-title">
      <h2 id="trial-title">{t('staff.problems.trial.title')}</h2>
      <p className="muted">{t('staff.problems.trial.explain', { version: version.version })}</p>
      <button type="button" className="primary" onClick={() => void start()} disabled={trialRunning(data?.state)}>
        {t(data ? 'staff.problems.trial.again' : 'staff.problems.trial.run')}
      </button>
      {error !== null && <ErrorBox error={error} />}
      {trial.isError && <ErrorBox error={trial.error} />}
      {data && (
        <p role="status" aria-live="polite" className="trial-state" data-state={data.state}>
          {t(`staff.problems.trial.state.${data.state}`, { runner: data.runnerName ?? '' })}
        </p>
      )}
      {data?.failureReason && (
        <p className="error-box" lang="en">
          {data.failureReason}
        </p>
      )}
      {measurement && <TrialTable measurement={measurement} />}
      <JudgectlHint command="judgectl problems verify PACKAGE.zip" />
    </section>
  );
}
