import { ops, type Ranking } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { readFileSync } from 'node:fs';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipOf } from '../../packages/server/test/zips.js';
import { MINUTE, SAMPLE_ANS, SAMPLE_IN, serverNow } from './activity-fixtures.js';
import { DESKTOP, openBrowser, pageProblems, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';
import { markWindow, signInThroughPage, stillSameWindow } from './standings-world.js';
import { pasteCode, WRONG_PY } from './submit-world.js';

const RIGHT_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
/** Sleeps past the problem's time limit: it stays running until the teacher cancels it. */
const SLEEPY_PY = 'import time\ntime.sleep(25)\n';

/** An ICPC package's files under `folder/`, as a contest archive holds them. */
function packageFiles(folder: string, manifest: string): Record<string, string> {
  return {
    [`${folder}/problem.yaml`]: manifest,
    [`${folder}/data/sample/1.in`]: SAMPLE_IN,
    [`${folder}/data/sample/1.ans`]: SAMPLE_ANS,
    [`${folder}/data/secret/1.in`]: '5 5\n',
    [`${folder}/data/secret/1.ans`]: '10\n',
  };
}

/** How long a state is waited for on a loaded machine before the flow fails. */
const WAIT = { timeout: 30_000 };

const CONTEST = 'autumn';
const STAFF = `/staff/a/${CONTEST}`;
/** The school office's list as German Excel saves it: a byte-order mark, semicolons, CRLF, accented names. */
const CLASS_LIST = '\uFEFFusername;firstName;lastName\r\nlmüller;Lisa;Müller\r\nzoé.dubois;Zoé;Dubois\r\nsgroß;Sven;Groß\r\n';

/**
 * What a teacher holds: a system-wide role with what building a contest and its class takes.
 * activity:create (the creator then manages the activity, which gives every staff permission
 * there, grants and the printout queue included), problem:create/read:own/update (the packages
 * become problems of the library with a version), user:create (the class's accounts),
 * user:read:all (the class list is sorted against existing accounts, a colleague is found by
 * name), and trial:run (a package's trial on its problem page runs outside any activity).
 * Nothing else: no administration of the instance, runners or roles.
 */
const TEACHER_RIGHTS = ['activity:create', 'problem:create', 'problem:read:own', 'problem:update', 'user:create', 'user:read:all', 'trial:run'];

/** A wall-clock time in Berlin as a datetime-local field takes it. */
function berlinInput(ms: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(ms));
  const p = (type: string) => parts.find((x) => x.type === type)!.value;
  return `${p('year')}-${p('month')}-${p('day')}T${p('hour')}:${p('minute')}`;
}

/**
 * The staff pages' acceptance in one flow (the heart of docs/running-a-contest-in-the-browser.md), on a fresh `judge up` judging with its own runner, done
 * only in browsers: a teacher builds a contest from a zip of two packages, moves its end, freezes
 * it, makes a class from a semicolon CSV with slips and a co-teacher; a student signed in with a
 * slip's password submits; the teacher follows the stream live and works the submissions; the
 * co-teacher resolves the student's printout; the standings show the freeze as participants see
 * it and download as CSV; the student is refused every staff address and sent no staff data.
 */
describe('a contest run from the browser only (the staff pages accepted)', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  const teacher = { username: 'rivera', password: '' };
  const coTeacher = { username: 'kowalski', password: '' };
  const student = { username: 'zoe.dubois', password: '' };
  let teacherPage: Page;
  let studentPage: Page;
  let wrongId = '';
  let rightId = '';

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 64800 });
    chromium = await openBrowser();
    admin = await judge.admin();
    // the administrator's part, as on an installation's first day: a Teacher role and two colleagues
    const role = await admin.call(ops.createRole, { body: { name: 'Teacher', description: 'Builds contests and classes', permissions: TEACHER_RIGHTS } });
    for (const who of [teacher, coTeacher]) {
      const issued = await admin.call(ops.createUser, { body: { username: who.username } });
      who.password = issued.password;
      if (who === teacher) await admin.call(ops.createGrant, { body: { userId: issued.userId, roleId: role.id } });
    }
    teacherPage = await chromium.newPage(DESKTOP, { acceptDownloads: true });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; 401/403/404 are answers the pages expect
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403, 404] }).filter((p) => !/blocked eval/.test(p));
  const sidebar = (page: Page, name: string) => page.locator('.staff-sidebar').getByRole('link', { name, exact: true });
  const streamRow = (page: Page, id: string) => page.locator(`tr[data-submission="${id}"]`);

  it('the teacher makes a contest of a zip of two packages, moves its end, freezes it and opens the printouts', async () => {
    const page = teacherPage;
    await signInThroughPage(page, judge.url, teacher, '/staff/new?mode=import');
    await page.waitForURL((u) => u.pathname === '/staff/new');
    const archive = await zipOf({
      ...packageFiles('autumn/sum', 'name: Sum\nlimits:\n  time_limit: 2\n'),
      // a long time limit: a sleeping program stays running long enough to be cancelled by hand
      ...packageFiles('autumn/wait', 'name: Wait and sum\nlimits:\n  time_limit: 10\n'),
    });
    await page.getByLabel('Zip of problem packages', { exact: true }).setInputFiles({ name: 'autumn.zip', mimeType: 'application/zip', buffer: archive });
    await page.locator('table.import-found').waitFor();
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe(CONTEST);
    await page.getByLabel('Name', { exact: true }).fill('Autumn cup');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Duration in minutes').fill('180');
    await page.getByRole('button', { name: 'Create the contest with 2 problems' }).click();
    await page.getByText('Autumn cup is ready with its 2 problems.').waitFor({ timeout: 60_000 });

    // the series' end is one field and its freeze another; the freeze starts now, the end moves to two hours from now
    await page.getByRole('link', { name: 'Open the series of Autumn cup' }).click();
    await page.waitForURL(`**${STAFF}/series`);
    const now = await serverNow(admin);
    const end = now + 120 * MINUTE;
    const freeze = Math.floor(now / MINUTE) * MINUTE - MINUTE;
    const card = page.locator('[data-series="main"]');
    await card.getByText('Change the name and times of Autumn cup').click();
    await card.getByLabel('End', { exact: true }).fill(berlinInput(end));
    await card.getByLabel('Freeze', { exact: true }).fill(berlinInput(freeze));
    await card.getByRole('button', { name: 'Save the times' }).click();
    await card.getByText('Saved Autumn cup.').waitFor();
    const [main] = await admin.call(ops.listManagedSeries, { params: { idOrSlug: CONTEST } });
    expect(main!.endDate).toBe(new Date(Math.floor(end / MINUTE) * MINUTE).toISOString());
    expect(main!.rankingFreezeAt).toBe(new Date(freeze).toISOString());
    expect(main!.problems.map((p) => [p.slug, p.problemName])).toEqual([
      ['sum', 'Sum'],
      ['wait', 'Wait and sum'],
    ]);

    // printouts are off in a new activity: the teacher switches them on
    await sidebar(page, 'Settings').click();
    const settings = page.getByRole('form', { name: 'Settings of the activity' });
    await settings.getByRole('checkbox', { name: 'Printouts' }).check();
    await settings.getByRole('button', { name: 'Save the settings' }).click();
    await settings.getByText('Saved.').waitFor();
    expect((await admin.call(ops.getManagedActivity, { params: { idOrSlug: CONTEST } })).modules.printouts).toBe(true);

    // each package can be checked on its problem page in the library: the teacher's role lets her run its trial
    await page.locator('.staff-tabs').getByRole('link', { name: 'Problems', exact: true }).click();
    await page.getByRole('link', { name: 'Wait and sum' }).click();
    await page.getByRole('button', { name: 'Run the trial' }).waitFor();
    expect(scriptProblems(page)).toEqual([]);
  }, 180_000);

  it('the teacher makes the class from a semicolon CSV, opens their slips, and makes a colleague co-teacher', async () => {
    const page = teacherPage;
    // from the staff home, the contest's dashboard, then its People page
    await page.locator('.staff-tabs').getByRole('link', { name: 'Overview', exact: true }).click();
    await page.getByRole('link', { name: 'Autumn cup', exact: true }).click();
    await page.waitForURL(`**${STAFF}`);
    await sidebar(page, 'People').click();
    await page.waitForURL(`**${STAFF}/people`);
    await page.getByLabel('Class list file').setInputFiles({ name: 'class-7b.csv', mimeType: 'text/csv', buffer: Buffer.from(CLASS_LIST, 'utf8') });
    const plan = page.locator('[data-plan]');
    await plan.waitFor();
    expect(await plan.locator('[data-fresh]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-fresh')))).toEqual(['lmueller', 'zoe.dubois', 'sgross']);
    await page.getByRole('button', { name: 'Create 3 accounts and enrol them' }).click();
    await page.getByRole('heading', { name: 'The passwords of 3 new accounts' }).waitFor();

    await page.getByRole('link', { name: 'Print slips' }).click();
    await page.waitForURL(`**${STAFF}/slips`);
    await expect.poll(() => page.locator('[data-slip]').count(), WAIT).toBe(3);
    const slip = page.locator('[data-slip]').filter({ has: page.locator('[data-field="username"]', { hasText: student.username }) });
    student.password = (await slip.locator('[data-field="password"]').textContent())!;
    expect(student.password.length).toBeGreaterThan(8);
    expect(await slip.textContent()).toContain(judge.url);

    await sidebar(page, 'People').click();
    const search = page.getByLabel('Username, name or email');
    await search.fill(coTeacher.username);
    await search.press('Enter');
    await page.locator(`[data-candidate="${coTeacher.username}"]`).getByRole('button', { name: `Enrol: ${coTeacher.username}` }).click();
    const row = page.locator('[data-member]', { hasText: coTeacher.username });
    await row.getByRole('button', { name: `Make co-teacher: ${coTeacher.username}` }).click();
    await page.getByText(`${coTeacher.username} is now a co-teacher`).waitFor();
    await expect.poll(() => row.getAttribute('data-role'), WAIT).toBe('manager');
    expect(scriptProblems(page)).toEqual([]);
  }, 180_000);

  it('the student submits a wrong and a right solution, and the teacher sees both arrive in the stream without reloading', async () => {
    await teacherPage.goto(`${judge.url}${STAFF}/submissions`);
    await teacherPage.getByText('No submissions match.').waitFor();
    await markWindow(teacherPage);

    studentPage = await chromium.newPage();
    await signInThroughPage(studentPage, judge.url, student, `/a/${CONTEST}/p/sum`);
    await studentPage.locator('.submit-form .cm-content').waitFor();
    await studentPage.locator('.language-select').selectOption('python3');
    const mine = studentPage.locator('.problem-submissions tbody tr');
    for (const [i, code] of [WRONG_PY, RIGHT_PY].entries()) {
      await pasteCode(studentPage, code);
      await studentPage.locator('.submit-form button[type=submit]').click();
      await expect.poll(() => mine.count(), WAIT).toBe(i + 1);
    }

    const stream = teacherPage.locator('tbody tr[data-submission]');
    await teacherPage.locator('tr[data-submission][data-verdict="WA"]').waitFor({ timeout: 90_000 });
    await teacherPage.locator('tr[data-submission][data-verdict="AC"]').waitFor({ timeout: 90_000 });
    expect(await stillSameWindow(teacherPage)).toBe(true);
    expect(await stream.count()).toBe(2);
    wrongId = (await teacherPage.locator('tr[data-verdict="WA"]').getAttribute('data-submission'))!;
    rightId = (await teacherPage.locator('tr[data-verdict="AC"]').getAttribute('data-submission'))!;
    expect(await streamRow(teacherPage, wrongId).textContent()).toContain('Zoé Dubois');
  }, 180_000);

  it("the teacher reads the wrong one's source and tests, the diff the right one makes to it, and rejudges it", async () => {
    const page = teacherPage;
    await streamRow(page, wrongId).getByRole('link', { name: /Open the submission of/ }).click();
    await page.waitForURL(`**${STAFF}/submissions/${wrongId}`);
    await page.locator('.source-file .cm-content').waitFor();
    expect(await page.locator('.source-file .cm-content').textContent()).toContain('print(a + b + 1)');
    const tests = page.locator('.staff-tests');
    await tests.waitFor();
    expect(await tests.locator('tbody tr[data-verdict="WA"]').count()).toBeGreaterThan(0);
    // the wrong one came first: its diff is the one the right one makes against it
    await page.getByText('This is the first submission of this author to this problem.').waitFor();
    await page.goto(`${judge.url}${STAFF}/submissions/${rightId}`);
    const diff = page.locator('.file-diff pre.diff');
    await diff.waitFor();
    expect(await diff.locator('.diff-removed').allTextContents()).toEqual(['− print(a + b + 1)\n']);
    expect(await diff.locator('.diff-added').allTextContents()).toEqual(['+ print(a + b)\n']);

    await page.goto(`${judge.url}${STAFF}/submissions/${wrongId}`);
    await page.getByRole('button', { name: 'Rejudge this submission' }).click();
    await page.getByText('Queued again as attempt 2.').waitFor();
    await expect.poll(() => page.locator('tr[data-attempt="2"]').getAttribute('data-state'), { timeout: 90_000 }).toBe('completed');
    expect(await page.locator('tr[data-attempt="2"]').textContent()).toContain('Wrong answer');
    expect(scriptProblems(page)).toEqual([]);
  }, 180_000);

  it('the teacher cancels a running judging and excludes the wrong one with a reason', async () => {
    const page = teacherPage;
    await page.goto(`${judge.url}${STAFF}/submissions`);
    await streamRow(page, rightId).waitFor();
    await studentPage.goto(`${judge.url}/a/${CONTEST}/p/wait`);
    await studentPage.locator('.submit-form .cm-content').waitFor();
    await studentPage.locator('.language-select').selectOption('python3');
    await pasteCode(studentPage, SLEEPY_PY);
    await studentPage.locator('.submit-form button[type=submit]').click();

    // it arrives in the open stream by itself; its page shows the attempt running
    await expect.poll(() => page.locator('tbody tr[data-submission]').count(), { timeout: 30_000 }).toBe(3);
    const sleepyId = (await page.locator('tbody tr[data-submission]').first().getAttribute('data-submission'))!;
    await streamRow(page, sleepyId).getByRole('link', { name: /Open the submission of/ }).click();
    const attempt = page.locator('tr[data-attempt="1"]');
    await expect.poll(() => attempt.getAttribute('data-state'), { timeout: 90_000 }).toBe('running');
    await attempt.getByRole('button', { name: 'Cancel the judging of attempt 1' }).click();
    await expect.poll(() => attempt.getAttribute('data-state'), { timeout: 30_000 }).toBe('cancelled');
    expect((await admin.call(ops.getSubmission, { params: { id: sleepyId } })).state).toBe('cancelled');

    await page.goto(`${judge.url}${STAFF}/submissions/${wrongId}`);
    await page.getByLabel('Reason for excluding it').fill('sent by mistake, agreed with her');
    await page.getByRole('button', { name: 'Exclude from the ranking' }).click();
    await page.getByText('Reason: sent by mistake, agreed with her').waitFor();
    expect(await admin.call(ops.getSubmission, { params: { id: wrongId } })).toMatchObject({ excluded: true, exclusionReason: 'sent by mistake, agreed with her' });
    expect(scriptProblems(page)).toEqual([]);
  }, 180_000);

  it('the co-teacher resolves the printout the student asked for', async () => {
    await studentPage.goto(`${judge.url}/a/${CONTEST}/submissions/${rightId}`);
    await studentPage.getByRole('button', { name: 'Print this submission' }).click();
    await studentPage.getByText('The printout of this submission is queued.').waitFor();

    const co = await chromium.newPage();
    await signInThroughPage(co, judge.url, coTeacher, '/staff/printouts');
    const item = co.locator('[data-printout]');
    await expect.poll(() => item.count(), { timeout: 30_000 }).toBe(1);
    await item.getByRole('button', { name: 'Claim' }).click();
    await expect.poll(() => item.locator('.badge').textContent(), WAIT).toBe('Claimed by you');
    await item.getByRole('button', { name: 'Resolve' }).click();
    await item.waitFor({ state: 'detached' });
    const activityId = (await admin.call(ops.getManagedActivity, { params: { idOrSlug: CONTEST } })).id;
    expect((await admin.call(ops.listPrintouts, { query: { activityId } })).items.map((p) => p.state)).toEqual(['resolved']);
    expect(scriptProblems(co)).toEqual([]);
    await co.context().close();
  }, 120_000);

  it('the standings as participants see them hide what the freeze hides, and download as CSV with the right characters', async () => {
    const page = teacherPage;
    const [zoe] = await admin.call(ops.lookupUsers, { query: { q: student.username } });
    await sidebar(page, 'Standings').click();
    const row = page.locator(`tr[data-user="${zoe!.id}"]`);
    const sumCell = row.locator('td.cell').first();
    await expect.poll(() => sumCell.getAttribute('class'), WAIT).toContain('ok');

    const answered = page.waitForResponse((r) => r.url().includes('/ranking') && r.url().includes('view=public'));
    // the view lives in the address: the radio shows checked once the navigation it starts is done
    await page.getByRole('radio', { name: 'As participants see it' }).click();
    await page.waitForURL(/[?&]view=public/);
    const publicView = (await (await answered).json()) as Ranking;
    await page.locator('.frozen-banner').waitFor();
    const theirs = publicView.rows.find((r) => r.userId === zoe!.id)!;
    expect(theirs).toMatchObject({ solved: 0, penalty: 0 });
    expect(theirs.cells[0]).toMatchObject({ solved: false, frozen: 1 });
    await expect.poll(() => sumCell.getAttribute('class'), WAIT).toContain('frozen');
    expect(await sumCell.getAttribute('class')).not.toContain('ok');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the standings (CSV)' }).click()]);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toMatch(/^rank,username,name,userId,solved,penalty,/);
    // the full standings, through the freeze: she solved Sum, and her name keeps its accent
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^1,zoe\\.dubois,Zoé Dubois,${zoe!.id},1,`)));
    expect(scriptProblems(page)).toEqual([]);
  }, 120_000);

  it('the student is refused every staff address, and no staff data reaches her browser', async () => {
    const page = studentPage;
    const answers: Response[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) answers.push(r);
    });
    for (const path of [STAFF, `${STAFF}/submissions/${wrongId}`, `${STAFF}/people`, `${STAFF}/standings?view=public`, '/staff/printouts', '/staff']) {
      await page.goto(`${judge.url}${path}`);
      await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    }
    await page.waitForLoadState('networkidle');
    expect(answers.length).toBeGreaterThan(0);
    const staffAnswers = answers.filter((r) => r.ok() && /^\/api\/v1\/(manager\/|submissions|grants|users|roles|runners|problems|questions|trials|printouts(?!\/activities)|activities\/[^/]+\/ranking)/.test(new URL(r.url()).pathname));
    expect(staffAnswers.map((r) => r.url())).toEqual([]);
    const bodies = (await Promise.all(answers.map((r) => r.text().catch(() => '')))).join('\n');
    // nobody else of the class or the staff, and not the exclusion's reason
    for (const other of ['lmueller', 'Lisa', 'sgross', coTeacher.username, teacher.username, 'agreed with her']) expect(bodies).not.toContain(other);
    expect(scriptProblems(page)).toEqual([]);
  }, 120_000);
});
