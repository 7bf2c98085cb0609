import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';

/**
 * The sign-in page's identity providers (decisions §4), in a real Chromium on a real `judge up`: a
 * button for each enabled provider that starts its sign-in with where to go on and whether to stay
 * signed in, none for a disabled one, and why a sign-in through one came back refused. The round
 * trip through a provider itself is tested against a real OpenID provider in the server's tests.
 */
describe('identity providers on the sign-in page', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;

  beforeAll(async () => {
    // nothing is judged here, so no runner (its uid base, were it started, is 65200)
    judge = await startJudgeUp({ runner: false, runnerUidBase: 65200 });
    chromium = await openBrowser();
    admin = await judge.admin();
    await admin.call(ops.createRole, { body: { name: 'Pupil', permissions: [] } });
    const provider = (slug: string, displayName: string, enabled: boolean) =>
      admin.call(ops.createProvider, { body: { slug, displayName, issuer: 'https://login.school.example', clientId: 'judge', enabled, unmappedBehavior: 'defaultTemplate', defaultTemplateName: 'Pupil' } });
    await provider('school', 'School accounts', true);
    await provider('old', 'Old directory', false);
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401] }).filter((p) => !/blocked eval/.test(p));
  const fitsWidth = (page: Page) => page.evaluate<boolean>(`document.documentElement.scrollWidth <= window.innerWidth`);

  it('offers a button for each enabled provider, carrying where to go on and the "keep me signed in" choice', async () => {
    const page = await chromium.newPage();
    await page.goto(`${judge.url}/sign-in?next=${encodeURIComponent('/staff')}`);
    const button = page.getByRole('link', { name: 'Sign in with School accounts' });
    await button.waitFor();
    expect(await page.getByRole('link', { name: 'Sign in with Old directory' }).count()).toBe(0);
    expect(await button.getAttribute('href')).toBe('/api/v1/identity/providers/school/challenge?returnUrl=%2Fstaff&remember=false');
    await page.getByLabel('Keep me signed in on this computer').check();
    await expect.poll(() => button.getAttribute('href')).toBe('/api/v1/identity/providers/school/challenge?returnUrl=%2Fstaff&remember=true');
    // the password form is still there beside it
    await page.getByLabel(/User name or email/).waitFor();
    await checkA11y(page, 'sign-in with a provider');
    await screenshot(page, 'sign-in-providers');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  });

  it('says why a sign-in through a provider came back refused, on a phone too', async () => {
    const page = await chromium.newPage(PHONE);
    await page.goto(`${judge.url}/sign-in?provider=school&error=provider.unmapped`);
    await page.getByRole('alert').getByText('School accounts does not say that your account may use this judge.').waitFor();
    await page.goto(`${judge.url}/sign-in?provider=school&error=provider.ticket.missing`);
    await page.getByRole('alert').getByText('The sign-in with School accounts took too long or was started elsewhere.').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await checkA11y(page, 'sign-in, a provider refused');
    await screenshot(page, 'sign-in-provider-refused');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  });
});
