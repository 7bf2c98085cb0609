import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contest, MINUTE, participant, SAMPLE_IN, serverNow, sumProblem, type Participant } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { BROKEN_CPP, CORRECT_CPP, pasteCode, signIn, WRONG_PY } from './submit-world.js';

/**
 * A participant's whole contest in one go, as the web pages issue describes it, on a fresh
 * `judge up` whose runner judges in the real sandbox: sign in, join, read a LaTeX statement with
 * math and an image, copy a sample, submit pasted C++ (accepted) and a Python file (wrong), see a
 * compile error explained, watch the standings change, reload and find it all still there; at
 * desktop and at phone width. At desktop width the server is also restarted under the open page,
 * which catches up by itself.
 */

const RUNNER_UID_BASE = 62900;
const WAIT = { timeout: 20_000 };
const VERDICT = { timeout: 90_000 };
/** axe-core's own templates, blocked by the app's CSP while checkA11y evaluates axe in the page. */
const AXE_EVAL = /securitypolicyviolation: script-src blocked eval/;

describe('a participant through a whole contest in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: RUNNER_UID_BASE });
    chromium = await openBrowser();
    admin = await judge.admin();
    const sum = await sumProblem(admin, 'sum');
    const now = await serverNow(admin);
    await contest(admin, { slug: 'final', name: 'Final Round', joinPolicy: 'open', startsAt: now - 5 * MINUTE, endsAt: now + 180 * MINUTE, problems: { sum } });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  const rows = (page: Page) => page.locator('.problem-submissions tbody tr');
  const ownRow = (page: Page) => page.locator('.standings tbody tr.own');

  async function look(page: Page, name: string, w: number): Promise<void> {
    await checkA11y(page, `${name} at ${w} px`);
    await screenshot(page, `flow-${name}`);
  }

  async function joinAndRead(page: Page, w: number): Promise<void> {
    await page.getByRole('link', { name: 'Final Round' }).click();
    await page.getByRole('button', { name: 'Join Final Round' }).click();
    await page.getByRole('link', { name: /Sum/ }).click();
    const statement = page.getByRole('region', { name: 'Statement' });
    await statement.getByRole('heading', { name: 'Sum of two' }).waitFor(WAIT);
    expect(await statement.locator('.katex').count()).toBeGreaterThanOrEqual(4);
    await expect.poll(() => page.evaluate<number>(`document.querySelector('.statement-body img')?.naturalWidth ?? 0`)).toBe(120);
    await page.getByRole('button', { name: 'Copy Input 1' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor(WAIT);
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(SAMPLE_IN);
    await look(page, 'problem', w);
  }

  /** Sends what the form holds and waits for it to be judged as `verdict`, with no reload. */
  async function submitAndWait(page: Page, verdict: string): Promise<void> {
    const before = await rows(page).count();
    await page.locator('.submit-form button[type=submit]').click();
    await expect.poll(() => rows(page).count(), WAIT).toBe(before + 1);
    await rows(page).first().locator(`[data-verdict=${verdict}]`).waitFor(VERDICT);
  }

  async function submitThree(page: Page, standings: Page, w: number): Promise<void> {
    await page.locator('.language-select').selectOption('cpp');
    await pasteCode(page, CORRECT_CPP);
    await submitAndWait(page, 'AC');
    // the standings in the other tab change by themselves
    await ownRow(standings).locator('td.cell.ok').waitFor(WAIT);
    await look(standings, 'standings', w);

    await page.locator('input[type=file]').setInputFiles({ name: 'wrong.py', mimeType: 'text/x-python', buffer: Buffer.from(WRONG_PY) });
    expect(await page.locator('.language-select').inputValue()).toBe('python3');
    await submitAndWait(page, 'WA');

    await page.locator('.language-select').selectOption('cpp');
    await pasteCode(page, BROKEN_CPP);
    await submitAndWait(page, 'CE');
    await look(page, 'submitted', w);
  }

  async function compileErrorExplained(page: Page, w: number): Promise<void> {
    await rows(page).first().getByRole('link').click();
    await page.locator('.compile-output pre').waitFor(WAIT);
    expect(await page.locator('.compile-output pre').textContent()).toMatch(/error/);
    await look(page, 'compile-error', w);
    await page.goBack();
  }

  /** After a reload everything is still there: the three verdicts, newest first, and the solve. */
  async function stillThereAfterReload(page: Page, standings: Page): Promise<void> {
    await page.reload();
    await expect.poll(() => rows(page).locator('[data-verdict]').evaluateAll((els) => els.map((e) => e.getAttribute('data-verdict'))), WAIT).toEqual(['CE', 'WA', 'AC']);
    await standings.reload();
    await ownRow(standings).locator('td.cell.ok').waitFor(WAIT);
    expect(await ownRow(standings).locator('td.total').first().textContent()).toBe('1');
  }

  /** The server restarts under the open page: it says live updates are off, then catches up with a verdict given meanwhile. */
  async function catchesUpAfterRestart(page: Page, who: Participant): Promise<void> {
    await judge.stop();
    await page.locator('.live-off').waitFor({ timeout: 30_000 });
    await judge.restart();
    const sent = await who.client.submit('final', 'sum', [{ name: 'again.cpp', bytes: CORRECT_CPP }], { language: 'cpp' });
    await page.locator(`.problem-submissions tbody tr [data-verdict=AC]`).nth(1).waitFor(VERDICT);
    await page.locator('.live-off').waitFor({ state: 'detached', timeout: 60_000 });
    const mine = await who.client.call(ops.getOwnSubmission, { params: { idOrSlug: 'final', id: sent.id } });
    expect(mine.verdict).toBe('AC');
  }

  async function wholeContest(viewport: Viewport, restart: boolean): Promise<void> {
    const w = viewport.width;
    const who = await participant(admin, judge.url, `flow-${w}`);
    const page = await chromium.newPage(viewport, { permissions: ['clipboard-read', 'clipboard-write'], locale: 'en-GB' });
    await page.goto(`${judge.url}/no/such/page`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor(WAIT);
    await look(page, 'not-found', w);
    await page.goto(`${judge.url}/sign-in`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor(WAIT);
    await look(page, 'sign-in', w);
    await signIn(page, judge.url, who, '/');
    await joinAndRead(page, w);
    const standings = await page.context().newPage();
    await standings.goto(`${judge.url}/a/final/standings`);
    await ownRow(standings).waitFor(WAIT);
    expect(await ownRow(standings).locator('td.cell.ok').count()).toBe(0);

    await submitThree(page, standings, w);
    await compileErrorExplained(page, w);
    await stillThereAfterReload(page, standings);
    if (restart) await catchesUpAfterRestart(page, who);
    const allowed = (p: string) => AXE_EVAL.test(p) || (restart && /ERR_CONNECTION_REFUSED|WebSocket/.test(p));
    expect(pageProblems(page, { allowStatus: [401] }).filter((p) => !allowed(p))).toEqual([]);
    await page.context().close();
  }

  it('at desktop width, with the server restarted under the open page at the end', () => wholeContest(DESKTOP, true), 300_000);

  it('at phone width', () => wholeContest(PHONE, false), 300_000);

  it('on a 1080p projector: the standings and a problem read well and pass axe', async () => {
    const who = await participant(admin, judge.url, 'projector');
    await who.client.call(ops.enrol, { params: { idOrSlug: 'final' }, body: {} });
    const page = await chromium.newPage({ width: 1920, height: 1080 });
    await signIn(page, judge.url, who, '/a/final/standings');
    await page.locator('.standings tbody tr').first().waitFor(WAIT);
    await look(page, 'projector-standings', 1920);
    await page.goto(`${judge.url}/a/final/p/sum`);
    await page.getByRole('region', { name: 'Statement' }).getByRole('heading', { name: 'Sum of two' }).waitFor(WAIT);
    await look(page, 'projector-problem', 1920);
    expect(pageProblems(page, { allowStatus: [401] }).filter((p) => !AXE_EVAL.test(p))).toEqual([]);
    await page.context().close();
  }, 120_000);
});
