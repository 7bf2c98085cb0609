import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';
import { zipOf } from '../packages/server/test/zips.js';
import { CTL, judgectlAs, type CtlSession } from './judgectl-child.js';
import { SUM_PACKAGE } from './one-problem-contest.js';

// A term in a real school, each judgectl call a child process against a
// real server: the school office's class list from German Excel, the same list for the next
// contest, the standings for a spreadsheet, times in the activity's zone, and judgectl's sessions.

/** What German Excel saves as "CSV UTF-8": a byte-order mark, semicolons, CRLF, an empty row as ;;; */
const OFFICE_LIST = '\uFEFFusername;firstName;lastName;email\r\nlmüller;Lisa;Müller;lisa@example.com\r\nsgroß;Sven;Groß;\r\nann;Ann;Lee;\r\n;;;\r\n';

/**
 * judgectl on a terminal (util-linux `script` gives it one), answering `answer` once its output
 * shows `question`; answers its exit status and what the terminal showed.
 */
function onTerminal(args: string[], env: NodeJS.ProcessEnv, question: RegExp, answer: string): Promise<{ status: number; shown: string }> {
  const child = spawn('script', ['-qec', [CTL, ...args].join(' '), '/dev/null'], { env });
  let shown = '';
  let answered = false;
  child.stdout.on('data', (b: Buffer) => {
    shown += b.toString('utf8');
    if (!answered && question.test(shown)) {
      answered = true;
      child.stdin.write(answer);
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? 1, shown })));
}

describe('judgectl through a school term', { timeout: 180_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let ctl: CtlSession;
  let work: string;
  const members = async (slug: string) => (await admin.call(ops.listGrants, { query: { activityId: (await admin.call(ops.getManagedActivity, { params: { idOrSlug: slug } })).id } })).items.map((g) => g.userName).sort();
  const contest = (slug: string) => admin.call(ops.createActivity, { body: { slug, name: slug, type: 'contest@1', rankingType: 'icpc', timeZone: 'Asia/Kolkata' } });

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    work = mkdtempSync(join(tmpdir(), 'judgectl-term-'));
    await contest('week1');
    await contest('week2');
  });
  afterAll(async () => {
    ctl?.close();
    await j?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("imports the office's German Excel list: usernames made of lmüller and sgroß, shown and written back", async () => {
    writeFileSync(join(work, 'class.csv'), OFFICE_LIST);
    const r = await ctl.run('users', 'import', join(work, 'class.csv'), '--activity', 'week1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/lmueller\s*│\s*lmüller\s*│/);
    expect(r.stdout).toMatch(/sgross\s*│\s*sgroß\s*│/);
    expect(r.stdout).toMatch(/Created 3 accounts and enrolled them in week1/);
    expect(r.stdout).toMatch(/Names outside the username alphabet were made into usernames/);
    // the credentials come back as the office wrote the list: semicolons, and a mark Excel reads umlauts by
    const written = readFileSync(join(work, 'class-credentials.csv'), 'utf8');
    expect(written.startsWith('\uFEFF')).toBe(true);
    const [head, lisa] = written.slice(1).split('\r\n');
    expect(head).toBe('username;password;firstName;lastName;email;userId;usernameInFile');
    const [username, password, first, last, , , inFile] = lisa!.split(';');
    expect([username, first, last, inFile]).toEqual(['lmueller', 'Lisa', 'Müller', 'lmüller']);
    const pupil = await j.signIn({ username: username!, password: password! });
    expect((await pupil.call(ops.getActivity, { params: { idOrSlug: 'week1' } })).enrolled).toBe(true);
  });

  it('reports the accounts of the same list for the next contest before anything else, and enrols them when told', async () => {
    const file = join(work, 'class.csv');
    const refused = await ctl.run('users', 'import', file, '--activity', 'week2');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/3 accounts of \S+class\.csv exist already:/);
    expect(refused.stderr).toMatch(/2\s*│\s*lmueller \(lmüller in the file\)\s*│\s*Lisa Müller\s*│\s*no/);
    expect(refused.stderr).toMatch(/give --enrol-existing to enrol them as participants, or --skip-existing to leave them out; nothing was created/);
    expect(await members('week2')).toEqual(['admin']);

    const r = await ctl.ok('users', 'import', file, '--activity', 'week2', '--enrol-existing');
    expect(r).toMatchObject({ activity: 'week2', credentialsFile: null, created: [], alreadyMembers: [], leftOut: [] });
    expect(r.enrolledExisting.map((u: { username: string }) => u.username)).toEqual(['lmueller', 'sgross', 'ann']);
    expect(await members('week2')).toEqual(['Ann Lee', 'Lisa Müller', 'Sven Groß', 'admin']);
  });

  it('asks on a terminal whether to enrol the existing accounts', async () => {
    await contest('week3');
    const r = await onTerminal(['users', 'import', join(work, 'class.csv'), '--activity', 'week3'], ctl.env, /Enrol the 3 existing accounts in week3/, 'y\r');
    expect(r.status, r.shown).toBe(0);
    expect(r.shown).toMatch(/Enrolled 3 existing accounts in week3; they keep their passwords\./);
    expect(await members('week3')).toEqual(['Ann Lee', 'Lisa Müller', 'Sven Groß', 'admin']);
  });

  it('creates only the new accounts with --skip-existing, and refuses a line that names somebody else', async () => {
    const file = join(work, 'more.csv');
    writeFileSync(file, 'username,firstName,lastName\nlmüller,Lisa,Müller\nkai,Kai,Berg\n');
    const r = await ctl.ok('users', 'import', file, '--activity', 'week2', '--skip-existing');
    expect(r.created.map((u: { username: string }) => u.username)).toEqual(['kai']);
    expect(r.alreadyMembers.map((u: { username: string }) => u.username)).toEqual(['lmueller']);
    expect(existsSync(join(work, 'more-credentials.csv'))).toBe(true);

    const other = join(work, 'other.csv');
    writeFileSync(other, 'username,firstName,lastName\nlmueller,Lars,Mueller\nneu,Neu,Ling\n');
    const said = await ctl.refused('users', 'import', other, '--activity', 'week2');
    expect(said).toMatch(/line 2: the username lmueller is taken by Lisa Müller, not Lars Mueller: give this line another username/);
    expect(await admin.call(ops.lookupUsers, { query: { q: 'neu' } })).toEqual([]);
  });

  it('exports standings a spreadsheet reads: a byte-order mark, a username column, no formula', async () => {
    const u = await admin.call(ops.createUser, { body: { username: 'trick', firstName: '=1+2' } });
    await j.grant(u.userId, 'participant', (await admin.call(ops.getManagedActivity, { params: { idOrSlug: 'week1' } })).id);
    const r = await ctl.run('ranking', 'week1', '--csv', '--separator', 'semicolon');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.startsWith('\uFEFFrank;username;name;userId;solved;penalty\r\n')).toBe(true);
    expect(r.stdout).toMatch(/\r\n\d+;lmueller;Lisa Müller;[0-9a-f-]{36};0;0\r\n/);
    expect(r.stdout).toMatch(/\r\n\d+;trick;'=1\+2;/);
  });

  it("lists submissions and questions in the activity's time zone with its offset; --json keeps UTC", async () => {
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: 'week1' }, body: { slug: 'main', name: 'Main' } });
    const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(SUM_PACKAGE), 'sum.zip');
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    const [, lisa] = readFileSync(join(work, 'class-credentials.csv'), 'utf8').split('\r\n');
    const [username, password] = lisa!.split(';');
    const pupil = await j.signIn({ username: username!, password: password! });
    await pupil.call(ops.submit, { params: { idOrSlug: 'week1', problemSlug: 'sum' }, form: codeForm('print(sum(map(int, input().split())))\n', 'a.py') });
    await pupil.call(ops.askQuestion, { params: { idOrSlug: 'week1' }, body: { topic: 'Input', body: 'Can the numbers be negative?' } });

    const listed = await ctl.run('submissions', 'list', '--activity', 'week1');
    expect(listed.stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+05:30\s*│\s*Lisa Müller/);
    expect((await ctl.ok('submissions', 'list', '--activity', 'week1')).items[0].submittedAt).toMatch(/Z$/);
    const asked = await ctl.run('questions', 'list', '--activity', 'week1');
    expect(asked.stdout).toMatch(/\d\d:\d\d:\d\d\+05:30\s*│\s*Lisa Müller/);
  });

  it('names judgectl in the sessions of the account it signed in to', async () => {
    const sessions = await admin.call(ops.listAccountSessions);
    // the test's own SDK client is the other session; judgectl's once showed as "node" too
    expect(sessions.map((s) => s.userAgent)).toContainEqual(expect.stringMatching(/^judgectl\/\d+\.\d+\.\d+$/));
  });
});
