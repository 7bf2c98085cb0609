import { ops, type Activity, type Problem, type SubmissionDetail } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { TestJudge } from '../packages/server/test/harness.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';
import { until } from '../packages/server/test/support/wait.js';

/** The a + b package of the end-to-end tests: one sample, one secret test. */
export const SUM_PACKAGE = {
  'problem.yaml': 'name: Sum\n',
  'data/sample/1.in': '1 2\n',
  'data/sample/1.ans': '3\n',
  'data/secret/1.in': '5 5\n',
  'data/secret/1.ans': '10\n',
};

export interface OneProblemContest {
  act: Activity;
  problem: Problem;
  /** A participant enrolled in it. */
  pupil: JudgeClient;
}

/**
 * The end-to-end tests' world: an open contest with one series, one problem made from a package
 * zip and attached under `problemSlug`, and an enrolled participant.
 */
export async function oneProblemContest(
  j: TestJudge,
  admin: JudgeClient,
  o: { slug: string; name: string; problemSlug: string; problemName: string; zip: Buffer },
): Promise<OneProblemContest> {
  const act = await admin.call(ops.createActivity, { body: { slug: o.slug, name: o.name, type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
  const { problem } = await packagedProblem(admin, { slug: o.problemSlug, name: o.problemName, type: 'standard-io@1' }, o.zip, `${o.problemSlug}.zip`);
  await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: o.problemSlug } });
  const pupil = await j.signIn(await j.user('contestant'));
  await pupil.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
  return { act, problem, pupil };
}

/** A participant's own submission once it is judged (or given up): polls its view until then. */
export function settled(client: JudgeClient, idOrSlug: string, id: string, o: { ms: number; stepMs?: number; what?: string }): Promise<SubmissionDetail> {
  return until(
    o.what ?? 'a verdict',
    async () => {
      const d = await client.call(ops.getOwnSubmission, { params: { idOrSlug, id } });
      return d.state === 'completed' || d.state === 'failed' ? d : undefined;
    },
    o.ms,
    o.stepMs,
  );
}
