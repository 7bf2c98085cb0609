// What the judging benchmarks share: a contest made through the API (an activity open to joining,
// one series, one problem whose version has a real ICPC package, the assignment) and participants
// enrolled in it, all with the built SDK (packages/sdk/dist).
import { createHash } from 'node:crypto';
import { JudgeClient, ops } from '../packages/sdk/dist/index.js';
import { ADMIN_PASSWORD, pool, serverRequire } from './lib.mjs';

export const PROBLEM_TYPE = 'standard-io@1';
export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A small legacy ICPC package, zipped with the server's own yazl. */
export async function packageZip() {
  const { ZipFile } = serverRequire('yazl');
  const zip = new ZipFile();
  const entries = {
    'problem.yaml': 'name: Sum of two\nvalidation: default\nlimits:\n  memory: 512\n',
    '.timelimit': '1\n',
    'data/sample/1.in': '1 2\n',
    'data/sample/1.ans': '3\n',
    'data/secret/1.in': '5 5\n',
    'data/secret/1.ans': '10\n',
    'submissions/accepted/sum.py': 'print(sum(map(int, input().split())))\n',
  };
  for (const [name, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const chunks = [];
  for await (const c of zip.outputStream) chunks.push(c);
  return Buffer.concat(chunks);
}

/**
 * The admin client, and a contest `slug` with its assignment `sum`; `activity` extra fields go
 * into the activity (e.g. maxSubmissionsPerProblem).
 */
export async function makeContest(base, slug = 'bench') {
  const admin = new JudgeClient({ baseUrl: base });
  await admin.login('admin', ADMIN_PASSWORD);
  const activity = await admin.call(ops.createActivity, {
    body: { slug, name: 'Judging bench', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open' },
  });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: slug }, body: { slug: 'round', name: 'Round' } });
  const problem = await admin.call(ops.createProblem, { body: { slug: `${slug}-sum`, name: 'Sum of two', type: PROBLEM_TYPE } });
  const pkg = await admin.upload('package.zip', await packageZip(), 'application/zip');
  const version = await admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: pkg.id } } });
  const after = await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
  const assignmentId = after.problems.find((p) => p.slug === 'sum').id;
  return { admin, activity, seriesId: series.id, assignmentId, versionId: version.id, problemSlug: 'sum' };
}

/** `n` accounts, each signed in with a bearer token and enrolled in the contest. */
export async function participants(base, contest, n, prefix = 'bench-user') {
  return pool(
    Array.from({ length: n }, (_, i) => i),
    4,
    async (i) => {
      const issued = await contest.admin.call(ops.createUser, { body: { username: `${prefix}-${i}` } });
      const client = new JudgeClient({ baseUrl: base });
      await client.login(issued.username, issued.password);
      await client.call(ops.enrol, { params: { idOrSlug: contest.activity.slug }, body: {} });
      return { id: issued.userId, client };
    },
  );
}

/** Sorted-array percentile. */
export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
