import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type Printout, type Question } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { until } from '../packages/server/test/support/wait.js';

// The contest-day commands with the built launcher (`pnpm build` first), each a child process as
// typed in a terminal; the participant asks and prints with the SDK.
const CTL = fileURLToPath(new URL('../bin/judgectl', import.meta.url));

// each judgectl call is a Node process of its own: several in one test outlast the default timeout on a loaded machine
describe('judgectl on contest day: questions, announcements, printouts', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let alice: JudgeClient;
  let act: Activity;
  let home: string;
  let pw: string;
  const env = () => ({ ...process.env, JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' });
  const ctl = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(CTL, args, { encoding: 'utf8', env: env() }, (err, stdout, stderr) => resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
      child.stdin?.end();
    });
  const json = async <T>(...args: string[]): Promise<T> => {
    const r = await ctl(...args, '--json');
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as T;
  };
  const ask = (topic: string) => alice.call(ops.askQuestion, { params: { idOrSlug: act.slug }, body: { topic, body: `${topic}?` } });

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    home = mkdtempSync(join(tmpdir(), 'judgectl-day-'));
    pw = join(home, 'pw');
    writeFileSync(pw, `${ADMIN_PASSWORD}\n`);
    act = await admin.call(ops.createActivity, { body: { slug: 'day', name: 'Contest day', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', modules: { printouts: true } } });
    await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
    const u = await j.user('alice');
    await j.grant(u.id, 'participant', act.id);
    alice = await j.signIn(u);
    expect((await ctl('login', '--server', j.url, '--username', 'admin', '--password-file', pw)).status).toBe(0);
  });
  afterAll(async () => {
    await j.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('questions list, with filters, as a table and as JSON', async () => {
    const q = await ask('Sorted input');
    await ask('Memory');
    const t = await ctl('questions', 'list');
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toContain('Sorted input');
    expect(t.stdout).toMatch(/2 questions/);
    const found = await json<Question[]>('questions', 'list', '--activity', 'day', '--search', 'sorted', '--unanswered');
    expect(found.map((x) => x.id)).toEqual([q.id]);
  });

  it('questions answer with text or a canned answer, publish, withdraw and delete', async () => {
    const q = await ask('Ties');
    const a = await json<Question>('questions', 'answer', q.id, 'Any order.');
    expect(a.answer?.body).toBe('Any order.');
    const canned = await json<Question>('questions', 'answer', q.id, '--canned', '3');
    expect(canned.answer?.body).toBe('Yes.');
    const bad = await ctl('questions', 'answer', q.id, '--canned', '9');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('there are 4 canned answers');
    const pub = await ctl('questions', 'publish', q.id);
    expect(pub.stdout).toContain('Published "Ties"');
    expect((await alice.call(ops.listOwnQuestions, { params: { idOrSlug: act.slug } })).items.find((x) => x.id === q.id)?.isPublished).toBe(true);
    expect((await json<Question>('questions', 'publish', q.id, '--withdraw')).isPublished).toBe(false);
    const del = await ctl('questions', 'delete', q.id);
    expect(del.stdout).toContain(`Deleted ${q.id}`);
    expect((await admin.call(ops.listQuestions, { query: { search: 'Ties' } })).total).toBe(0);
    const refused = await ctl('questions', 'delete', q.id);
    expect(refused.status).toBe(1);
  });

  it('questions canned lists the canned answers and replaces them; a participant may not', async () => {
    const listed = await ctl('questions', 'canned');
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('3. Yes.');
    const before = await json<{ answers: string[] }>('questions', 'canned');
    const set = await json<{ answers: string[] }>('questions', 'canned', 'See the statement.', 'Yes.', 'No.');
    expect(set.answers).toEqual(['See the statement.', 'Yes.', 'No.']);
    expect((await admin.call(ops.getCannedAnswers)).answers).toEqual(set.answers);
    await expect(alice.call(ops.setCannedAnswers, { body: { answers: ['Whatever.'] } })).rejects.toMatchObject({ status: 403 });
    expect((await admin.call(ops.getCannedAnswers)).answers).toEqual(set.answers);
    await admin.call(ops.setCannedAnswers, { body: { answers: before.answers } });
  });

  it('announce reaches the activity, about a series', async () => {
    const r = await ctl('announce', 'day', 'Problem C was fixed.', '--series', 'main', '--topic', 'Fix');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Announced to day: Fix');
    const seen = (await alice.call(ops.listOwnQuestions, { params: { idOrSlug: act.slug }, query: { kind: 'announcement' } })).items;
    expect(seen).toMatchObject([{ topic: 'Fix', body: 'Problem C was fixed.', seriesName: 'Main' }]);
    const unknown = await ctl('announce', 'day', 'About nothing.', '--problem', 'zz');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('activity day has no problem zz');
  });

  it('questions list --watch prints a question asked after it started, with a bell', async () => {
    const child = spawn(CTL, ['questions', 'list', '--activity', 'day', '--watch', '--password-file', pw], { env: env() });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    try {
      await until('the watch to start', () => err.includes('Watching'), 10_000);
      await ask('Asked while watching');
      await until('the new question to be printed', () => out.includes('Asked while watching'), 10_000);
      expect(out).toMatch(/\x07.*alice.*Asked while watching/);
    } finally {
      child.kill('SIGINT');
    }
    await new Promise((r) => child.once('close', r));
  });

  it('printouts list, claim, release, resolve, show and show --pdf', async () => {
    const p = await alice.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { fileName: 'a.py', source: 'print("hello")\n', title: 'Mine' } });
    const list = await ctl('printouts', 'list', '--state', 'queued');
    expect(list.stdout).toContain('Mine');
    expect(list.stdout).toMatch(/1 printout\b/);
    expect((await json<Printout>('printouts', 'claim', p.id)).state).toBe('claimed');
    expect((await ctl('printouts', 'release', p.id)).stdout).toContain('is queued');
    const show = await ctl('printouts', 'show', p.id);
    expect(show.stdout).toContain('print("hello")');
    expect(show.stdout).toContain('alice');
    const file = join(home, 'p.pdf');
    const saved = await ctl('printouts', 'show', p.id, '--pdf', file);
    expect(saved.stdout).toContain(`to ${file}`);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await json<Printout>('printouts', 'resolve', p.id, '--note', 'delivered')).state).toBe('resolved');
    const again = await ctl('printouts', 'resolve', p.id);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already resolved');
    expect(await json<Printout[]>('printouts', 'list', '--state', 'queued')).toEqual([]);
  });
});
