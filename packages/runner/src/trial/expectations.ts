import type { JudgeResult } from '../judging/types.js';
import type { Verdict } from '../problem/types.js';

/**
 * Whether an example submission's result meets what its directory under submissions/ (and, in
 * 2023-07 packages, submissions.yaml) expects of it.
 */

/** The 2025-09 default expectations of submissions/<directory>/ (legacy directories included). */
const EXPECTATIONS: Record<string, { permitted?: Verdict[]; required?: Verdict[] }> = {
  accepted: { permitted: ['AC'] },
  rejected: { required: ['WA', 'TLE', 'RTE'] },
  wrong_answer: { permitted: ['AC', 'WA'], required: ['WA'] },
  time_limit_exceeded: { permitted: ['AC', 'WA', 'TLE'], required: ['TLE'] },
  run_time_error: { permitted: ['AC', 'RTE'], required: ['RTE'] },
  brute_force: { permitted: ['AC', 'RTE', 'TLE'], required: ['RTE', 'TLE'] },
};

/** The format knows AC, WA, TLE, RTE for expectations: memory counts as a crash, output as a wrong answer. */
const CLASS: Record<Verdict, Verdict> = { AC: 'AC', WA: 'WA', TLE: 'TLE', RTE: 'RTE', MLE: 'RTE', OLE: 'WA', CE: 'CE', JE: 'JE' };

export function expectation(
  expected: string,
  permitted: Verdict[] | undefined,
  required: Verdict[] | undefined,
  score: [number, number] | undefined,
  judged: JudgeResult,
  scoring: boolean,
): { ok: boolean | null; why?: string } {
  if (judged.infrastructureFailure) return { ok: false, why: judged.infrastructureFailure };
  if (judged.verdict === 'JE') return { ok: false, why: 'judge error' };
  if (expected === 'compile_error') return judged.verdict === 'CE' ? { ok: true } : { ok: false, why: `expected CE, got ${judged.verdict}` };
  if (judged.verdict === 'CE') return { ok: false, why: 'it does not compile' };
  const tests = judged.details.tests.map((t) => t.verdict);
  const classes = new Set(tests.map((v) => CLASS[v]));
  const defaults = EXPECTATIONS[expected];
  const why: string[] = [];
  let checked = false;
  if (expected === 'partially_accepted') {
    checked = true;
    if (judged.verdict !== 'AC') why.push(`expected an accepted verdict with a partial score, got ${judged.verdict}`);
    else if (judged.maxScore !== undefined && judged.score >= judged.maxScore) why.push('expected a partial score, got full marks');
  }
  if (expected === 'memory_limit_exceeded' || expected === 'output_limit_exceeded') {
    checked = true;
    const v: Verdict = expected === 'memory_limit_exceeded' ? 'MLE' : 'OLE';
    if (!tests.includes(v)) why.push(`expected ${v} on some test case, got ${[...new Set(tests)].join(', ') || 'no test run'}`);
  }
  const allowed = permitted ?? defaults?.permitted;
  const needed = required ?? defaults?.required;
  if (allowed) {
    checked = true;
    const bad = [...classes].filter((c) => !allowed.includes(c));
    if (bad.length) why.push(`test verdicts ${bad.join(', ')} are not permitted (${allowed.join(', ')})`);
  }
  if (needed) {
    checked = true;
    if (![...classes].some((c) => needed.includes(c))) why.push(`no test case got one of ${needed.join(', ')}`);
  }
  if (score && scoring) {
    checked = true;
    if (judged.score < score[0] - 1e-9 || judged.score > score[1] + 1e-9) why.push(`score ${judged.score} is outside ${score[0]}..${score[1]}`);
  }
  if (!checked) return { ok: null };
  return why.length ? { ok: false, why: why.join('; ') } : { ok: true };
}

/** Whether the example must run out of time (time_limit_exceeded/, or submissions.yaml requiring TLE alone): its margin is checked. */
export function mustExceedTime(expected: string, required: Verdict[] | undefined): boolean {
  const needed = required ?? EXPECTATIONS[expected]?.required;
  return !!needed && needed.length === 1 && needed[0] === 'TLE';
}
