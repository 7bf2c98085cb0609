import { open } from 'node:fs/promises';
import { SAMPLE_COMPILE_CHARS, SAMPLE_TEXT_CHARS, type SampleResult } from '@judge/contract';
import { judgeSubmission } from './judge.js';
import type { JudgeInput } from './judging/types.js';
import { testsOf, type TestGroup } from './problem/types.js';

export type SampleRunOutcome =
  | { verdict: string; compileOutput?: string; samples: SampleResult[] }
  | { failure: string };

/**
 * A sample run (docs/web-pages.md "Run on samples"): the submission judged exactly as a job is (same grader,
 * sandbox and limits) on the package's `data/sample` group only, every sample run and its output
 * kept, so the author sees each sample's verdict, time, input, expected and actual output. The
 * secret data is never touched: the problem handed to the judge holds the sample group alone.
 */
export async function runSamples(input: Omit<JudgeInput, 'runAll' | 'revealOutputs'>): Promise<SampleRunOutcome> {
  const sample = input.problem.data.items.find((i) => i.kind === 'group' && i.group.name === 'sample');
  if (!sample || sample.kind !== 'group') return { failure: 'the problem package has no sample tests' };
  const data: TestGroup = { ...input.problem.data, items: [sample] };
  const r = await judgeSubmission({ ...input, problem: { ...input.problem, data }, runAll: true, revealOutputs: true });
  if (r.infrastructureFailure) return { failure: r.infrastructureFailure };
  const details = new Map(r.details.tests.map((t) => [t.test, t]));
  const samples: SampleResult[] = [];
  for (const test of testsOf(sample.group)) {
    const d = details.get(test.name);
    const texts = {
      input: await prefix(test.input),
      expected: await prefix(test.answer),
      ...(d?.output !== undefined ? { output: cut(d.output) } : {}),
      ...(d?.feedback ? { feedback: cut(d.feedback) } : {}),
    };
    const truncated = Object.values(texts).some((t) => t?.truncated);
    samples.push({
      name: test.name,
      // a sample the judging did not reach (it stopped at a compile error) has no verdict of its own
      verdict: d?.verdict ?? r.verdict,
      ...(d?.cpuMs !== undefined ? { cpuMs: d.cpuMs } : {}),
      ...(d?.wallMs !== undefined ? { wallMs: d.wallMs } : {}),
      ...Object.fromEntries(Object.entries(texts).flatMap(([k, v]) => (v ? [[k, v.text]] : []))),
      ...(truncated ? { truncated: true } : {}),
    });
  }
  return { verdict: r.verdict, ...(r.compileOutput !== undefined ? { compileOutput: r.compileOutput.slice(0, SAMPLE_COMPILE_CHARS) } : {}), samples };
}

function cut(s: string): { text: string; truncated: boolean } {
  return s.length > SAMPLE_TEXT_CHARS ? { text: s.slice(0, SAMPLE_TEXT_CHARS), truncated: true } : { text: s, truncated: false };
}

/** The start of a sample file, read no further than shown. */
async function prefix(path: string): Promise<{ text: string; truncated: boolean } | undefined> {
  const fh = await open(path).catch(() => undefined);
  if (!fh) return undefined;
  try {
    const buf = Buffer.alloc(SAMPLE_TEXT_CHARS * 4 + 1);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const c = cut(buf.subarray(0, bytesRead).toString('utf8'));
    return bytesRead === buf.length ? { ...c, truncated: true } : c;
  } finally {
    await fh.close();
  }
}
