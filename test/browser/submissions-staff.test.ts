import { ops, type SubmissionSummary } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { markWindow, signInThroughPage, stillSameWindow } from './standings-world.js';
import { packagedProblem } from '../../packages/server/test/support/packaged-problem.js';
import { zipOf } from '../../packages/server/test/zips.js';
import { SUM_PACKAGE, submitWorld, WRONG_PY, type SubmitWorld } from './submit-world.js';

const RIGHT_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
/** Sleeps far past any test's wall time: it is running until someone cancels it. */
const SLEEPY_PY = 'import time\ntime.sleep(25)\n';
const STREAM = '/staff/a/contest/submissions';

/**
 * The staff's submissions in a real Chromium on a real `judge up` with its runner: a student's
 * wrong and right solutions arrive in the stream live; the teacher filters, opens the wrong one
 * (source, per-test table, attempts), reads the diff of the right one, rejudges one and the whole
 * problem, cancels a running judging, excludes one with a reason and counts it again; a
 * participant who opens a staff address is refused and is sent no staff data.
 */
describe('staff submissions in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let world: SubmitWorld;
  let student: JudgeClient;
  let wrong: SubmissionSummary;
  let right: SubmissionSummary;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 64000 });
    chromium = await openBrowser();
    world = await submitWorld(judge);
    // a second problem with a long time limit: a sleeping program stays running long enough to be cancelled by hand
    const admin = await judge.admin();
    const [series] = await admin.call(ops.listManagedSeries, { params: { idOrSlug: 'contest' } });
    const slowPackage = { ...SUM_PACKAGE, 'problem.yaml': 'name: Slow\nlimits:\n  time_limit: 10\n' };
    const { problem } = await packagedProblem(admin, { slug: 'slow', name: 'Slow', type: 'standard-io@1' }, await zipOf(slowPackage), 'slow.zip');
    await admin.call(ops.attachProblem, { params: { seriesId: series!.id }, body: { problemId: problem.id, slug: 'slow' } });
    const sam = await world.participant('sam');
    student = new JudgeClient({ baseUrl: judge.url });
    await student.login(sam.username, sam.password);
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; 401/403/404 are answers the app expects
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403, 404] }).filter((p) => !/blocked eval/.test(p));
  const submit = (code: string, fileName: string, problem = 'sum') => student.submit('contest', problem, [{ name: fileName, bytes: code }]);
  const row = (page: Page, id: string) => page.locator(`tr[data-submission="${id}"]`);

  async function teacherOn(path: string, viewport: Viewport = DESKTOP): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await page.waitForURL(`**${path}`);
    return page;
  }

  it('shows a wrong and a right solution arriving live, and narrows the stream by filters that live in the address', async () => {
    const page = await teacherOn(STREAM);
    await page.getByRole('heading', { name: 'Submissions', level: 1 }).waitFor();
    await page.getByText('No submissions match.').waitFor();
    // the sidebar of the activity links here
    expect(await page.locator('.staff-sidebar [data-section="submissions"]').getAttribute('aria-current')).toBe('page');
    await markWindow(page);

    wrong = await submit(WRONG_PY, 'wrong.py');
    await row(page, wrong.id).waitFor();
    right = await submit(RIGHT_PY, 'right.py');
    await page.locator(`tr[data-submission="${wrong.id}"][data-verdict="WA"]`).waitFor({ timeout: 60_000 });
    await page.locator(`tr[data-submission="${right.id}"][data-verdict="AC"]`).waitFor({ timeout: 60_000 });
    expect(await stillSameWindow(page)).toBe(true);
    // newest first: who, the problem by letter and name, the language by name, the result
    expect(await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-submission')))).toEqual([right.id, wrong.id]);
    const text = await row(page, wrong.id).textContent();
    for (const part of ['sam', 'A · Sum', 'Python 3 (CPython)', 'Wrong answer']) expect(text).toContain(part);
    expect(await row(page, wrong.id).locator('time').getAttribute('title')).toBeTruthy();
    await page.getByText('2 submissions').waitFor();
    await page.getByText('Times are in Europe/Berlin.').waitFor();
    await checkA11y(page, 'staff submission stream');
    await screenshot(page, 'staff-submissions-stream');

    // a filter narrows the list and is written into the address with the operation's own name
    await page.getByLabel('Verdict').selectOption('WA');
    await page.waitForURL(/[?&]verdict=WA/);
    await row(page, right.id).waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await row(page, right.id).waitFor();
    // the author's name narrows to them (userId)
    await row(page, wrong.id).getByRole('button', { name: 'sam' }).click();
    await page.waitForURL(/[?&]userId=/);
    await page.getByText('Only sam').waitFor();
    // an address made elsewhere (?state=…, ?verdict=…) opens the stream filtered
    await page.goto(`${judge.url}${STREAM}?verdict=AC`);
    await row(page, right.id).waitFor();
    expect(await row(page, wrong.id).count()).toBe(0);
    expect(await page.getByLabel('Verdict').inputValue()).toBe('AC');
    await page.goto(`${judge.url}${STREAM}?state=queued`);
    await page.getByText('No submissions match.').waitFor();
    // a time window in the activity's zone: everything so far is before a minute from now
    await page.goto(`${judge.url}${STREAM}?submittedFrom=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`);
    await page.getByText('No submissions match.').waitFor();
    expect(await page.getByLabel(/Submitted from/).inputValue()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('opens the wrong one by keyboard: whose it is, its source, tests and attempts; the right one shows the diff', async () => {
    const page = await teacherOn(STREAM);
    const open = row(page, wrong.id).getByRole('link', { name: /Open the submission of sam/ });
    await open.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${STREAM}/${wrong.id}`);
    await page.getByRole('heading', { name: 'Submission of sam to A · Sum', level: 1 }).waitFor();
    expect(await page.locator('[data-author]').textContent()).toBe('sam');
    expect(await page.locator('.submission-facts').textContent()).toContain('Python 3 (CPython)');
    // the source, highlighted
    await page.locator('.source-file .cm-content').waitFor();
    expect(await page.locator('.source-file .cm-content').textContent()).toContain('print(a + b + 1)');
    // the per-test table: the first failing test with its verdict and the checker's column
    const tests = page.locator('.staff-tests');
    await tests.waitFor();
    expect(await tests.locator('thead').textContent()).toContain("Checker's message");
    expect(await tests.locator('tbody tr[data-verdict="WA"]').count()).toBeGreaterThan(0);
    // each attempt with its runner
    expect(await page.locator('tr[data-attempt="1"]').textContent()).toContain('local');
    await page.getByText('This is the first submission of this author to this problem.').waitFor();
    await page.getByRole('group').or(page.locator('details.attempt-text')).first().waitFor();
    await checkA11y(page, 'staff submission page');
    await screenshot(page, 'staff-submission');

    await page.goto(`${judge.url}${STREAM}/${right.id}`);
    const diff = page.locator('.file-diff pre.diff');
    await diff.waitFor();
    expect(await diff.locator('.diff-removed').allTextContents()).toEqual(['− print(a + b + 1)\n']);
    expect(await diff.locator('.diff-added').allTextContents()).toEqual(['+ print(a + b)\n']);
    expect(await page.locator('.file-diff figcaption').textContent()).toContain('wrong.py → right.py');
    await checkA11y(page, 'staff submission page with a diff');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('cancels a running judging, rejudges one and the whole problem after saying the count', async () => {
    const sleepy = await submit(SLEEPY_PY, 'sleepy.py', 'slow');
    const page = await teacherOn(`${STREAM}/${sleepy.id}`);
    const attempt = page.locator('tr[data-attempt="1"]');
    await expect.poll(() => attempt.getAttribute('data-state'), { timeout: 60_000 }).toBe('running');
    await attempt.getByRole('button', { name: 'Cancel the judging of attempt 1' }).click();
    await expect.poll(() => attempt.getAttribute('data-state'), { timeout: 20_000 }).toBe('cancelled');
    expect((await student.call(ops.getOwnSubmission, { params: { idOrSlug: 'contest', id: sleepy.id } })).state).toBe('cancelled');

    await page.goto(`${judge.url}${STREAM}/${wrong.id}`);
    const rejudge = page.getByRole('button', { name: 'Rejudge this submission' });
    await rejudge.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Queued again as attempt 2.').waitFor();
    await expect.poll(() => page.locator('tr[data-attempt="2"]').getAttribute('data-state'), { timeout: 60_000 }).toBe('completed');
    expect(await page.locator('tr[data-attempt="2"]').textContent()).toContain('Wrong answer');

    await page.getByRole('button', { name: 'Rejudge every submission to A · Sum' }).click();
    await page.getByText('Judge all 2 submissions to A · Sum again? Each gets a new attempt.').waitFor();
    await page.getByText('judgectl submissions rejudge-assignment contest main sum').waitFor();
    await checkA11y(page, 'rejudge confirmation');
    await page.getByRole('button', { name: 'Yes, rejudge 2 submissions' }).click();
    await page.getByText('2 submissions queued again.').waitFor();
    await page.locator('tr[data-attempt="3"]').waitFor();
    const after = await judge.admin().then((a) => a.call(ops.getSubmission, { params: { id: right.id } }));
    expect(after.attempts).toBe(2);
    // the sleeping one, on another problem, is left alone
    expect((await judge.admin().then((a) => a.call(ops.getSubmission, { params: { id: sleepy.id } }))).attempts).toBe(1);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('excludes a submission with a reason, marks it in the stream, and counts it again', async () => {
    const page = await teacherOn(`${STREAM}/${right.id}`);
    await page.getByText('This submission counts in the ranking.').waitFor();
    await page.getByLabel('Reason for excluding it').fill('copied from a neighbour');
    await page.getByRole('button', { name: 'Exclude from the ranking' }).click();
    await page.getByText('Reason: copied from a neighbour').waitFor();
    await page.locator('.facts-verdict .excluded-mark').waitFor();
    const stored = await judge.admin().then((a) => a.call(ops.getSubmission, { params: { id: right.id } }));
    expect(stored).toMatchObject({ excluded: true, exclusionReason: 'copied from a neighbour' });

    await page.getByRole('link', { name: 'All submissions', exact: true }).click();
    await row(page, right.id).locator('.excluded-mark').waitFor();
    await page.getByLabel('Counted or excluded').selectOption('true');
    await page.waitForURL(/[?&]excluded=true/);
    await row(page, wrong.id).waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);

    await page.goto(`${judge.url}${STREAM}/${right.id}`);
    await page.getByRole('button', { name: 'Count it again' }).click();
    await page.getByText('This submission counts in the ranking.').waitFor();
    expect((await judge.admin().then((a) => a.call(ops.getSubmission, { params: { id: right.id } }))).excluded).toBe(false);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('points a manager on the participant Submissions tab to the stream', async () => {
    const page = await teacherOn('/a/contest/submissions');
    await page.getByText('You manage this activity.').waitFor();
    await page.getByRole('link', { name: 'Open the submission stream' }).click();
    await page.waitForURL(`**${STREAM}`);
    await row(page, wrong.id).waitFor();
    await page.context().close();
  }, 60_000);

  it('refuses a participant who opens a staff submission address, and sends her no staff data', async () => {
    const pia = await world.participant('pia');
    const page = await chromium.newPage();
    const seen: Response[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/')) seen.push(r);
    });
    await signInThroughPage(page, judge.url, pia, `${STREAM}/${wrong.id}`);
    await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    const bodies = await Promise.all(seen.map(async (r) => `${r.status()} ${r.url()} ${await r.text().catch(() => '')}`));
    // nothing about the submission, nor the author's name, in any answer or address of the API
    expect(bodies.filter((b) => b.includes(wrong.id) || b.includes('"sam"'))).toEqual([]);
    expect(seen.filter((r) => new URL(r.url()).pathname.startsWith('/api/v1/submissions') && r.status() < 400).map((r) => r.url())).toEqual([]);
    await checkA11y(page, 'staff submission refused');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('fits a 360 px phone', async () => {
    for (const [path, name] of [
      [STREAM, 'staff-submissions-stream-phone'],
      [`${STREAM}/${right.id}`, 'staff-submission-phone'],
    ] as const) {
      const page = await teacherOn(path, PHONE);
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      if (path === STREAM) await row(page, wrong.id).waitFor();
      else await page.locator('.file-diff').waitFor();
      await screenshot(page, name);
      const overflow = await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
      const wide = await page.evaluate<string[]>(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 8).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`);
      expect(overflow, wide.join('\n')).toBeLessThanOrEqual(0);
      await checkA11y(page, `${path} at 360 px`);
      await page.context().close();
    }
  }, 120_000);
});
