import { ops, type Question } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { CORRECT_CPP, pasteCode, signIn, submitWorld, type SubmitWorld } from './submit-world.js';

/**
 * Contest day as a participant lives it, in Debian's Chromium against a real `judge up`: a
 * question asked from the problem page and answered by the jury over the API arrives live with the
 * unread badge; an announcement arrives live; a printout request (a submission and a typed file)
 * changes state live as staff claim and resolve it; a broadcast shows a banner; draining shows the
 * paused state and the submit refusal in words. At desktop and at phone width, axe on each page.
 */

const WAIT = { timeout: 20_000 };
const RECONNECT_WAIT = { timeout: 45_000 };
/** axe-core's own templates, blocked by the app's CSP while checkA11y evaluates axe in the page. */
const AXE_EVAL = /securitypolicyviolation: script-src blocked eval/;

interface Person {
  username: string;
  password: string;
  client: JudgeClient;
}

describe('contest day in the browser: questions, announcements, printouts, broadcasts and maintenance', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let world: SubmitWorld;
  let admin: JudgeClient;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 62100 });
    world = await submitWorld(judge);
    admin = await judge.admin();
    await admin.call(ops.updateActivity, { params: { idOrSlug: world.act.slug }, body: { slug: world.act.slug, modules: { questions: true, printouts: true } } });
    chromium = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  const base = () => `/a/${world.act.slug}`;
  const look = async (page: Page, what: string) => {
    await checkA11y(page, what);
    await screenshot(page, `contest-${what}`);
  };

  async function person(name: string): Promise<Person> {
    const creds = await world.participant(name);
    const client = new JudgeClient({ baseUrl: judge.url });
    await client.login(creds.username, creds.password);
    return { ...creds, client };
  }

  async function questionByTopic(topic: string): Promise<Question> {
    const list = await admin.call(ops.listQuestions, { query: { activityId: world.act.id, search: topic } });
    const q = list.items.find((x) => x.topic === topic);
    if (!q) throw new Error(`no question ${topic}`);
    return q;
  }

  /** Asks from the problem page; the question is listed as waiting for its answer. */
  async function askFromProblem(page: Page, topic: string): Promise<void> {
    await page.getByRole('link', { name: 'Ask about this problem' }).click();
    await page.getByRole('heading', { level: 1, name: 'Questions and announcements' }).waitFor(WAIT);
    expect(await page.locator('select[name=about]').inputValue()).toMatch(/^p:/);
    expect(await page.locator('select[name=about] option:checked').textContent()).toContain('Problem A: Sum');
    await page.locator('input[name=topic]').fill(topic);
    await page.locator('textarea[name=body]').fill('Can a and b be negative?');
    await page.getByRole('button', { name: 'Send the question' }).click();
    const item = page.locator('.question-item', { hasText: topic });
    await item.waitFor(WAIT);
    expect(await item.textContent()).toContain('Not answered yet');
    await look(page, 'question-asked');
  }

  /** The jury answers while the participant reads the problem: the news and the badge come live, the answer is on the Questions tab. */
  async function answerArrivesLive(page: Page, topic: string): Promise<void> {
    await page.getByRole('link', { name: 'Problems', exact: true }).click();
    await page.getByRole('link', { name: /Sum/ }).first().click();
    await page.locator('.submit-form').waitFor(WAIT);
    const q = await questionByTopic(topic);
    await admin.call(ops.answerQuestion, { params: { id: q.id }, body: { body: 'Yes, down to -1000.' } });
    await page.locator('.questions-news', { hasText: `New answer to “${topic}”` }).waitFor(WAIT);
    await page.locator('.questions-tab .unread-badge[data-unread="1"]').waitFor(WAIT);
    await look(page, 'answer-badge');
    await page.locator('.questions-tab').click();
    await page.locator('.question-item .question-answer', { hasText: 'Yes, down to -1000.' }).waitFor(WAIT);
    // shown is read: the badge goes
    await page.locator('.questions-tab .unread-badge').waitFor({ state: 'detached', ...WAIT });
  }

  async function announcementArrivesLive(page: Page, topic: string): Promise<void> {
    await admin.call(ops.createAnnouncement, { params: { idOrSlug: world.act.slug }, body: { topic, body: 'The statement of Sum was fixed: read it again.' } });
    await page.locator('.question-item.kind-announcement', { hasText: topic }).waitFor(WAIT);
    await page.locator('.questions-news', { hasText: `New announcement: ${topic}` }).waitFor(WAIT);
    await look(page, 'announcement');
  }

  /**
   * Opens a submission from the live list. The row is redrawn when its verdict arrives, so a click
   * at that moment can land on the row being replaced: the click is repeated until the page is the
   * submission's, and a page that shows a refusal instead says which.
   */
  async function openSubmission(page: Page, id: string): Promise<void> {
    const link = page.locator(`a[href$="/submissions/${id}"]`).first();
    await expect
      .poll(async () => {
        if (!page.url().endsWith(`/submissions/${id}`)) await link.click({ timeout: 5_000 }).catch(() => undefined);
        return page.url().endsWith(`/submissions/${id}`);
      }, WAIT)
      .toBe(true);
    const shown = page.locator('.submission-page, .error-box').first();
    await shown.waitFor(WAIT);
    if (await page.locator('.error-box').count()) throw new Error(`the submission page refused: ${await page.locator('.error-box').first().textContent()}`);
  }

  /** A submission and a typed file are asked to print; their states follow the staff's claim and resolve live. */
  async function printoutsFollowStaff(page: Page, who: Person): Promise<void> {
    const s = await who.client.submit(world.act.slug, world.problemSlug, [{ name: 'sum.cpp', bytes: CORRECT_CPP }], { language: 'cpp' });
    await page.locator('.activity-tabs').getByRole('link', { name: 'Submissions' }).click();
    await openSubmission(page, s.id);
    await page.getByRole('button', { name: 'Print this submission' }).click();
    await page.getByText('The printout of this submission is queued.').waitFor(WAIT);
    await look(page, 'print-submission');
    await page.getByRole('link', { name: 'See your printouts' }).click();
    await page.locator('input[name=fileName]').fill('notes.txt');
    await page.locator('textarea[name=source]').fill('line one\nline two\n');
    await page.getByRole('button', { name: 'Request the printout' }).click();
    const rows = page.locator('.printouts-table tbody tr');
    await expect.poll(() => rows.count(), WAIT).toBe(2);
    const own = await admin.call(ops.listPrintouts, { query: { activityId: world.act.id, state: 'queued' } });
    // the other width's notes.txt is resolved by now: this one is the only queued one
    const notes = own.items.find((p) => p.fileName === 'notes.txt')!;
    const cell = page.locator(`tr[data-printout="${notes.id}"] td[data-state]`);
    expect(await cell.getAttribute('data-state')).toBe('queued');
    await admin.call(ops.claimPrintout, { params: { id: notes.id } });
    await expect.poll(() => cell.getAttribute('data-state'), WAIT).toBe('claimed');
    expect(await cell.textContent()).toContain('Being printed');
    await admin.call(ops.resolvePrintout, { params: { id: notes.id }, body: {} });
    await expect.poll(() => cell.getAttribute('data-state'), WAIT).toBe('resolved');
    await look(page, 'printouts');
  }

  async function broadcastShows(page: Page, w: number): Promise<void> {
    const text = `Lunch is served in room 2 (${w})`;
    await admin.call(ops.sendSystemMessage, { body: { type: 'warning', text } });
    const banner = page.locator('.banner[data-broadcast=warning]', { hasText: text });
    await banner.waitFor(WAIT);
    expect(await banner.textContent()).toContain('Warning:');
    await look(page, 'broadcast');
    await banner.getByRole('button', { name: /Dismiss/ }).click();
    await banner.waitFor({ state: 'detached', ...WAIT });
  }

  /**
 * Draining: the banner and the submit panel say submissions are paused, and a submission sent
 * anyway is refused in words; closed: the banner says the judge is closed. Open again: it goes.
 */
  async function drainingPausesSubmissions(page: Page): Promise<void> {
    await page.locator('.activity-tabs').getByRole('link', { name: 'Problems', exact: true }).click();
    await page.getByRole('link', { name: /Sum/ }).first().click();
    await page.locator('.submit-form .cm-content').waitFor(WAIT);
    await admin.call(ops.setMaintenance, { body: { level: 'draining', reason: 'Runner upgrade' } });
    try {
      // the event reaches an open socket at once; a socket a loaded machine dropped comes back within
      // its backoff (at most 30 s) and then reads everything again, the level included
      await page.locator('.banner[data-maintenance=draining]', { hasText: 'Submissions are paused' }).waitFor(RECONNECT_WAIT);
      await page.locator('.submit-paused[data-maintenance=draining]', { hasText: 'Submissions are paused' }).waitFor(WAIT);
      await page.locator('.language-select').selectOption('cpp');
      await pasteCode(page, CORRECT_CPP);
      await page.locator('.submit-form button[type=submit]').click();
      const refusal = page.locator('[data-refusal="submit.error.paused"]');
      await refusal.waitFor(WAIT);
      expect(await refusal.textContent()).toContain('Refused: submissions are paused for maintenance.');
      await look(page, 'draining');
      // closed: the banner says so (the page's own requests are refused meanwhile)
      await admin.call(ops.setMaintenance, { body: { level: 'closed' } });
      await page.locator('.banner[data-maintenance=closed]', { hasText: 'The judge is closed for maintenance' }).waitFor(WAIT);
      await page.locator('.submit-paused[data-maintenance=closed]').waitFor(WAIT);
      await screenshot(page, 'contest-closed');
    } finally {
      await admin.call(ops.setMaintenance, { body: { level: 'open' } });
    }
    await page.locator('.banner[data-maintenance]').waitFor({ state: 'detached', ...WAIT });
  }

  async function contestDay(viewport: Viewport): Promise<void> {
    const w = viewport.width;
    const who = await person(`day${w}`);
    const page = await chromium.newPage(viewport, { locale: 'en-GB' });
    await signIn(page, judge.url, who, `${base()}/p/${world.problemSlug}`);
    await page.locator('.submit-form').waitFor(WAIT);
    await checkA11y(page, `the problem page with the ask link (${w})`);
    const topic = `Negative input? (${w})`;
    await askFromProblem(page, topic);
    await answerArrivesLive(page, topic);
    await announcementArrivesLive(page, `Statement fixed (${w})`);
    await printoutsFollowStaff(page, who);
    await broadcastShows(page, w);
    await drainingPausesSubmissions(page);
    // 401: the sign-in page asking who is there; 503: the refusal the test asked for
    expect(pageProblems(page, { allowStatus: [401, 503] }).filter((p) => !AXE_EVAL.test(p))).toEqual([]);
    await page.context().close();
  }

  it('at desktop width', () => contestDay(DESKTOP), 240_000);

  it('at phone width', () => contestDay(PHONE), 240_000);
});
