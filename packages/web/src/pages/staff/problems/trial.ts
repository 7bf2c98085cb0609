import type { TrialExample as SharedExample, TrialMeasurement as Shared } from '@judge/sdk/browser';

/** One example of a trial (the shape judgectl problems verify prints too, held by the SDK). */
export type TrialExample = SharedExample;

/** A trial's measurement with its lists always present (parseMeasurement fills the missing ones). */
export type TrialMeasurement = Shared & Required<Pick<Shared, 'submissions' | 'notRun' | 'errors' | 'warnings'>>;

/** The measurement of a finished trial; undefined while there is none or when it is not the JSON a runner sends. */
export function parseMeasurement(text: string | undefined): TrialMeasurement | undefined {
  if (!text) return undefined;
  try {
    const m = JSON.parse(text) as Partial<TrialMeasurement>;
    if (typeof m !== 'object' || m === null) return undefined;
    return {
      ok: m.ok === true,
      ...(m.timing ? { timing: m.timing } : {}),
      submissions: Array.isArray(m.submissions) ? m.submissions : [],
      notRun: Array.isArray(m.notRun) ? m.notRun : [],
      errors: Array.isArray(m.errors) ? m.errors : [],
      warnings: Array.isArray(m.warnings) ? m.warnings : [],
    };
  } catch {
    return undefined;
  }
}

/** The ICPC package's submission directories and the verdict each expects. */
const EXPECTED_VERDICT: Record<string, string> = {
  accepted: 'AC',
  wrong_answer: 'WA',
  time_limit_exceeded: 'TLE',
  run_time_error: 'RTE',
  memory_limit_exceeded: 'MLE',
  output_limit_exceeded: 'OLE',
  compile_error: 'CE',
};

/** The verdict an example's directory expects, or undefined for a directory that names none (e.g. rejected, brute_force). */
export function expectedVerdict(directory: string): string | undefined {
  return EXPECTED_VERDICT[directory];
}

/** Whether a trial may still change: the page asks again until it is done. */
export const trialRunning = (state: string | undefined) => state === 'queued' || state === 'running';
