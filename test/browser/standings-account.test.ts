import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';
import { ACCEPTED, CUP, LEAGUE, markWindow, moreParticipants, setUpCup, setUpLeague, signInThroughPage, stillSameWindow, submitAndJudge, WRONG, type Cup } from './standings-world.js';

/**
 * The standings, the account page, registration and the live connection in a real Chromium on a
 * real `judge up` that judges in its sandbox: what a participant sees change without reloading.
 */
describe('standings and account in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let cup: Cup;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 62700 });
    chromium = await openBrowser();
    admin = await judge.admin();
    cup = await setUpCup(judge, admin);
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  const standings = `/a/${CUP}/standings`;
  /** The page's problems apart from refusals the app expects (the 401 of asking who is signed in before sign-in). */
  // zod (through the contract's schemas) probes whether eval is allowed, and the CSP rightly refuses
  const scriptProblems = (page: Page) => pageProblems(page).filter((p) => !/status of 40[139]|blocked eval/.test(p));
  const row = (page: Page, userId: string) => page.locator(`.standings tbody tr[data-user="${userId}"]`);

  async function annOnStandings(viewport = undefined as typeof PHONE | undefined): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, cup.people.ann, standings);
    await page.waitForURL(`**${standings}`);
    await row(page, cup.people.ann.id).waitFor();
    return page;
  }

  it('shows the ranking with the reader highlighted, and a judged submission changes it without a reload', async () => {
    const { ann, bob } = cup.people;
    const page = await annOnStandings();
    await expect.poll(() => page.locator('.standings tbody tr').count()).toBe(3);
    const own = row(page, ann.id);
    expect(await own.getAttribute('class')).toContain('own');
    expect(await own.getAttribute('aria-current')).toBe('true');
    expect(await own.locator('th').textContent()).toContain('(you)');
    // the problem column is a letter with the problem's name for hover and screen readers
    const head = page.locator('.standings thead th.problem');
    expect(await head.getAttribute('title')).toBe('Sum of two');
    expect(await head.textContent()).toBe('AA: Sum of two');
    await markWindow(page);

    await submitAndJudge(bob, WRONG);
    await row(page, bob.id).locator('td.cell.bad').waitFor();
    expect(await row(page, bob.id).locator('td.cell').textContent()).toContain('−1');
    expect((await submitAndJudge(bob, ACCEPTED)).verdict).toBe('AC');
    const solved = row(page, bob.id).locator('td.cell.ok.first');
    await solved.waitFor();
    expect(await solved.textContent()).toMatch(/^\+1\d+solved at minute \d+ after 2 attempts; first to solve$/);
    // bob now leads: the rows were reordered live
    await expect.poll(() => page.locator('.standings tbody tr').first().getAttribute('data-user')).toBe(bob.id);
    expect(await stillSameWindow(page)).toBe(true);
    expect(scriptProblems(page)).toEqual([]);
    await checkA11y(page, 'standings');
    await screenshot(page, 'standings');
    await page.context().close();
  }, 120_000);

  it('says live updates are off while the server restarts, and catches up by itself once it is back', async () => {
    const { cy } = cup.people;
    const page = await annOnStandings();
    await markWindow(page);
    expect(await page.locator('.live-off').count()).toBe(0);
    const restarted = judge.restart();
    await page.locator('.live-off').waitFor({ timeout: 30_000 });
    expect(await page.locator('.live-off').textContent()).toContain('Live updates are off');
    await screenshot(page, 'standings-live-off');
    await restarted;
    // judged right after the restart, most likely before the socket is back: the reconnect refetches
    await submitAndJudge(cy, WRONG);
    await row(page, cy.id).locator('td.cell.bad').waitFor({ timeout: 60_000 });
    await page.locator('.live-off').waitFor({ state: 'detached', timeout: 60_000 });
    expect(await stillSameWindow(page)).toBe(true);
    await page.context().close();
  }, 150_000);

  it('says the standings are frozen and shows hidden submissions as such', async () => {
    const { ann } = cup.people;
    const page = await annOnStandings();
    expect(await page.locator('.frozen-banner').count()).toBe(0);
    await admin.call(ops.updateSeries, { params: { seriesId: cup.seriesId }, body: { rankingFreezeAt: new Date(Date.now() - 1000).toISOString() } });
    await submitAndJudge(ann, ACCEPTED);
    await page.locator('.frozen-banner').waitFor();
    expect(await page.locator('.frozen-banner').textContent()).toContain('The standings are frozen');
    const cell = row(page, ann.id).locator('td.cell.frozen');
    await cell.waitFor();
    expect(await cell.textContent()).toContain('1 submission hidden by the freeze');
    await checkA11y(page, 'frozen standings');
    await screenshot(page, 'standings-frozen');
    await page.context().close();
  }, 120_000);

  it('fits a 360 px phone: the table scrolls inside its region with rank and name in place', async () => {
    const page = await annOnStandings(PHONE);
    const region = page.locator('.standings-region');
    const fits = await page.evaluate<boolean>(`window.innerWidth === 360 && document.documentElement.scrollWidth <= 360`);
    expect(fits, 'the page itself does not scroll sideways').toBe(true);
    await page.evaluate(`document.querySelector('.standings-region').scrollLeft = 400`);
    const name = await row(page, cup.people.ann.id).locator('th').boundingBox();
    const box = await region.boundingBox();
    expect(name!.x).toBeGreaterThanOrEqual(box!.x);
    expect(name!.x).toBeLessThan(box!.x + 80);
    await checkA11y(page, 'standings at 360 px');
    await screenshot(page, 'standings');
    await page.context().close();
  }, 60_000);

  it('shows points standings by series, with a picker when there are several', async () => {
    const { ann, cy } = cup.people;
    const { week2 } = await setUpLeague(admin, cup, [ann, cy]);
    expect((await submitAndJudge(cy, ACCEPTED, 'sum.py', { activity: LEAGUE, problem: 'sum-2' })).verdict).toBe('AC');
    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, ann, `/a/${LEAGUE}/standings`);
    await row(page, cy.id).locator('td.cell.ok').waitFor();
    // two series: columns by slug, the total in points
    expect(await page.locator('.standings thead th.problem span[aria-hidden]').allTextContents()).toEqual(['sum', 'sum-2']);
    expect(await row(page, cy.id).locator('td.total').textContent()).toBe('10');
    expect(await row(page, cy.id).locator('td.cell.ok').textContent()).toContain('10 points');
    await page.getByLabel('Series').selectOption({ label: 'Week 2' });
    await page.waitForURL(`**/a/${LEAGUE}/standings?series=${week2}`);
    await expect.poll(() => page.locator('.standings thead th.problem span[aria-hidden]').allTextContents()).toEqual(['A']);
    await checkA11y(page, 'points standings');
    await screenshot(page, 'standings-points');
    await page.context().close();
  }, 120_000);

  it('renders 1,000 participants at the top, with the leaders, and shows the reader\'s row on request', async () => {
    const made = Date.now();
    await moreParticipants(admin, cup, 1000);
    console.log(`standings: 1,000 participants made and enrolled in ${Date.now() - made} ms`);
    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, cup.people.cy, '/');
    const started = Date.now();
    await page.goto(`${judge.url}${standings}`);
    await expect.poll(() => page.locator('.standings tbody tr').count(), { timeout: 30_000 }).toBe(1003);
    console.log(`standings: 1,003 rows on screen ${Date.now() - started} ms after navigating`);
    const own = row(page, cup.people.cy.id);
    const region = await page.locator('.standings-region').boundingBox();
    expect(await page.locator('.standings-region').evaluate((r) => r.scrollTop), 'the leaders are what the table opens on').toBe(0);
    // cy ranks among the first by name, so showing the row keeps it where it is, in view
    await page.getByRole('button', { name: 'Show my row' }).click();
    const mine = await own.boundingBox();
    expect(mine!.y).toBeGreaterThanOrEqual(region!.y);
    expect(mine!.y + mine!.height).toBeLessThanOrEqual(region!.y + region!.height + 1);
    // scrolled to the far end, the own row sticks to the region's edge
    await page.evaluate(`(() => { const r = document.querySelector('.standings-region'); r.scrollTop = r.scrollHeight; })()`);
    const stuck = await own.boundingBox();
    expect(stuck!.y + stuck!.height).toBeLessThanOrEqual(region!.y + region!.height + 1);
    expect(stuck!.y).toBeGreaterThan(region!.y);
    await page.context().close();
  }, 240_000);

  it('edits the profile, and ends another session, which sends that browser to sign-in and back to where it was', async () => {
    const { bob } = cup.people;
    const other = await chromium.newPage();
    await signInThroughPage(other, judge.url, bob, standings);
    await other.waitForURL(`**${standings}`);
    // bob's account is the organisers' (setUpCup makes it): renaming takes the instance's leave
    await admin.call(ops.updateInstance, { body: { allowRenameStaffAccounts: true } });
    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, bob, '/account');
    await page.getByRole('heading', { name: 'Account' }).waitFor();

    await page.getByLabel('First name').fill('Robert');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your profile is saved.').waitFor();
    expect((await bob.api.call(ops.getAccount)).firstName).toBe('Robert');

    const sessions = page.locator('.sessions > li');
    await expect.poll(() => sessions.count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('.sessions > li.current').textContent()).toContain('This browser');
    await checkA11y(page, 'account');
    await screenshot(page, 'account');
    const before = await sessions.count();
    await page.getByRole('button', { name: /^Sign out there: Chrome/ }).first().click();
    await expect.poll(() => sessions.count()).toBe(before - 1);

    // the ended browser learns it from its socket and goes to sign-in, then back to the standings
    await other.waitForURL(/\/sign-in\?next=/, { timeout: 30_000 });
    expect(decodeURIComponent(new URL(other.url()).searchParams.get('next')!)).toBe(standings);
    await other.getByLabel(/User name or email/).fill(bob.username);
    await other.getByLabel(/^Password/).fill(bob.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL(`**${standings}`);
    await row(other, bob.id).waitFor();
    await other.context().close();
    await page.context().close();
  }, 120_000);

  it('changes the password: a wrong current one is refused in words, and the new one signs in', async () => {
    const { bob } = cup.people;
    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, bob, '/account');
    const fresh = 'a-brand-new-password';
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill(fresh);
    await page.getByLabel('New password again').fill(fresh);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is wrong.').waitFor();
    expect(await page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Current password').fill(bob.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/Your password is changed\. You are signed out everywhere else/).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel(/User name or email/).fill(bob.username);
    await page.getByLabel(/^Password/).fill(fresh);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${judge.url}/`);
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    bob.password = fresh;
    await page.context().close();
  }, 60_000);

  it('shows the account page at 360 px', async () => {
    const page = await chromium.newPage(PHONE);
    await signInThroughPage(page, judge.url, cup.people.cy, '/account');
    await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    await page.locator('.sessions > li').first().waitFor();
    expect(await page.evaluate<boolean>(`document.documentElement.scrollWidth <= window.innerWidth`)).toBe(true);
    await checkA11y(page, 'account at 360 px');
    await screenshot(page, 'account');
    await page.context().close();
  }, 60_000);

  it('registers a new account when registration is open, with a refusal shown at its field', async () => {
    for (const viewport of [undefined, PHONE]) {
      // the phone's account waits for an administrator's approval, and the page says so
      await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true, requireApproval: !!viewport } });
      const page = await chromium.newPage(viewport);
      const username = viewport ? 'dana-phone' : 'dana';
      await page.goto(`${judge.url}/sign-in`);
      await page.getByRole('link', { name: 'Register' }).click();
      await page.waitForURL(/\/register/);
      await page.getByLabel('Email address').fill(`${username}@school.example`);
      await page.getByLabel('User name').fill('bob');
      await page.getByLabel('Password', { exact: true }).fill('dana-password-1');
      await page.getByLabel('Password again').fill('dana-password-1');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('This user name is taken. Choose another one.').waitFor();
      expect(await page.getByLabel('User name').getAttribute('aria-invalid')).toBe('true');
      await checkA11y(page, 'register with an error');
      await screenshot(page, 'register');
      await page.getByLabel('User name').fill(username);
      await page.getByRole('button', { name: 'Create account' }).click();
      if (viewport) {
        await page.getByText('An administrator must approve it before you can join activities.').waitFor();
        await page.getByRole('link', { name: 'Continue' }).click();
      }
      await page.waitForURL(`${judge.url}/`);
      await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      expect(scriptProblems(page)).toEqual([]);
      await page.context().close();
    }
  }, 90_000);
});
