import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextOutboxMail } from '../../packages/server/test/support/outbox.js';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { ACCEPTED, CUP, moreParticipants, setUpCup, signInThroughPage, submitAndJudge, WRONG, type Cup, type Person } from './standings-world.js';

/**
 * What a class of 30 broke in a real term, in a real Chromium on a real `judge up` that judges:
 * students renaming themselves on /account, "Keep me signed in" ticked on a lab PC, the standings
 * hiding the leaders and widening a phone, icpc pages speaking in points, pasted Python judged as
 * C without a word, and the small things (en-GB dates, /health asked again and again, two controls
 * named "Language", a sign-in line about a page nobody asked for).
 */
describe('a term in a real school, in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let cup: Cup;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 62650 });
    chromium = await openBrowser();
    admin = await judge.admin();
    cup = await setUpCup(judge, admin);
  }, 180_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod (through the contract's schemas) probes whether eval is allowed, and the CSP rightly refuses
  const scriptProblems = (page: Page) => pageProblems(page).filter((p) => !/status of 40[139]|blocked eval/.test(p));
  const signedIn = async (who: Person, path: string, viewport?: Viewport, options = {}) => {
    const page = await chromium.newPage(viewport, options);
    await signInThroughPage(page, judge.url, who, path);
    return page;
  };

  it('shows a class account\'s user name and name read-only, saying why, and still takes a new address once it is confirmed', async () => {
    for (const viewport of [undefined, PHONE]) {
      const page = await signedIn(cup.people.cy, '/account', viewport);
      await page.getByRole('heading', { name: 'Account' }).waitFor();
      const why = page.locator('.account-fixed');
      expect(await why.textContent()).toContain('given by your teacher or the organisers');
      for (const label of ['User name', 'First name', 'Last name']) {
        const field = page.getByLabel(label, { exact: true });
        expect(await field.getAttribute('readonly'), label).not.toBeNull();
        expect(await field.getAttribute('aria-describedby'), label).toBe(await why.getAttribute('id'));
      }
      expect(await page.getByLabel('New address').getAttribute('readonly')).toBeNull();
      // with nothing of the profile to change, there is nothing to save
      expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await checkA11y(page, 'account with fixed names');
      await screenshot(page, 'account-fixed-names');
      await page.context().close();
    }
    const page = await signedIn(cup.people.cy, '/account');
    await page.getByLabel('New address').fill('cy@home.example');
    await page.getByRole('button', { name: 'Change address' }).click();
    await page.getByText('We mailed a code to cy@home.example.').waitFor();
    const mail = await nextOutboxMail(judge.dataDir, 'cy@home.example');
    await page.goto(mail.links.find((l) => l.includes('/confirm-email?'))!);
    await page.getByText('Your address is now cy@home.example.').waitFor();
    expect(await cup.people.cy.api.call(ops.getAccount)).toMatchObject({ email: 'cy@home.example', username: 'cy', firstName: 'Cy' });
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('leaves "Keep me signed in" unticked on a lab PC unless the instance ticks it, and speaks of an asked-for page only when there is one', async () => {
    const page = await chromium.newPage();
    await page.goto(`${judge.url}/`);
    await page.waitForURL(/\/sign-in$/);
    const keep = page.getByLabel('Keep me signed in on this computer');
    expect(await keep.isChecked()).toBe(false);
    expect(await page.locator('.notice').count()).toBe(0);
    await page.goto(`${judge.url}/account`);
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByText('Sign in to go on to the page you asked for.').waitFor();
    await screenshot(page, 'sign-in-asked');

    await admin.call(ops.updateInstance, { body: { keepSignedInByDefault: true } });
    try {
      const other = await chromium.newPage();
      await other.goto(`${judge.url}/sign-in`);
      await expect.poll(() => other.getByLabel('Keep me signed in on this computer').isChecked(), { timeout: 30_000 }).toBe(true);
      await other.context().close();
    } finally {
      await admin.call(ops.updateInstance, { body: { keepSignedInByDefault: false } });
    }
    // unticked, the session is a browser-session cookie: gone when the lab PC's browser closes
    await signInThroughPage(page, judge.url, cup.people.ann, '/');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'judge_session');
    expect(cookie?.expires).toBe(-1);
    await page.context().close();
  }, 60_000);

  it('says solved and tries in an icpc contest, never points, and writes dates as an en-GB browser does', async () => {
    const { bob } = cup.people;
    expect((await submitAndJudge(bob, WRONG)).verdict).toBe('WA');
    expect((await submitAndJudge(bob, ACCEPTED)).verdict).toBe('AC');
    const page = await signedIn(bob, `/a/${CUP}/p/sum`, undefined, { locale: 'en-GB' });
    const status = page.locator('.problem-heading .status');
    await status.waitFor();
    expect(await status.textContent()).toBe('Solved · 2 tries');
    const mine = page.locator('.submissions-table');
    await mine.locator('tbody tr').nth(1).waitFor();
    expect(await mine.locator('thead').textContent()).not.toContain('Score');
    expect(await mine.textContent()).not.toMatch(/\d \/ \d/);
    // 27 Nov 2026, 14:05, as en-GB writes it; not Nov 27, 2026, 2:05 PM
    const when = await mine.locator('tbody time').first().textContent();
    expect(when).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    await page.locator('tbody tr').first().getByRole('link').click();
    await page.locator('.submission-facts').waitFor();
    expect(await page.locator('.submission-facts').textContent()).not.toContain('Score');
    await screenshot(page, 'icpc-submission');
    await page.context().close();
  }, 180_000);

  it('asks /health once per page load, and names the page language and the programming language apart', async () => {
    const page = await signedIn(cup.people.ann, '/');
    const problemPage = `${judge.url}/a/${CUP}/p/sum`;
    // asked once the problem page's document was asked for, not by the page before it
    const asked: string[] = [];
    let loading = false;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.url() === problemPage) loading = true;
      if (loading && new URL(r.url()).pathname === '/api/v1/health') asked.push(r.url());
    });
    // a running contest: a problem page shows its clock, the maintenance banner's watch and the submit form, all wanting /health
    const now = Date.now();
    await admin.call(ops.updateSeries, { params: { seriesId: cup.seriesId }, body: { startDate: new Date(now - 3600_000).toISOString(), endDate: new Date(now + 4 * 3600_000).toISOString() } });
    await page.goto(problemPage);
    await page.locator('.contest-clock').waitFor();
    await page.locator('.submit-form .cm-content').waitFor();
    await page.waitForLoadState('networkidle');
    expect(asked).toHaveLength(1);
    expect(await page.getByRole('combobox', { name: 'Page language' }).count()).toBe(1);
    expect(await page.getByRole('combobox', { name: 'Programming language' }).count()).toBe(1);
    expect(await page.getByRole('combobox', { name: 'Language', exact: true }).count()).toBe(0);
    await checkA11y(page, 'problem page');
    await page.context().close();
  }, 60_000);

  it('chooses Python for pasted Python while C is chosen, and a compile error of Python sent as C says so', async () => {
    const { ann } = cup.people;
    const page = await signedIn(ann, `/a/${CUP}/p/sum`, undefined, { permissions: ['clipboard-read', 'clipboard-write'] });
    const select = page.locator('.language-select');
    await select.selectOption('c');
    await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(ACCEPTED)})`);
    await page.locator('.submit-form .cm-content').click();
    await page.keyboard.press('Control+V');
    await expect.poll(() => select.inputValue(), { timeout: 30_000 }).toBe('python3');
    expect(await page.locator('.submit-form [role=status]').first().textContent()).toContain('The pasted code looks like Python');
    await screenshot(page, 'submit-pasted-python');

    // typed (not pasted) under the wrong language, it is said before sending
    await select.selectOption('c');
    await page.getByText(/This code looks like Python, but C.* is chosen/).waitFor();

    // sent as C anyway (by an older page, or a script): the compile error explains itself
    const sent = await ann.api.submit(CUP, 'sum', [{ name: 'sum.c', bytes: ACCEPTED }], { language: 'c' });
    await page.goto(`${judge.url}/a/${CUP}/submissions/${sent.id}`);
    const hint = page.locator('.wrong-language');
    await hint.waitFor({ timeout: 90_000 });
    expect(await hint.textContent()).toMatch(/looks like Python, but it was compiled as C.*Choose Python/);
    await checkA11y(page, 'compile error in the wrong language');
    await screenshot(page, 'submission-wrong-language');
    await page.context().close();
  }, 180_000);

  it('opens the standings at the top with the leaders, shows the reader\'s row on request, and keeps a phone at its width', async () => {
    await moreParticipants(admin, cup, 40);
    const last = { username: 'p0039', password: '' };
    const issued = await admin.call(ops.resetUserPassword, { params: { id: (await admin.call(ops.lookupUsers, { query: { q: 'p0039' } }))[0]!.id } });
    last.password = issued.password;
    for (const viewport of [undefined, PHONE]) {
      const page = await chromium.newPage(viewport);
      await signInThroughPage(page, judge.url, last, `/a/${CUP}/standings`);
      const own = page.locator('.standings tr.own');
      await own.waitFor();
      const region = page.locator('.standings-region');
      expect(await region.evaluate((r) => r.scrollTop), 'the table opens at the top').toBe(0);
      const leader = await page.locator('.standings tbody tr').first().boundingBox();
      const box = await region.boundingBox();
      expect(leader!.y).toBeGreaterThanOrEqual(box!.y);
      if (viewport) {
        // the page stays at the phone's width; only the table's own box scrolls sideways
        const widths = await page.evaluate<number[]>(`[window.innerWidth, document.documentElement.scrollWidth, document.body.scrollWidth]`);
        const wider = await page.evaluate<string[]>(
          `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 360.5 && !e.closest('.standings-region td, .standings-region th')).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`,
        );
        expect(widths, `wider than the phone: ${wider.join(', ')}`).toEqual([360, 360, 360]);
      }
      await screenshot(page, 'standings-top');
      await page.getByRole('button', { name: 'Show my row' }).click();
      await expect.poll(() => region.evaluate((r) => r.scrollTop), { timeout: 30_000 }).toBeGreaterThan(0);
      const mine = await own.boundingBox();
      const after = await region.boundingBox();
      expect(mine!.y).toBeGreaterThanOrEqual(after!.y);
      expect(mine!.y + mine!.height).toBeLessThanOrEqual(after!.y + after!.height + 1);
      await checkA11y(page, 'standings');
      await page.context().close();
    }
  }, 180_000);
});
