import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { BROKEN_CPP, CORRECT_CPP, MAX_UPLOAD, pasteCode, signIn, SLOW_PY, submitWorld, WRONG_PY, type SubmitWorld } from './submit-world.js';

/**
 * Submitting from the problem page and watching the verdict arrive, in Debian's Chromium against a
 * real `judge up` whose runner compiles and runs in the real sandbox: pasted C++ that is accepted,
 * a wrong Python file, a compile error and its compiler output, a draft that survives a reload, a
 * file refused before sending, the submission page with its tests and failed sample, and the
 * notification switch. The same flow at phone width. axe checks each page.
 */

const VERDICT_MS = 90_000;

describe('submitting and watching the verdict arrive', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let world: SubmitWorld;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 62500 });
    world = await submitWorld(judge);
    chromium = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  const problemPath = () => `/a/${world.act.slug}/p/${world.problemSlug}`;
  const rows = (page: Page) => page.locator('.problem-submissions tbody tr');

  /** Submits what the form holds; the new submission is listed (queued) from the submit's own answer. */
  async function submitAndSeeQueued(page: Page): Promise<void> {
    const before = await rows(page).count();
    await page.locator('.submit-form button[type=submit]').click();
    await expect.poll(() => rows(page).count(), { timeout: 5000, interval: 20 }).toBe(before + 1);
  }

  async function openProblem(page: Page, viewport: Viewport, name: string) {
    await signIn(page, judge.url, await world.participant(name), problemPath());
    await page.locator('.submit-form .cm-content').waitFor();
    await page.locator('.language-select').selectOption('cpp');
    expect(viewport.width).toBe(page.viewportSize()?.width);
  }

  async function flow(viewport: Viewport, name: string) {
    const page = await chromium.newPage(viewport);
    await openProblem(page, viewport, name);
    await checkA11y(page, 'the problem page with the submit panel');

    await pasteCode(page, CORRECT_CPP);
    // how soon it is listed is measured by bench/web-pages.mjs, not asserted on a shared machine
    await submitAndSeeQueued(page);
    await expect.poll(() => rows(page).first().getAttribute('data-state')).toMatch(/queued|running|completed/);
    // the verdict arrives through the socket: nothing reloads the page
    await rows(page).first().locator('[data-verdict=AC]').waitFor({ timeout: VERDICT_MS });
    expect(await rows(page).first().textContent()).toContain('Accepted');
    await screenshot(page, `submit-accepted-${name}`);

    await page.locator('input[type=file]').setInputFiles({ name: 'wrong.py', mimeType: 'text/x-python', buffer: Buffer.from(WRONG_PY) });
    expect(await page.locator('.language-select').inputValue()).toBe('python3');
    await submitAndSeeQueued(page);
    await rows(page).first().locator('[data-verdict=WA]').waitFor({ timeout: VERDICT_MS });
    return page;
  }

  it('at desktop width: pasted C++ is accepted and a wrong Python file is not, live; a slow one shows the test it is on; a compile error shows its compiler output', async () => {
    const page = await flow({ width: 1280, height: 800 }, 'desk');

    // while it runs, the runner's progress shows as the test being run, pushed by the socket
    await page.locator('.language-select').selectOption('python3');
    await pasteCode(page, SLOW_PY);
    await submitAndSeeQueued(page);
    await expect.poll(() => rows(page).first().textContent(), { timeout: VERDICT_MS, interval: 50 }).toMatch(/Running: test [1-3] of 3/);
    await rows(page).first().locator('[data-verdict=AC]').waitFor({ timeout: VERDICT_MS });

    await pasteCode(page, BROKEN_CPP);
    await page.locator('.language-select').selectOption('cpp');
    await submitAndSeeQueued(page);
    await rows(page).first().locator('[data-verdict=CE]').waitFor({ timeout: VERDICT_MS });
    await rows(page).first().getByRole('link').click();
    await page.locator('.compile-output pre').waitFor();
    expect(await page.locator('.compile-output pre').textContent()).toMatch(/error/);
    expect(await page.locator('.compile-output details').getAttribute('open')).not.toBeNull();
    await checkA11y(page, 'the page of a submission that did not compile');
    await screenshot(page, 'submission-compile-error');
    expect(pageProblems(page, { allowStatus: [401] })).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('the submission page shows source, verdict, time and memory, the tests, and the failed sample in full', async () => {
    const page = await chromium.newPage();
    await openProblem(page, { width: 1280, height: 800 }, 'sampler');
    await page.locator('input[type=file]').setInputFiles({ name: 'wrong.py', mimeType: 'text/x-python', buffer: Buffer.from(WRONG_PY) });
    await submitAndSeeQueued(page);
    await rows(page).first().locator('[data-verdict=WA]').waitFor({ timeout: VERDICT_MS });
    await rows(page).first().getByRole('link').click();

    await page.locator('.source-file .cm-content').waitFor();
    expect(await page.locator('.source-file .cm-content').textContent()).toContain('print(a + b + 1)');
    expect(await page.locator('.source-file a[download]').getAttribute('download')).toBe('wrong.py');
    expect(await page.locator('.submission-facts .facts-verdict').textContent()).toContain('Wrong answer');
    // time and memory come from the judging's details, a download of its own after the page
    await expect.poll(() => page.locator('.submission-facts').textContent()).toMatch(/Time \(most\)\s*\d+ ms/);
    expect(await page.locator('.submission-facts').textContent()).toMatch(/Memory \(most\)\s*[\d.]+ (KiB|MiB)/);
    expect(await page.locator('.tests-table tbody tr').count()).toBe(1);
    expect(await page.locator('.tests-table tbody tr').first().getAttribute('data-test')).toBe('sample/1');
    const sample = page.locator('.sample-failure[data-test="sample/1"]');
    await expect.poll(() => sample.locator('pre').allTextContents()).toEqual(['1 2\n', '3\n', '4\n']);
    await checkA11y(page, 'the page of a wrong answer');
    await screenshot(page, 'submission-wrong-answer');

    await page.getByRole('link', { name: 'Your submissions' }).click();
    await page.locator('.submissions-page tbody tr').first().waitFor();
    expect(await page.locator('.submissions-page tbody tr').count()).toBe(1);
    await checkA11y(page, 'the list of submissions');
    await screenshot(page, 'submissions-list');
    expect(pageProblems(page, { allowStatus: [401] })).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('keeps the draft over a reload, refuses a too large file before sending, and asks for notifications from a click', async () => {
    const page = await chromium.newPage({ width: 1280, height: 800 }, { permissions: ['notifications'] });
    await openProblem(page, { width: 1280, height: 800 }, 'drafter');
    await pasteCode(page, '// my draft\nint main() {}\n');
    await page.reload();
    await page.locator('.submit-form .cm-content').waitFor();
    expect(await page.locator('.submit-form .cm-content').textContent()).toContain('// my draft');

    // Tab indents inside the editor; Escape then Tab leaves it, as the hint under it says
    await page.locator('.submit-form .cm-content').click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate<boolean>(`document.activeElement.classList.contains('cm-content')`)).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<boolean>(`document.activeElement.classList.contains('cm-content')`)).toBe(false);
    expect(await page.locator('.submit-form .editor-field').textContent()).toContain('press Esc, then Tab');

    await page.locator('input[type=file]').setInputFiles({ name: 'big.cpp', mimeType: 'text/plain', buffer: Buffer.alloc(MAX_UPLOAD + 1, 'x') });
    const refusal = page.locator('.submit-notices .refusal');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('big.cpp is too large (20001 B); each file may be at most 20000 B');
    expect(await page.locator('.submit-form button[type=submit]').isDisabled()).toBe(true);
    await screenshot(page, 'submit-too-large');
    await page.getByRole('button', { name: 'Write in the editor instead' }).click();
    expect(await page.locator('.submit-form button[type=submit]').isDisabled()).toBe(false);

    const notify = page.getByRole('button', { name: 'Notify me of verdicts' });
    await notify.click();
    await expect.poll(() => page.locator('.notify-button').getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate<string | null>(`localStorage.getItem('judge.notifyVerdicts')`)).toBe('on');
    await page.reload();
    await expect.poll(() => page.locator('.notify-button').getAttribute('aria-pressed')).toBe('true');
    expect(pageProblems(page, { allowStatus: [401] })).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('at phone width: the same submitting and live verdicts', async () => {
    const page = await flow(PHONE, 'phone');
    await checkA11y(page, 'the problem page at phone width');
    await screenshot(page, 'submit-phone');
    await rows(page).first().getByRole('link').click();
    await page.locator('.tests-table').waitFor();
    await checkA11y(page, 'a submission at phone width');
    await screenshot(page, 'submission-phone');
    expect(pageProblems(page, { allowStatus: [401] })).toEqual([]);
    await page.context().close();
  }, 300_000);
  it('after the server restarts under an open page, the page reconnects and verdicts arrive live again', async () => {
    const page = await chromium.newPage();
    await openProblem(page, { width: 1280, height: 800 }, 'restarter');
    // the socket is cut: the page says live updates are off, then reconnects on its backoff
    await judge.stop();
    await page.locator('.live-off').waitFor({ timeout: 30_000 });
    await judge.restart();
    await page.locator('.live-off').waitFor({ state: 'detached', timeout: 60_000 });
    await pasteCode(page, CORRECT_CPP);
    await submitAndSeeQueued(page);
    await rows(page).first().locator('[data-verdict=AC]').waitFor({ timeout: VERDICT_MS });
    expect(pageProblems(page, { allowStatus: [401] }).filter((p) => !/ERR_CONNECTION_REFUSED|WebSocket/.test(p))).toEqual([]);
    await page.context().close();
  }, 180_000);
});
