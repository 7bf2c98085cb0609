import { it } from 'vitest';
import { openBrowser, startJudgeUp } from './harness.js';
import { BROKEN_CPP, pasteCode, signIn, submitWorld } from './submit-world.js';

it('scratch', async () => {
  const judge = await startJudgeUp({ runnerUidBase: 62500 });
  const world = await submitWorld(judge);
  const chromium = await openBrowser();
  try {
    const page = await chromium.newPage();
    await signIn(page, judge.url, await world.participant('scratchy'), '/a/contest/p/sum');
    await page.locator('.submit-form .cm-content').waitFor();
    await page.locator('.language-select').selectOption('cpp');
    await pasteCode(page, BROKEN_CPP);
    await page.locator('.submit-form button[type=submit]').click();
    await page.locator('.problem-submissions tbody tr [data-verdict=CE]').waitFor({ timeout: 60000 });
    await page.locator('.problem-submissions tbody tr').first().getByRole('link').click();
    await page.locator('.source-file .cm-content').waitFor();
    await new Promise((r) => setTimeout(r, 1000));
    console.log(await page.evaluate(`[...document.querySelectorAll('.source-file .cm-gutterElement')].map((e) => e.style.height + '/' + e.getBoundingClientRect().height).join(' ')`));
    console.log(await page.evaluate(`[...document.querySelectorAll('.source-file .cm-line')].map((e) => e.getBoundingClientRect().height).join(' ')`));
    console.log(await page.evaluate(`getComputedStyle(document.querySelector('.source-file .cm-gutters')).fontSize + ' ' + getComputedStyle(document.querySelector('.source-file .cm-gutters')).lineHeight+ ' ' + getComputedStyle(document.querySelector('.source-file .cm-content')).lineHeight`));
    await page.screenshot({ path: 'test-artifacts/screenshots/scratch-src.png' });
  } finally {
    await chromium.close();
    await judge.dispose();
  }
}, 120_000);
