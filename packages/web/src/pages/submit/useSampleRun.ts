import type { ParticipantProblem, SampleRun } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { hintMaintenance } from '../../api/maintenanceHint';
import { refusalOf, type Refusal } from './errors';
import { pastedFileName } from './languages';
import type { SubmitForm } from './useSubmitForm';

/** How often a waiting run is asked for: its result comes by polling (docs/web-pages.md "Run on samples"). */
const POLL_MS = 1000;

/**
 * "Run on samples": the form's code (or chosen files) sent as a sample run, then polled until it is
 * finished. Never a submission: nothing in the lists or standings changes.
 */
export function useSampleRun(activity: string, problem: ParticipantProblem, f: SubmitForm) {
  const [runId, setRunId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const q = useQuery({
    queryKey: ['sample-run', runId],
    queryFn: () => api.call(ops.getSampleRun, { params: { sampleRunId: runId! } }),
    enabled: runId !== null,
    refetchInterval: (query) => {
      const s = (query.state.data as SampleRun | undefined)?.state;
      return s === 'completed' || s === 'failed' || s === 'cancelled' ? false : POLL_MS;
    },
  });

  async function start() {
    if (busy || f.blocked) return;
    setBusy(true);
    setRefusal(null);
    setFailure(null);
    try {
      const lang = problem.allowedLanguages.find((l) => l.id === f.language);
      const files = f.files.length ? await Promise.all(f.files.map(async (x) => ({ name: x.name, code: await x.text() }))) : [{ name: pastedFileName(lang), code: f.code }];
      const run = await api.call(ops.runSamples, { params: { idOrSlug: activity, problemSlug: problem.slug }, body: { files, language: f.language } });
      setRunId(run.id);
    } catch (e) {
      hintMaintenance(e);
      const r = refusalOf(e, problem);
      if (r) setRefusal(r);
      else setFailure(e);
    } finally {
      setBusy(false);
    }
  }

  return { start, busy, refusal, failure, run: runId ? q.data : undefined };
}
