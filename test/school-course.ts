import { ops, type SubmissionSummary } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { legacyPackage, zipOf } from '../packages/server/test/zips.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';

/**
 * The world of the tests that run `judge serve` or `judge up` as child processes: an open course
 * `school` with the a + b problem `sum`, and a participant `pupil` enrolled in it, made through the
 * API as an administrator would.
 */
export async function schoolCourse(url: string, admin: JudgeClient): Promise<{ pupil: JudgeClient; submit(code: string, fileName: string): Promise<SubmissionSummary> }> {
  await admin.call(ops.createActivity, { body: { slug: 'school', name: 'School', type: 'course@1', rankingType: 'points', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: 'school' }, body: { slug: 'week-1', name: 'Week 1' } });
  const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum')), 'sum.zip');
  await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
  const issued = await admin.call(ops.createUser, { body: { username: 'pupil' } });
  const pupil = new JudgeClient({ baseUrl: url });
  await pupil.login(issued.username, issued.password);
  await pupil.call(ops.enrol, { params: { idOrSlug: 'school' }, body: {} });
  return { pupil, submit: (code, fileName) => pupil.call(ops.submit, { params: { idOrSlug: 'school', problemSlug: 'sum' }, form: codeForm(code, fileName) }) };
}
