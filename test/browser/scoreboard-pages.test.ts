import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverNow } from './activity-fixtures.js';
import { DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';
import { ACCEPTED, CUP, moreParticipants, setUpCup, submitAndJudge, type Cup } from './standings-world.js';

const WAIT = { timeout: 30_000 };
const PROJECTOR = { width: 1920, height: 1080 };

/**
 * The room's scoreboards (decisions §23) in a real Chromium on a real `judge up` that judges:
 * signed out, the public scoreboard shows frozen cells during a freeze and the final ones after
 * the reveal; the projector scrolls long standings by itself and follows results live; a display
 * link opens it with no sign-in at all.
 */
describe('scoreboard pages in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let cup: Cup;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 63700 });
    chromium = await openBrowser();
    admin = await judge.admin();
    cup = await setUpCup(judge, admin);
    await admin.call(ops.updateActivity, { params: { idOrSlug: CUP }, body: { slug: CUP, publicScoreboard: true } });
  }, 180_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed and the CSP refuses; a 404 is what a private board answers
  const scriptProblems = (page: Page) => pageProblems(page).filter((p) => !/status of 40[134]|blocked eval/.test(p));
  const row = (page: Page, userId: string) => page.locator(`.sb-table tbody tr[data-user="${userId}"]`);
  const iso = (ms: number) => new Date(ms).toISOString();

  it('signed out: frozen cells during a freeze, the final ones after the reveal; medals and first solves marked', async () => {
    const { ann, bob } = cup.people;
    expect((await submitAndJudge(ann, ACCEPTED)).verdict).toBe('AC');
    const now = await serverNow(admin);
    await admin.call(ops.updateSeries, { params: { seriesId: cup.seriesId }, body: { rankingFreezeAt: iso(now - 1000), rankingRevealAt: iso(now + 3_600_000) } });
    expect((await submitAndJudge(bob, ACCEPTED)).verdict).toBe('AC');

    const page = await chromium.newPage(DESKTOP);
    await page.goto(`${judge.url}/a/${CUP}/scoreboard`);
    await row(page, bob.id).waitFor(WAIT);
    expect(await page.locator('.sb-frozen').textContent()).toContain('Standings frozen');
    const frozen = row(page, bob.id).locator('td.sb-cell.frozen');
    expect(await frozen.textContent()).toBe('1?');
    expect(await row(page, bob.id).locator('td.sb-cell.ok').count()).toBe(0);
    // ann's solve from before the freeze shows, first and with a medal
    expect(await row(page, ann.id).locator('td.sb-cell.ok.first').count()).toBe(1);
    expect(await row(page, ann.id).getAttribute('class')).toBe('medal-gold');
    expect(await row(page, bob.id).getAttribute('class')).toBeNull();
    await screenshot(page, 'scoreboard-frozen');
    const phone = await chromium.newPage(PHONE);
    await phone.goto(`${judge.url}/a/${CUP}/scoreboard`);
    await row(phone, bob.id).waitFor(WAIT);
    await screenshot(phone, 'scoreboard-frozen');
    await phone.context().close();

    // the reveal moves into the past: the page follows without a reload (the series change is a feed message)
    await admin.call(ops.updateSeries, { params: { seriesId: cup.seriesId }, body: { rankingRevealAt: iso((await serverNow(admin)) - 500) } });
    await row(page, bob.id).locator('td.sb-cell.ok').waitFor(WAIT);
    expect(await page.locator('.sb-frozen').count()).toBe(0);
    expect(await row(page, bob.id).getAttribute('class')).toBe('medal-gold');
    await page.reload();
    await row(page, bob.id).locator('td.sb-cell.ok').waitFor(WAIT);
    expect(await page.locator('td.sb-cell.frozen').count()).toBe(0);
    await screenshot(page, 'scoreboard-final');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('off: the page says it is not public; staff and the display link still open it', async () => {
    await admin.call(ops.updateActivity, { params: { idOrSlug: CUP }, body: { slug: CUP, publicScoreboard: false } });
    const page = await chromium.newPage(DESKTOP);
    await page.goto(`${judge.url}/a/${CUP}/scoreboard`);
    await page.locator('.sb-missing').waitFor(WAIT);
    const { token } = await admin.call(ops.rotateDisplayLink, { params: { idOrSlug: CUP } });
    await page.goto(`${judge.url}/display/${token}`);
    await row(page, cup.people.ann.id).waitFor(WAIT);
    await admin.call(ops.rotateDisplayLink, { params: { idOrSlug: CUP } });
    await page.reload();
    await page.locator('.sb-missing').waitFor(WAIT);
    await page.context().close();
    await admin.call(ops.updateActivity, { params: { idOrSlug: CUP }, body: { slug: CUP, publicScoreboard: true } });
  }, 120_000);

  it('the projector scrolls long standings at the set pace and follows a result live', async () => {
    await moreParticipants(admin, cup, 60);
    const page = await chromium.newPage(PROJECTOR);
    await page.goto(`${judge.url}/a/${CUP}/projector?pace=3`);
    const box = page.locator('.projector-scroll');
    await row(page, cup.people.cy.id).waitFor({ state: 'attached', ...WAIT });
    await screenshot(page, 'projector');
    const top = () => box.evaluate((el) => el.scrollTop);
    expect(await top()).toBe(0);
    // it holds at the top a few seconds, then moves
    await expect.poll(top, { timeout: 15_000 }).toBeGreaterThan(50);
    // the header row stays in view while the rows go by
    const head = await page.locator('.sb-table thead th').first().boundingBox();
    const boxAt = await box.boundingBox();
    expect(Math.abs(head!.y - boxAt!.y)).toBeLessThan(4);

    await submitAndJudge(cup.people.cy, ACCEPTED);
    await row(page, cup.people.cy.id).locator('td.sb-cell.ok').waitFor({ state: 'attached', ...WAIT });
    expect(await page.locator('.sb-live.on').count()).toBe(1);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 240_000);
});
