import type { Page } from 'playwright-core';
import { ops } from '@judge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, openBrowser, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { BROKEN_CPP, CORRECT_CPP, pasteCode, signIn, submitWorld, WRONG_PY, type SubmitWorld } from './submit-world.js';

/**
 * "Run on samples" from the problem page, in Debian's Chromium against a real `judge up` whose
 * runner judges in the real sandbox: correct, wrong and non-compiling code each show every
 * sample's verdict, time, input, expected and actual output; afterwards the reader has no
 * submission, the standings and the submissions left are as before. At desktop and phone width.
 */

const VERDICT_MS = 90_000;

describe('Run on samples', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let world: SubmitWorld;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 63500 });
    world = await submitWorld(judge);
    const admin = await judge.admin();
    // a limit to see unchanged: sample runs never count against it
    await admin.call(ops.updateActivity, { params: { idOrSlug: world.act.slug }, body: { slug: world.act.slug, maxSubmissionsPerProblem: 5 } });
    chromium = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  const result = (page: Page) => page.locator('.sample-run');

  async function runAndWait(page: Page, verdict: string): Promise<void> {
    await page.getByRole('button', { name: 'Run on samples' }).click();
    await result(page).locator(`.sample-run-head [data-verdict=${verdict}]`).waitFor({ timeout: VERDICT_MS });
  }

  async function flow(viewport: Viewport, name: string) {
    const page = await chromium.newPage(viewport);
    const who = await world.participant(name);
    await signIn(page, judge.url, who, `/a/${world.act.slug}/p/${world.problemSlug}`);
    await page.locator('.submit-form .cm-content').waitFor();
    const admin = await judge.admin();
    const standings = async () => (await admin.call(ops.getRanking, { params: { idOrSlug: world.act.slug } })).rows.find((r) => r.userName === name) ?? null;
    const before = await standings();
    const left = await page.locator('.submit-actions .muted').textContent();
    expect(left).toContain('5 submissions left');

    await page.locator('.language-select').selectOption('cpp');
    await pasteCode(page, CORRECT_CPP);
    await runAndWait(page, 'AC');
    const sample = result(page).locator('[data-sample="sample/1"]');
    await expect.poll(() => sample.locator('[data-verdict=AC]').count()).toBe(1);
    expect(await sample.textContent()).toMatch(/ms/);
    // an accepted sample is folded; opened, it shows input, expected and actual output
    await sample.locator('summary').click();
    const texts = await sample.locator('.sample-run-text').allTextContents();
    expect(texts).toEqual(['1 2\n', '3\n', '3\n']);
    await checkA11y(page, 'the problem page with a sample run');

    await page.locator('.language-select').selectOption('python3');
    await pasteCode(page, WRONG_PY);
    await runAndWait(page, 'WA');
    const wrong = await sample.locator('.sample-run-text').allTextContents();
    expect(wrong.slice(0, 3)).toEqual(['1 2\n', '3\n', '4\n']);
    // and the judge's words on it
    expect(wrong[3]).toMatch(/expected "3", got "4"/);
    await screenshot(page, 'sample-run-wrong');

    await page.locator('.language-select').selectOption('cpp');
    await pasteCode(page, BROKEN_CPP);
    await runAndWait(page, 'CE');
    expect(await result(page).locator('details pre').first().textContent()).toMatch(/error/);
    await screenshot(page, 'sample-run-compile-error');
    await checkA11y(page, 'the problem page with a compile error of a sample run');

    // never a submission: nothing listed, the same submissions left, the standings unchanged
    await page.reload();
    await page.locator('.submit-form .cm-content').waitFor();
    expect(await page.locator('.problem-submissions tbody tr').count()).toBe(0);
    expect(await page.locator('.submit-actions .muted').textContent()).toBe(left);
    expect(await standings()).toEqual(before);
    await page.close();
  }

  it('at desktop width: correct, wrong and non-compiling code, each sample shown; nothing counted', async () => {
    await flow({ width: 1280, height: 800 }, 'desk');
  }, 300_000);

  it('at phone width, the same', async () => {
    await flow(PHONE, 'phone');
  }, 300_000);
});
