import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contest, MINUTE, participant, serverNow, type Participant } from './activity-fixtures.js';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, settled, type Viewport } from './harness.js';
import { signInThroughPage } from './standings-world.js';

const DESK = 'help-desk';
const SOURCE = '#include <stdio.h>\nint main(void) { puts("hi"); }\n';

/**
 * The staff pages in a real Chromium on a real `judge up`: the question queue that fills live and
 * is answered with a canned answer, the announcement form, and the printout queue, as the
 * administrator works them; and a participant who is kept out in words.
 */
describe('staff pages in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let ann: Participant;

  beforeAll(async () => {
    // nothing is judged here, so no runner (its uid base, were it started, is 62200)
    judge = await startJudgeUp({ runner: false, runnerUidBase: 62200 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    await contest(admin, { slug: DESK, name: 'Help desk cup', joinPolicy: 'open', startsAt: now - MINUTE, endsAt: now + 120 * MINUTE });
    await admin.call(ops.updateActivity, { params: { idOrSlug: DESK }, body: { slug: DESK, modules: { questions: true, printouts: true } } });
    ann = await participant(admin, judge.url, 'ann');
    await ann.client.call(ops.enrol, { params: { idOrSlug: DESK }, body: {} });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; 401/403 are answers the app expects
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403] }).filter((p) => !/blocked eval/.test(p));
  const staffLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' });

  async function adminOn(path: string, viewport?: Viewport): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await page.waitForURL(`**${path}`);
    return page;
  }

  it('shows a participant no Staff entry and refuses the staff pages in words', async () => {
    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, ann, '/');
    await page.getByRole('link', { name: 'Help desk cup' }).first().waitFor();
    expect(await staffLink(page).count()).toBe(0);
    // finding out that she is no staff costs her pages no refused request
    expect(pageProblems(page, { allowStatus: [401] }).filter((p) => !/blocked eval/.test(p))).toEqual([]);
    await page.goto(`${judge.url}/staff/questions`);
    await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Your account holds no staff permission');
    expect(await page.locator('.staff-tabs').count()).toBe(0);
    await checkA11y(page, 'staff refused');
    await screenshot(page, 'staff-refused');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('puts a question in the queue as it is asked, answers it with an edited canned answer, publishes it, and deletes another', async () => {
    const page = await adminOn('/staff/questions');
    await staffLink(page).waitFor();
    await page.getByRole('heading', { name: 'Questions', level: 1 }).waitFor();
    await page.getByText('No questions match.').waitFor();

    const asked = await ann.client.call(ops.askQuestion, { params: { idOrSlug: DESK }, body: { topic: 'Sorted input?', body: 'Is the input sorted?' } });
    const item = page.locator(`[data-question="${asked.id}"]`);
    await item.waitFor();
    expect(await item.textContent()).toContain('Asked by ann');
    expect(await item.locator('.badge').textContent()).toBe('Unanswered');
    await expect.poll(() => page.title()).toMatch(/^\(1\) Questions/);
    await expect.poll(() => page.locator('[role="status"][aria-live="polite"]').allTextContents()).toContain('New question from ann: Sorted input?');
    await checkA11y(page, 'question queue');
    await screenshot(page, 'staff-questions');

    // a canned answer goes into the box, where it can be edited before it is sent
    await item.getByLabel('Canned answer').selectOption('Yes.');
    const box = item.getByLabel('Answer', { exact: true });
    expect(await box.inputValue()).toBe('Yes.');
    await box.fill('Yes. Ascending.');
    await item.getByRole('button', { name: 'Send and publish' }).click();
    await expect.poll(() => item.locator('.badge').textContent()).toBe('Published');
    const seen = await ann.client.call(ops.listOwnQuestions, { params: { idOrSlug: DESK } });
    expect(seen.items.find((q) => q.id === asked.id)).toMatchObject({ isPublished: true, answer: { body: 'Yes. Ascending.' } });
    await expect.poll(() => page.title()).toMatch(/^Questions ·/);

    // withdrawn, then published again by its own button
    await item.getByRole('button', { name: 'Withdraw' }).click();
    await expect.poll(() => item.locator('.badge').textContent()).toBe('Answered, private');
    await item.getByRole('button', { name: 'Publish to everyone' }).click();
    await expect.poll(() => item.locator('.badge').textContent()).toBe('Published');

    // the unanswered filter hides it; a second question is deleted after a confirmation
    await page.getByLabel('Unanswered only').check();
    await page.waitForURL(/unanswered=1/);
    await item.waitFor({ state: 'detached' });
    const spam = await ann.client.call(ops.askQuestion, { params: { idOrSlug: DESK }, body: { topic: 'asdf', body: 'oops' } });
    const spamItem = page.locator(`[data-question="${spam.id}"]`);
    await spamItem.getByRole('button', { name: 'Delete' }).click();
    await spamItem.getByRole('button', { name: 'Yes, delete' }).click();
    await spamItem.waitFor({ state: 'detached' });
    expect((await ann.client.call(ops.listOwnQuestions, { params: { idOrSlug: DESK } })).items.map((q) => q.id)).not.toContain(spam.id);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('posts an announcement that the participants get', async () => {
    const page = await adminOn('/staff/announce');
    await page.getByLabel('Activity').selectOption(DESK);
    await page.getByLabel('About the series').selectOption({ label: 'Main round' });
    await page.getByLabel('Topic').fill('Statement of A fixed');
    await page.getByLabel('Text').fill('The sample of problem A was wrong; it is fixed now.');
    await checkA11y(page, 'announce');
    await screenshot(page, 'staff-announce');
    await page.getByRole('button', { name: 'Post the announcement' }).click();
    await page.getByText('Announced: “Statement of A fixed”.').waitFor();
    const seen = await ann.client.call(ops.listOwnQuestions, { params: { idOrSlug: DESK }, query: { kind: 'announcement' } });
    expect(seen.items).toEqual([expect.objectContaining({ kind: 'announcement', topic: 'Statement of A fixed', seriesName: 'Main round', isPublished: true })]);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('claims a printout as it arrives, opens its PDF, and resolves it with a note', async () => {
    const page = await adminOn('/staff/printouts');
    await page.getByRole('heading', { name: 'Printouts', level: 1 }).waitFor();
    const asked = await ann.client.call(ops.requestPrintout, { params: { idOrSlug: DESK }, body: { fileName: 'hi.c', source: SOURCE, title: 'My solution' } });
    const item = page.locator(`[data-printout="${asked.id}"]`);
    await item.waitFor();
    expect(await item.textContent()).toContain('ann');
    // a 52-byte source is 52 bytes, not a rounded-up "1 KiB"
    expect(await item.textContent()).toContain(`hi.c · ${Buffer.byteLength(SOURCE)} bytes`);
    await expect.poll(() => page.title()).toMatch(/^\(1\) Printouts/);
    await item.getByRole('button', { name: 'Claim' }).click();
    await expect.poll(() => item.locator('.badge').textContent()).toBe('Claimed by you');
    expect(await item.getAttribute('class')).toContain('mine');
    await checkA11y(page, 'printout queue');
    await screenshot(page, 'staff-printouts');

    // the PDF opens in a new tab, same origin, with the session
    const link = item.getByRole('link', { name: /Open the PDF/ });
    const href = await link.getAttribute('href');
    expect(href).toBe(`/api/v1/printouts/${asked.id}/pdf`);
    const pdf = await page.context().request.get(`${judge.url}${href}`);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await expect.poll(() => tab.url()).toContain(href!);
    await tab.close();

    await item.getByLabel('Note (optional)').fill('handed to ann at desk 3');
    await item.getByRole('button', { name: 'Resolve' }).click();
    await item.waitFor({ state: 'detached' });
    await page.getByText('No printouts here.').waitFor();
    const own = await ann.client.call(ops.listOwnPrintouts, { params: { idOrSlug: DESK } });
    expect(own.items.find((p) => p.id === asked.id)).toMatchObject({ state: 'resolved' });
    await page.getByLabel('State').selectOption('resolved');
    await page.locator(`[data-printout="${asked.id}"]`).waitFor();
    // done: no longer marked as in the reader's hands
    expect(await page.locator(`[data-printout="${asked.id}"] .badge`).textContent()).toBe('Resolved');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('gives a manager of one activity its questions and printouts, and a printout handler only the printouts', async () => {
    const now = await serverNow(admin);
    await contest(admin, { slug: 'other-cup', name: 'Other cup', joinPolicy: 'open', startsAt: now - MINUTE, endsAt: now + 120 * MINUTE });
    const desk = await admin.call(ops.getActivity, { params: { idOrSlug: DESK } });
    const roles = await admin.call(ops.listRoles, { query: {} });
    const manager = roles.find((r) => r.builtInKey === 'manager')!;
    const printer = await admin.call(ops.createRole, { body: { name: 'Printer', permissions: ['printout:manage', 'activity:read'] } });
    const meg = await participant(admin, judge.url, 'meg');
    const pat = await participant(admin, judge.url, 'pat');
    const megUser = await meg.client.call(ops.getAccount);
    const patUser = await pat.client.call(ops.getAccount);
    await admin.call(ops.createGrant, { body: { userId: megUser.userId, roleId: manager.id, activityId: desk.id } });
    await admin.call(ops.createGrant, { body: { userId: patUser.userId, roleId: printer.id, activityId: desk.id } });

    const megPage = await chromium.newPage();
    await signInThroughPage(megPage, judge.url, meg, '/staff/questions');
    await megPage.waitForURL('**/staff/questions');
    await megPage.locator('[data-question]').first().waitFor();
    const tabs = megPage.getByRole('navigation', { name: 'Staff pages' }).getByRole('link');
    // the built-in manager works the activity's printouts too (migration 0011)
    expect(await tabs.allTextContents()).toEqual(['Overview', 'Questions', 'Announce', 'Printouts']);
    // the activity filter lists what she manages, not every activity she could join
    expect(await megPage.getByLabel('Activity').locator('option').allTextContents()).toEqual(['All activities', 'Help desk cup']);
    expect(scriptProblems(megPage)).toEqual([]);
    await megPage.context().close();

    const patPage = await chromium.newPage();
    await signInThroughPage(patPage, judge.url, pat, '/');
    await staffLink(patPage).click();
    await patPage.waitForURL((u) => u.pathname === '/staff');
    const patTabs = patPage.getByRole('navigation', { name: 'Staff pages' }).getByRole('link');
    // the address changes before the staff frame's chunk and permissions are in
    await patTabs.first().waitFor();
    expect(await patTabs.allTextContents()).toEqual(['Overview', 'Printouts']);
    await patTabs.getByText('Printouts').click();
    await patPage.waitForURL('**/staff/printouts');
    await patPage.getByRole('heading', { name: 'Printouts', level: 1 }).waitFor();
    expect(scriptProblems(patPage)).toEqual([]);
    await patPage.context().close();
  }, 120_000);

  it('fits a 360 px phone', async () => {
    for (const path of ['/staff/questions', '/staff/announce', '/staff/printouts?state=all']) {
      const page = await adminOn(path, PHONE);
      await page.locator('.staff-tabs').waitFor();
      await settled(page);
      const overflow = await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
      expect(overflow).toBeLessThanOrEqual(0);
      await checkA11y(page, `${path} at 360 px`);
      await screenshot(page, `staff-${path.split('/')[2]!.split('?')[0]}-phone`);
      await page.context().close();
    }
  }, 120_000);
});
