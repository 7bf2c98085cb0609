import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedProblem } from '../../packages/server/test/support/packaged-problem.js';
import { legacyPackage, zipOf } from '../../packages/server/test/zips.js';
import { MINUTE, serverNow } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';
import { ACCEPTED, signInThroughPage, submitAndJudge, WRONG, type Person } from './standings-world.js';

const SLUG = 'medals';

/**
 * Finalising and awards in a real Chromium on a real `judge up` whose runner judges (decisions
 * §24): staff are told the last unanswered question keeps the contest from being final, answer it,
 * finalise, change the winner's citation; the participant then sees the medals and the citations
 * on the final standings, at desktop and phone widths.
 */
describe('finalising a contest and its awards', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let zoe: Person;
  let questionId: string;
  let seriesId: string;

  async function person(username: string, firstName: string): Promise<Person> {
    const issued = await admin.call(ops.createUser, { body: { username, firstName } });
    const api = new JudgeClient({ baseUrl: judge.url });
    await api.login(issued.username, issued.password);
    await api.call(ops.enrol, { params: { idOrSlug: SLUG }, body: {} });
    return { id: issued.userId, username: issued.username, password: issued.password, api };
  }

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 64500 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    const at = (ms: number) => new Date(ms).toISOString();
    await admin.call(ops.createActivity, { body: { slug: SLUG, name: 'Medal cup', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: SLUG }, body: { slug: 'main', name: 'Main', startDate: at(now - 30 * MINUTE), endDate: at(now + 60 * MINUTE) } });
    seriesId = series.id;
    const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum of two', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum of two')), 'sum.zip');
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    zoe = await person('zoe', 'Zoë <b>Ångström</b>');
    const max = await person('max', 'Max');
    expect((await submitAndJudge(zoe, ACCEPTED, 'sum.py', { activity: SLUG, problem: 'sum' })).verdict).toBe('AC');
    expect((await submitAndJudge(max, WRONG, 'sum.py', { activity: SLUG, problem: 'sum' })).verdict).toBe('WA');
    questionId = (await zoe.api.call(ops.askQuestion, { params: { idOrSlug: SLUG }, body: { topic: 'Input', body: 'Can a be negative?' } })).id;
    // the contest is over
    await admin.call(ops.updateSeries, { params: { seriesId }, body: { endDate: at((await serverNow(admin)) - 1000) } });
  }, 180_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 409] }).filter((p) => !/blocked eval/.test(p));

  it('says an unanswered question blocks it, finalises once answered, and takes a new citation', async () => {
    const page = await chromium.newPage(DESKTOP);
    const path = `/staff/a/${SLUG}/settings`;
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await page.waitForURL(`**${path}`);
    const section = page.locator('.finalize-section');
    // said before anyone presses the button, then as the refusal when they do
    const early = section.locator('[data-refused="false"] [data-blocker="unanswered"]');
    await early.waitFor();
    expect(await early.textContent()).toContain('1 question is unanswered');
    await section.getByRole('button', { name: 'Finalise the standings' }).click();
    const blocker = section.locator('[data-refused="true"] [data-blocker="unanswered"]');
    await blocker.waitFor();
    expect(await blocker.textContent()).toContain('1 question is unanswered');
    expect(await blocker.getByRole('link', { name: 'Answer the questions' }).getAttribute('href')).toBe(`/staff/a/${SLUG}/questions`);
    await screenshot(page, 'awards-staff-blocked');

    await admin.call(ops.answerQuestion, { params: { id: questionId }, body: { body: 'No.' } });
    await section.getByRole('button', { name: 'Finalise the standings' }).click();
    await section.getByRole('button', { name: 'Reopen' }).waitFor();
    await section.locator('[data-award="winner"]').waitFor();
    expect(await section.locator('[data-award]').evaluateAll((els) => els.map((e) => e.getAttribute('data-award')))).toEqual(['winner', 'gold-medal', 'first-to-solve-sum']);

    const winner = section.locator('[data-award="winner"]');
    await winner.getByLabel('Citation of winner').fill('Champion of the medal cup');
    await winner.getByRole('button', { name: 'Save' }).click();
    await section.locator('[data-award="winner"]', { hasText: 'changed by staff' }).waitFor();
    expect((await admin.call(ops.listActivityAwards, { params: { idOrSlug: SLUG } })).awards[0]).toMatchObject({ citation: 'Champion of the medal cup', adjusted: true });
    await checkA11y(page, 'finalize section');
    await screenshot(page, 'awards-staff-final');
    expect(scriptProblems(page)).toEqual([]);
    await page.close();

    const phone = await chromium.newPage(PHONE);
    await signInThroughPage(phone, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await phone.locator('.finalize-section [data-award="winner"]').waitFor();
    await screenshot(phone, 'awards-staff-final');
    await phone.close();
  });

  it('shows the participant the medals and citations on the final standings', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await chromium.newPage(viewport);
      const path = `/a/${SLUG}/standings`;
      await signInThroughPage(page, judge.url, zoe, path);
      const panel = page.locator('.awards-panel');
      await panel.waitFor();
      expect(await page.locator('.final-banner').textContent()).toBe('These are the final standings.');
      expect(await panel.locator('[data-award="winner"]').textContent()).toContain('Champion of the medal cup');
      // the name is text, never markup
      expect(await panel.locator('[data-award="winner"] .award-who').textContent()).toBe('Zoë <b>Ångström</b>');
      expect(await page.locator(`tr[data-user="${zoe.id}"]`).getAttribute('class')).toContain('medal-gold');
      expect(await page.locator(`tr[data-user="${zoe.id}"] .medal-name`).textContent()).toBe('Gold medal');
      await checkA11y(page, 'final standings');
      await screenshot(page, 'awards-standings');
      expect(scriptProblems(page)).toEqual([]);
      await page.close();
    }
  });
});
