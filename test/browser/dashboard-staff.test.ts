import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedProblem } from '../../packages/server/test/support/packaged-problem.js';
import { codeForm } from '../../packages/server/test/support/forms.js';
import { zipOf } from '../../packages/server/test/zips.js';
import { SUM_PACKAGE } from '../one-problem-contest.js';
import { contest, MINUTE, participant, serverNow, type Participant } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { markWindow, signInThroughPage, stillSameWindow } from './standings-world.js';

const CUP = 'dash-cup';
const NAME = 'Dashboard cup';
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';

/**
 * The staff home and an activity's dashboard in a real Chromium on a real `judge up` with its
 * runner: a participant's submission, question and printout arrive in the figures without a
 * reload, every figure links to the list behind it, the home names judgectl, and a participant is
 * kept out in words without a byte of the dashboard reaching her browser.
 */
describe('staff home and activity dashboard in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let pia: Participant;
  let tom: Participant;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 64200 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(SUM_PACKAGE), 'sum.zip');
    const act = await contest(admin, { slug: CUP, name: NAME, joinPolicy: 'open', startsAt: now - MINUTE, endsAt: now + 120 * MINUTE, problems: { sum: problem.id } });
    await admin.call(ops.updateActivity, { params: { idOrSlug: CUP }, body: { slug: CUP, modules: { questions: true, printouts: true } } });
    pia = await participant(admin, judge.url, 'pia');
    await pia.client.call(ops.enrol, { params: { idOrSlug: CUP }, body: {} });
    tom = await participant(admin, judge.url, 'tom');
    const roles = await admin.call(ops.listRoles, { query: {} });
    const tomUser = await tom.client.call(ops.getAccount);
    await admin.call(ops.createGrant, { body: { userId: tomUser.userId, roleId: roles.find((r) => r.builtInKey === 'manager')!.id, activityId: act.id } });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; 401/403 are answers the app expects
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403] }).filter((p) => !/blocked eval/.test(p));
  const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"]`);
  const value = (page: Page, name: string) => figure(page, name).locator('.figure-value').textContent();
  const overflow = (page: Page) => page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);

  async function signedIn(who: { username: string; password: string }, path: string, viewport: Viewport = DESKTOP): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, who, path);
    await page.waitForURL(`**${path}`);
    return page;
  }
  const asAdmin = (path: string, viewport?: Viewport) => signedIn({ username: judge.adminUsername, password: judge.adminPassword }, path, viewport);

  it('opens the staff home: the managed activities with kind and phase, New activity, the pages across activities, and judgectl', async () => {
    const page = await asAdmin('/staff');
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    const item = page.locator(`[data-activity="${CUP}"]`);
    await item.waitFor();
    expect(await item.getByRole('link', { name: NAME }).getAttribute('href')).toBe(`/staff/a/${CUP}`);
    expect(await item.textContent()).toMatch(/Contest.*Running · Time left \d+:\d\d:\d\d/);
    // the home's own button (the staff tabs hold a New activity link too)
    expect(await page.locator('a.button-link', { hasText: 'New activity' }).getAttribute('href')).toBe('/staff/new');
    const across = page.getByRole('region', { name: 'Across activities' });
    expect(await across.getByRole('link').allTextContents()).toEqual(['Questions', 'Announce', 'Printouts', 'Problems', 'Runners', 'Users', 'Roles', 'Instance', 'Sign-in providers', 'LTI']);
    const terminal = page.getByRole('region', { name: 'From a terminal' });
    expect(await terminal.textContent()).toContain(`judgectl login --server ${judge.url}`);
    expect(await terminal.textContent()).toContain('docs/judgectl.md');
    // the commands fold open from the keyboard
    await terminal.locator('summary').focus();
    await page.keyboard.press('Enter');
    await terminal.getByText('judgectl runners add --name <name>').waitFor();
    await checkA11y(page, 'staff home');
    await screenshot(page, 'staff-home');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();

    const phone = await asAdmin('/staff', PHONE);
    await phone.locator(`[data-activity="${CUP}"]`).waitFor();
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    await checkA11y(phone, 'staff home at 360 px');
    await screenshot(phone, 'staff-home');
    await phone.context().close();
  }, 120_000);

  it('shows a submission, a question and a printout in the figures as they happen, each figure a link to its list', async () => {
    const page = await asAdmin(`/staff/a/${CUP}`);
    await page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor();
    await expect.poll(() => value(page, 'runners')).toBe('1');
    expect(await value(page, 'rate')).toBe('0');
    expect(await page.getByText('Nothing judged yet.').count()).toBe(1);
    await markWindow(page);

    await pia.client.call(ops.submit, { params: { idOrSlug: CUP, problemSlug: 'sum' }, form: codeForm(SUM_PY, 'sum.py') });
    await expect.poll(() => value(page, 'rate'), { timeout: 30_000 }).toBe('1');
    const accepted = page.locator('[data-verdict="AC"] a');
    await accepted.waitFor({ timeout: 90_000 });
    expect(await accepted.textContent()).toMatch(/^1 Accepted/);
    expect(await accepted.getAttribute('href')).toBe(`/staff/a/${CUP}/submissions?verdict=AC`);
    await expect.poll(() => value(page, 'queued')).toBe('0');

    await pia.client.call(ops.askQuestion, { params: { idOrSlug: CUP }, body: { topic: 'Input', body: 'Can a be negative?' } });
    await expect.poll(() => value(page, 'questions'), { timeout: 30_000 }).toBe('1');
    await pia.client.call(ops.requestPrintout, { params: { idOrSlug: CUP }, body: { fileName: 'sum.py', source: SUM_PY } });
    await expect.poll(() => value(page, 'printouts'), { timeout: 30_000 }).toBe('1');
    expect(await stillSameWindow(page)).toBe(true);

    const hrefs = Object.fromEntries(
      await Promise.all(['queued', 'running', 'runners', 'rate', 'failed', 'je', 'questions', 'printouts'].map(async (f) => [f, await figure(page, f).locator('a').getAttribute('href')])),
    );
    expect(hrefs).toEqual({
      queued: `/staff/a/${CUP}/submissions?state=queued`,
      running: `/staff/a/${CUP}/submissions?state=running`,
      runners: '/staff/runners',
      rate: `/staff/a/${CUP}/submissions`,
      failed: `/staff/a/${CUP}/submissions?state=failed`,
      je: `/staff/a/${CUP}/submissions?verdict=JE`,
      questions: `/staff/questions?activity=${CUP}&kind=question&unanswered=1`,
      printouts: `/staff/printouts?activity=${CUP}`,
    });
    // the tasks no page does yet are named with the activity filled in
    expect(await page.locator('[data-terminal-group="standings"]').textContent()).toContain(`judgectl series freeze ${CUP} <series>`);
    await checkA11y(page, 'dashboard');
    await screenshot(page, 'staff-dashboard');

    // by keyboard: Tab to the unanswered questions, Enter opens the queue on them
    const questions = figure(page, 'questions').locator('a');
    for (let i = 0; i < 60 && !(await questions.evaluate((el) => el === el.ownerDocument.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/staff\/questions\?activity=dash-cup/);
    await page.getByText('Can a be negative?').waitFor();
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();

    const phone = await asAdmin(`/staff/a/${CUP}`, PHONE);
    await figure(phone, 'rate').waitFor();
    expect(await overflow(phone)).toBeLessThanOrEqual(0);
    await checkA11y(phone, 'dashboard at 360 px');
    await screenshot(phone, 'staff-dashboard');
    await phone.context().close();
  }, 240_000);

  it("gives the activity's manager a Staff pages link in its frame, leading to the dashboard", async () => {
    const page = await signedIn(tom, `/a/${CUP}`);
    await page.getByRole('link', { name: 'Staff pages' }).click();
    await page.waitForURL(`**/staff/a/${CUP}`);
    await figure(page, 'rate').waitFor();
    expect(await page.getByRole('navigation', { name: `Staff pages of ${NAME}` }).getByRole('link').allTextContents()).toEqual(['Dashboard', 'Settings', 'Series and times', 'Problems', 'Submissions', 'People', 'Standings']);
    // he reads no runner list, so the runners figure is no link
    expect(await figure(page, 'runners').locator('a').count()).toBe(0);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('refuses a participant the dashboard in words, and sends her browser none of its data', async () => {
    const page = await signedIn(pia, `/a/${CUP}`);
    await page.locator('.activity-tabs').waitFor();
    expect(await page.getByRole('link', { name: 'Staff pages' }).count()).toBe(0);
    const asked: string[] = [];
    const bodies: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    page.on('response', (r) => {
      if (r.url().includes('/api/')) void r.text().then((t) => bodies.push(t), () => {});
    });
    await page.goto(`${judge.url}/staff/a/${CUP}`);
    await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Your account holds no staff permission');
    expect(asked.filter((u) => /\/api\/v1\/manager\//.test(u))).toEqual([]);
    expect(bodies.filter((b) => /"judgingErrors"|"perMinute"/.test(b))).toEqual([]);
    await checkA11y(page, 'dashboard refused');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);
});
