import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import { RunnerClient, generateRunnerKey, type JudgeClient } from '@judge/sdk';
import { Agent, defaultLanguagesPath, loadLanguages, type LanguageTable } from '@judge/runner';
import { refusedWith } from '../packages/server/test/expect.js';
import { TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';
import { legacyPackage, zipOf } from '../packages/server/test/zips.js';

/**
 * The runner's languages reach the server the way judge-runner sends them: the SDK's RunnerClient
 * passes them at authentication, and the Agent tells its client the languages of its table that
 * are installed here. The table is the default one plus `ghost`, whose compiler exists nowhere, so
 * that a submission in it is refused (422 `submission.language`) once the runner has reported.
 */

const GHOST = {
  name: 'Ghost',
  extensions: ['ghost'],
  sourceFile: 'main.ghost',
  binary: 'main',
  compiled: true,
  requires: ['/nonexistent/judge-test/ghostc'],
  compile: { argv: ['/nonexistent/judge-test/ghostc', '-o', '{binary}', '{source}'] },
  run: { argv: ['/box/{binary}'] },
};

let work: string;
let tableFile: string;
let table: LanguageTable;
let j: TestJudge;
let admin: JudgeClient;
let pupil: JudgeClient;
let act: Activity;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'judge-submit-languages-'));
  const t = JSON.parse(readFileSync(defaultLanguagesPath(), 'utf8')) as { languages: Record<string, unknown> };
  t.languages.ghost = GHOST;
  tableFile = join(work, 'languages.json');
  writeFileSync(tableFile, JSON.stringify(t));
  table = loadLanguages(tableFile);
  j = await TestJudge.start({ config: { languages: tableFile } });
  admin = await j.admin();
  act = await admin.call(ops.createActivity, { body: { slug: 'langs', name: 'Languages', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
  const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(legacyPackage()));
  await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
  pupil = await j.signIn(await j.user('pupil'));
  await pupil.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
}, 60_000);

afterAll(async () => {
  await j?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const submit = (fileName: string) => pupil.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm('x\n', fileName) });
const submissions = () => j.count('submissions');
const allowed = async () => (await pupil.call(ops.getActivityProblem, { params: { idOrSlug: act.slug, problemSlug: 'sum' } })).allowedLanguages.map((l) => l.id);

/** A registered and approved runner driven by the SDK's client. */
async function approvedClient(languages?: string[]): Promise<RunnerClient> {
  const client = new RunnerClient({ baseUrl: j.url, key: generateRunnerKey(), userAgent: 'submit-languages-test', ...(languages ? { languages } : {}) });
  const reg = await client.register({ name: 'lab', problemTypes: ['standard-io@1'], version: 'test' });
  await admin.call(ops.approveRunner, { params: { id: reg.runnerId } });
  return client;
}

describe('the languages a runner reports decide what is taken at submit', () => {
  it('an Agent reports the installed languages of its table; a submission in one missing there is refused and nothing stored', async () => {
    const installed = table.present().map((l) => l.id);
    expect(installed).not.toContain('ghost');
    const client = await approvedClient();
    // a token from before the agent: the runner reported nothing yet, so nothing is refused for it
    await client.authenticate();
    expect((await admin.call(ops.getRunner, { params: { id: client.runnerId! } })).languages).toBeUndefined();
    expect(await allowed()).toContain('ghost');
    expect((await submit('early.ghost')).state).toBe('queued');

    // the agent is only made, not started: what it tells its client is what `judge-runner start` reports
    new Agent({ client, languages: table, sandbox: undefined as never, cache: undefined as never, slots: 1, runnerVersion: 'test', log: () => {} });
    await client.heartbeat(); // the next call authenticates again, with the languages
    expect((await admin.call(ops.getRunner, { params: { id: client.runnerId! } })).languages).toEqual([...installed].sort());
    expect(await allowed()).toEqual(installed);

    const before = await submissions();
    const e = await refusedWith(submit('late.ghost'), 422, 'submission.language');
    expect(e.errors?.language).toEqual([expect.stringMatching(/^No runner that judges this problem can judge Ghost \(ghost\)$/)]);
    expect(e.errors?.allowed).toEqual(installed);
    expect(await submissions()).toBe(before);
    expect(readdirSync(join(j.dataDir, 'files', '.incoming'))).toEqual([]);
    if (installed.includes('cpp')) expect((await submit('a.cpp')).state).toBe('queued');
  });

  it('a RunnerClient given languages sends them with its first authentication', async () => {
    const client = await approvedClient(['c']);
    await client.authenticate();
    expect((await admin.call(ops.getRunner, { params: { id: client.runnerId! } })).languages).toEqual(['c']);
    // with the agent's runner above, what either can judge is allowed
    expect(await allowed()).toEqual(table.present().map((l) => l.id));
  });
});
