import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedProblem } from '../../packages/server/test/support/packaged-problem.js';
import { legacyPackage, zipOf } from '../../packages/server/test/zips.js';
import { MINUTE, serverNow } from './activity-fixtures.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, DESKTOP, openBrowser, pageProblems, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';
import { ACCEPTED, submitAndJudge, WRONG, type Person } from './standings-world.js';
import { signIn } from './submit-world.js';

const GALA = 'gala';
const WAIT = { timeout: 20_000 };
const PROJECTOR = { width: 1920, height: 1080 };

/**
 * The award ceremony in a real Chromium on a real `judge up` whose local runner judges: a contest
 * frozen before anything was judged, ended and finalised; the presenter steps with the keyboard
 * to exactly the final standings, pausing on each award, and a second screen following the
 * presenter shows the same rows at every step.
 */
describe('the award ceremony in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;

  async function person(username: string, firstName: string): Promise<Person> {
    const issued = await admin.call(ops.createUser, { body: { username, firstName, lastName: 'Gala' } });
    const api = new JudgeClient({ baseUrl: judge.url });
    await api.login(issued.username, issued.password);
    await api.call(ops.enrol, { params: { idOrSlug: GALA }, body: {} });
    return { id: issued.userId, username: issued.username, password: issued.password, api };
  }

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 63000 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    const at = (ms: number) => new Date(ms).toISOString();
    await admin.call(ops.createActivity, { body: { slug: GALA, name: 'Gala cup', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    // frozen a minute ago: everything judged from now on is hidden until the ceremony
    const series = await admin.call(ops.createSeries, {
      params: { idOrSlug: GALA },
      body: { slug: 'main', name: 'Main', startDate: at(now - 60 * MINUTE), endDate: at(now + 60 * MINUTE), rankingFreezeAt: at(now - MINUTE), rankingRevealAt: at(now + 120 * MINUTE) },
    });
    const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum of two', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum of two')), 'sum.zip');
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    const [ann, bob, cy] = [await person('ann', 'Ann'), await person('bob', 'Bob'), await person('cy', 'Cy')];
    await submitAndJudge(bob, WRONG, 'sum.py', { activity: GALA, problem: 'sum' });
    await submitAndJudge(ann, ACCEPTED, 'sum.py', { activity: GALA, problem: 'sum' });
    await submitAndJudge(bob, ACCEPTED, 'sum.py', { activity: GALA, problem: 'sum' });
    await submitAndJudge(cy, WRONG, 'sum.py', { activity: GALA, problem: 'sum' });
    // the contest ends now, and is finalised: its awards are computed
    await admin.call(ops.updateSeries, { params: { seriesId: series.id }, body: { endDate: at((await serverNow(admin)) - 1000) } });
    await admin.call(ops.finalizeActivity, { params: { idOrSlug: GALA } });
  }, 240_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  /** The rows a screen shows, top to bottom: each row's participant and rank. */
  const shown = (page: Page) =>
    page.evaluate<string[]>(
      `[...document.querySelectorAll('.ceremony-rows li')].sort((a, b) => a.dataset.pos - b.dataset.pos).map((li) => li.dataset.user + '#' + li.dataset.rank)`,
    );
  const stepOf = async (page: Page) => Number(await page.locator('.ceremony').getAttribute('data-step'));

  it('steps by key presses to the final standings, pausing on each award, with a follower in step', async () => {
    const presenter = await chromium.newPage(PROJECTOR, { locale: 'en-GB' });
    const follower = await chromium.newPage(DESKTOP, { locale: 'en-GB' });
    const who = { username: ADMIN_USERNAME, password: ADMIN_PASSWORD };
    await signIn(presenter, judge.url, who, `/ceremony/${GALA}`);
    await signIn(follower, judge.url, who, `/ceremony/${GALA}`);
    await follower.goto(`${judge.url}/ceremony/${GALA}?follow=1`);
    await presenter.locator('.ceremony-rows li').first().waitFor(WAIT);
    await follower.locator('.ceremony[data-following=true] .ceremony-rows li').first().waitFor(WAIT);
    const c = await admin.call(ops.getCeremony, { params: { idOrSlug: GALA } });
    expect(c.steps.length).toBeGreaterThan(3);
    // frozen: nobody has a result yet, all three tied
    expect((await shown(presenter)).map((r) => r.split('#')[1])).toEqual(['1', '1', '1']);
    expect(await presenter.locator('.cell.hidden').count()).toBe(3);
    await screenshot(presenter, 'ceremony-frozen-1920');

    const names = new Map((await admin.call(ops.getRanking, { params: { idOrSlug: GALA } })).rows.map((r) => [r.userId, r.userName]));
    const paused: string[] = [];
    for (let i = 1; i <= c.steps.length; i++) {
      await presenter.keyboard.press(i % 2 ? 'ArrowRight' : ' ');
      await expect.poll(() => stepOf(presenter), WAIT).toBe(i);
      await expect.poll(() => stepOf(follower), WAIT).toBe(i);
      expect(await shown(follower)).toEqual(await shown(presenter));
      const s = c.steps[i - 1]!;
      if (s.kind === 'award') {
        const card = presenter.locator('.award-card');
        await card.waitFor(WAIT);
        expect(await card.locator('.award-name').textContent()).toBe(names.get(s.userId));
        for (const key of s.awards) expect(await card.locator(`li[data-award="${key}"]`).count()).toBe(1);
        paused.push(s.userId);
        if (paused.length === 1) await screenshot(presenter, 'ceremony-award-1920');
      } else {
        expect(await presenter.locator('.award-card').count()).toBe(0);
      }
    }
    // every award holder paused the ceremony once, the winner last
    const awards = c.awards;
    const holders = new Set(awards.flatMap((a) => a.userIds));
    expect(new Set(paused)).toEqual(holders);
    expect(paused.at(-1)).toBe(awards.find((a) => a.key === 'winner')!.userIds[0]);
    // exactly the final standings
    const final = await admin.call(ops.getRanking, { params: { idOrSlug: GALA } });
    expect(await shown(presenter)).toEqual(final.rows.map((r) => `${r.userId}#${r.rank}`));
    expect(await presenter.locator('.cell.hidden').count()).toBe(0);
    await screenshot(presenter, 'ceremony-final-1920');
    await screenshot(follower, 'ceremony-final-follower-1280');

    // back and home go back; the follower goes with them
    await presenter.keyboard.press('ArrowLeft');
    await expect.poll(() => stepOf(follower), WAIT).toBe(c.steps.length - 1);
    await presenter.keyboard.press('Home');
    await expect.poll(() => stepOf(follower), WAIT).toBe(0);
    expect(await shown(follower)).toEqual(await shown(presenter));
    // fast-forward to rank 1: the steps of the lower rows are taken at once
    await presenter.locator('.ceremony-keys input').fill('1');
    await presenter.locator('.ceremony-head h1').click();
    await presenter.keyboard.press('f');
    const ff = c.steps.findIndex((s) => s.at < 1);
    await expect.poll(() => stepOf(presenter), WAIT).toBe(ff);
    // 401: the sign-in page asking who is there
    expect(pageProblems(presenter, { allowStatus: [401] })).toEqual([]);
    expect(pageProblems(follower, { allowStatus: [401] })).toEqual([]);
    await presenter.context().close();
    await follower.context().close();
  }, 240_000);

  it('is refused to a participant', async () => {
    const issued = await admin.call(ops.createUser, { body: { username: 'dee', firstName: 'Dee' } });
    const page = await chromium.newPage(DESKTOP, { locale: 'en-GB' });
    await signIn(page, judge.url, { username: issued.username, password: issued.password }, '/');
    await page.goto(`${judge.url}/ceremony/${GALA}`);
    await page.locator('.error-box').waitFor(WAIT);
    expect(await page.locator('.ceremony-rows').count()).toBe(0);
    await page.context().close();
  }, 60_000);
});
