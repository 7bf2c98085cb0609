import { ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipOf } from '../../packages/server/test/zips.js';
import { participant, SAMPLE_ANS, SAMPLE_IN, type Participant } from './activity-fixtures.js';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, settled, type Viewport } from './harness.js';
import { signInThroughPage } from './standings-world.js';

/** An ICPC package's files under `folder/`, as a contest archive holds them. */
function packageFiles(folder: string, manifest: string): Record<string, string> {
  return {
    [`${folder}/problem.yaml`]: manifest,
    [`${folder}/data/sample/1.in`]: SAMPLE_IN,
    [`${folder}/data/sample/1.ans`]: SAMPLE_ANS,
    [`${folder}/data/secret/1.in`]: '5 5\n',
    [`${folder}/data/secret/1.ans`]: '10\n',
  };
}

const SUM = 'name: Sum\nlimits:\n  time_limit: 2\n';
const TWICE = 'name:\n  de: Doppelt\n  en: Twice\n';

/**
 * The staff pages that build and change activities, in a real Chromium on a real `judge up`: an
 * administrator makes a contest from scratch, copies it with its dates shifted, makes one from a
 * zip of two packages uploaded in the browser (and sees a refused package named, with what was
 * made removed again on request), changes one series' end and sets its freeze, is told in words
 * what is wrong with a bad value while the form keeps it, publishes and archives; a participant is
 * kept out and receives no staff data.
 */
describe('staff pages that build and change activities', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let pia: Participant;

  beforeAll(async () => {
    // nothing is judged here, so no runner (its uid base, were it started, is 64400)
    judge = await startJudgeUp({ runner: false, runnerUidBase: 64400 });
    chromium = await openBrowser();
    admin = await judge.admin();
    pia = await participant(admin, judge.url, 'pia');
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; 401/403/404/409/422 are answers these pages expect
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403, 404, 409, 422] }).filter((p) => !/blocked eval/.test(p));
  const managed = (slug: string) => admin.call(ops.getManagedActivity, { params: { idOrSlug: slug } });
  const seriesOf = (slug: string) => admin.call(ops.listManagedSeries, { params: { idOrSlug: slug } });

  async function adminOn(path: string, viewport?: Viewport): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await page.waitForURL((u) => u.pathname + u.search === path);
    return page;
  }

  it('creates a contest from scratch by keyboard, then a copy of it with every date shifted', async () => {
    const page = await adminOn('/staff/new');
    await page.getByRole('heading', { name: 'New activity', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Autumn cup');
    // the slug follows the name until it is typed
    expect(await page.getByLabel('Slug').inputValue()).toBe('Autumn-cup');
    await page.getByLabel('Slug').fill('autumn');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Start', { exact: true }).fill('2027-10-01T09:00');
    await page.getByLabel('End', { exact: true }).fill('2027-10-01T14:00');
    await page.getByLabel('Who may join').selectOption('open');
    await checkA11y(page, 'new activity from scratch');
    await screenshot(page, 'staff-new-scratch');
    // the main action by keyboard: Enter in a field sends the form
    await page.getByLabel('Name', { exact: true }).press('Enter');
    await page.waitForURL('**/staff/a/autumn/settings');
    const autumn = await managed('autumn');
    expect(autumn).toMatchObject({ name: 'Autumn cup', timeZone: 'Europe/Berlin', joinPolicy: 'open', type: 'contest@1' });
    // typed in the activity's zone: 09:00 in Berlin in October is 07:00 UTC
    expect(autumn.startDate).toBe('2027-10-01T07:00:00.000Z');
    expect((await seriesOf('autumn')).map((s) => [s.slug, s.startDate, s.endDate])).toEqual([['main', '2027-10-01T07:00:00.000Z', '2027-10-01T12:00:00.000Z']]);

    await page.goto(`${judge.url}/staff/new?mode=duplicate&from=autumn`);
    await page.getByLabel('Activity to copy').waitFor();
    expect(await page.getByLabel('Activity to copy').inputValue()).toBe('autumn');
    await page.getByLabel('Slug of the copy').fill('autumn-2028');
    await page.getByLabel('The copy starts at').fill('2028-10-06T09:00');
    // what moves where, before anything is made
    const preview = page.locator('table.shift-preview');
    await preview.waitFor();
    expect(await preview.locator('caption').textContent()).toMatch(/every date by 371 days/);
    const cells = preview.locator('tbody tr').first().locator('td');
    expect(await cells.nth(0).textContent()).toMatch(/2027.*2027/);
    expect(await cells.nth(1).textContent()).toMatch(/2028.*2028/);
    await checkA11y(page, 'new activity as a copy');
    await screenshot(page, 'staff-new-duplicate');
    await page.getByRole('button', { name: 'Create the copy' }).click();
    await page.waitForURL('**/staff/a/autumn-2028/settings');
    const copy = await managed('autumn-2028');
    expect(copy.publishedAt).toBeUndefined();
    expect((await seriesOf('autumn-2028')).map((s) => [s.startDate, s.endDate])).toEqual([['2028-10-06T07:00:00.000Z', '2028-10-06T12:00:00.000Z']]);
    await page.getByText('Not published: participants do not see it').waitFor();
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('makes a contest of a zip of two packages with a bar and a step per package; a refused package is named with the reason, and what was made can be removed', async () => {
    const page = await adminOn('/staff/new?mode=import');
    const archive = await zipOf({ ...packageFiles('winter/sum', SUM), ...packageFiles('winter/twice', TWICE), 'winter/notes/readme.txt': 'not a package' });
    await page.getByLabel('Zip of problem packages', { exact: true }).setInputFiles({ name: 'winter.zip', mimeType: 'application/zip', buffer: archive });
    const found = page.locator('table.import-found');
    await found.waitFor();
    expect(await found.locator('tbody tr').allTextContents()).toEqual(['sumSumwinter-sum', 'twiceTwicewinter-twice']);
    await page.getByText('Skipped (no problem.yaml): notes').waitFor();
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe('winter');
    await page.getByLabel('Name', { exact: true }).fill('Winter cup');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Duration in minutes').fill('180');
    await checkA11y(page, 'new contest from packages');
    await screenshot(page, 'staff-new-import');
    await page.getByRole('button', { name: 'Create the contest with 2 problems' }).click();
    await page.getByText('Winter cup is ready with its 2 problems.').waitFor({ timeout: 60_000 });
    expect(await page.locator('.import-progress li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-step')))).toEqual(['done', 'done']);
    expect(await page.locator('.import-progress progress').evaluateAll((bars) => bars.map((b) => (b as unknown as { value: number; max: number }).value === (b as unknown as { max: number }).max))).toEqual([true, true]);
    await screenshot(page, 'staff-new-import-done');
    const [main] = await seriesOf('winter');
    expect(main!.problems.map((p) => [p.slug, p.problemSlug, p.problemName])).toEqual([
      ['sum', 'winter-sum', 'Sum'],
      ['twice', 'winter-twice', 'Twice'],
    ]);
    // no start given: the series opens at once, and ends when the activity does, 180 minutes on
    expect(main!.startDate).toBeUndefined();
    expect(main!.endDate).toBe((await managed('winter')).endDate);

    // a package the server refuses: named with its reason, its problem not kept, the rest removable
    await page.goto(`${judge.url}/staff/new?mode=import`);
    const broken = await zipOf({ ...packageFiles('good', SUM), 'broken/problem.yaml': 'name: Broken\nlimits: [\n' });
    await page.getByLabel('Zip of problem packages', { exact: true }).setInputFiles({ name: 'spring.zip', mimeType: 'application/zip', buffer: broken });
    await page.locator('table.import-found').waitFor();
    await page.getByRole('button', { name: 'Create the contest with 2 problems' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'was refused' });
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toMatch(/One package was refused.*broken:/s);
    expect(await page.locator('[data-package="broken"]').getAttribute('data-step')).toBe('refused');
    const library = await admin.call(ops.listProblems, { query: { search: 'spring', includeArchived: 'true' } });
    expect(library.items.map((p) => p.slug)).toEqual(['spring-good']);
    expect(await alert.textContent()).toContain('Created: activity spring, series main, problem spring-good');
    await checkA11y(page, 'import with a refused package');
    await screenshot(page, 'staff-new-import-refused');
    await alert.getByRole('button', { name: 'Remove everything that was created' }).click();
    await page.getByText('Removed: activity spring, series main, problem spring-good.').waitFor();
    await expect(managed('spring')).rejects.toMatchObject({ status: 404 });
    expect((await admin.call(ops.listProblems, { query: { search: 'spring', includeArchived: 'true' } })).items).toEqual([]);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 240_000);

  it("changes one series' end and sets its freeze, each its own field, on a timeline that says it in words", async () => {
    const before = (await seriesOf('winter'))[0]!;
    const page = await adminOn('/staff/a/winter/series');
    const card = page.locator('[data-series="main"]');
    await card.waitFor();
    await page.locator('figure.timeline').waitFor();
    // the drawing is for the eye; its words are there for a screen reader
    expect(await page.locator('figure.timeline ul li').first().textContent()).toMatch(/^Winter cup: from .* to .*; freeze: none\.$/);
    await checkA11y(page, 'series page');
    await screenshot(page, 'staff-series');

    await card.getByText('Change the name and times of Winter cup').click();
    await card.getByLabel('End', { exact: true }).fill('2030-01-10T18:00');
    await card.getByLabel('Freeze', { exact: true }).fill('2030-01-10T17:00');
    // by keyboard: the save button takes Enter
    await card.getByRole('button', { name: 'Save the times' }).focus();
    await page.keyboard.press('Enter');
    await card.getByText('Saved Winter cup.').waitFor();
    const after = (await seriesOf('winter'))[0]!;
    expect(after.startDate).toBe(before.startDate);
    expect(after.endDate).toBe('2030-01-10T17:00:00.000Z');
    expect(after.rankingFreezeAt).toBe('2030-01-10T16:00:00.000Z');
    await card.locator('.series-times dd').nth(2).getByText(/2030/).waitFor();
    await page.locator('.timeline-freeze').waitFor();
    expect(await page.locator('figure.timeline ul li').first().textContent()).toMatch(/freeze: [^;]*2030[^;]*\.$/);
    await screenshot(page, 'staff-series-frozen');

    // a second series, added on the page, then put first
    const add = page.getByRole('form', { name: 'Add a series' });
    await add.getByLabel('Name', { exact: true }).fill('Practice');
    await add.getByLabel('Slug', { exact: true }).fill('practice');
    await add.getByLabel('Start', { exact: true }).fill('2030-01-09T09:00');
    await add.getByLabel('End', { exact: true }).fill('2030-01-09T11:00');
    await add.getByRole('button', { name: 'Add the series' }).click();
    await page.locator('[data-series="practice"]').waitFor();
    expect((await seriesOf('winter')).map((x) => [x.slug, x.startDate, x.endDate])).toContainEqual(['practice', '2030-01-09T08:00:00.000Z', '2030-01-09T10:00:00.000Z']);
    await expect.poll(() => page.locator('.timeline-row').count()).toBe(2);
    await card.getByRole('button', { name: 'Move Winter cup down' }).click();
    await expect.poll(async () => (await seriesOf('winter')).map((x) => x.slug)).toEqual(['practice', 'main']);
    await expect.poll(() => page.locator('.series-list > li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-series')))).toEqual(['practice', 'main']);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('keeps a refused value in the form and says why, offers the fix for dates outside the series, publishes and archives', async () => {
    const page = await adminOn('/staff/a/winter/settings');
    const form = page.getByRole('form', { name: 'Settings of the activity' });
    await form.waitFor();
    await checkA11y(page, 'settings page');
    await screenshot(page, 'staff-settings');

    await form.getByLabel('Name', { exact: true }).fill('Winter cup 2030');
    await form.getByLabel('Time zone').fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Save the settings' }).click();
    await form.getByText('Some values cannot be taken').waitFor();
    expect(await form.getByLabel('Time zone').getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('.field-error').first().textContent()).toMatch(/IANA time zone/);
    // nothing typed is lost, and nothing was changed
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('Winter cup 2030');
    expect((await managed('winter')).name).toBe('Winter cup');

    await form.getByLabel('Time zone').fill('Europe/Berlin');
    // ending the activity before the practice series ends would leave that series outside it
    await form.getByLabel('End', { exact: true }).fill('2030-01-09T09:00');
    await form.getByRole('button', { name: 'Save the settings' }).click();
    const refusal = form.locator('[data-code="activity.seriesOutside"]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain("The activity's dates would leave some of its series outside them.");
    await refusal.getByRole('button', { name: 'Set the start and end to span the series' }).click();
    expect(await form.getByLabel('End', { exact: true }).inputValue()).toBe('2030-01-10T18:00');
    await form.getByRole('button', { name: 'Save the settings' }).click();
    await form.getByText('Saved.').waitFor();
    expect(await managed('winter')).toMatchObject({ name: 'Winter cup 2030', endDate: '2030-01-10T17:00:00.000Z' });

    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByText('Not published: participants do not see it').waitFor();
    expect((await managed('winter')).publishedAt).toBeUndefined();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published: participants see it.').waitFor();
    expect((await managed('winter')).publishedAt).toBeDefined();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByText('Archived: read-only and left out of the lists.').waitFor();
    expect((await managed('winter')).archivedAt).toBeDefined();
    await screenshot(page, 'staff-settings-archived');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('refuses a participant in words, and no staff data reaches her browser', async () => {
    const page = await chromium.newPage();
    const answered: Response[] = [];
    page.on('response', (r) => void answered.push(r));
    await signInThroughPage(page, judge.url, pia, '/staff/new');
    await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    for (const path of ['/staff/a/autumn/settings', '/staff/a/autumn/series']) {
      await page.goto(`${judge.url}${path}`);
      await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    }
    await checkA11y(page, 'staff pages refused');
    const staffData = answered.filter((r) => /\/api\/v1\/(manager\/|problems|activities\/[^/]+\/series)/.test(new URL(r.url()).pathname) && r.status() < 400);
    expect(staffData.map((r) => r.url())).toEqual([]);
    expect(await page.locator('form').count()).toBe(0);
    await page.context().close();
  }, 60_000);

  it('fits a 360 px phone on every page it adds', async () => {
    const copy: Activity = await managed('autumn-2028');
    for (const [path, name] of [
      ['/staff/new', 'staff-new-scratch-phone'],
      ['/staff/new?mode=duplicate', 'staff-new-duplicate-phone'],
      ['/staff/new?mode=import', 'staff-new-import-phone'],
      [`/staff/a/${copy.slug}/settings`, 'staff-settings-phone'],
      [`/staff/a/${copy.slug}/series`, 'staff-series-phone'],
    ] as const) {
      const page = await adminOn(path, PHONE);
      await page.locator('.staff-activities form').first().waitFor({ state: 'attached' });
      await settled(page);
      const overflow = await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await checkA11y(page, `${path} at 360 px`);
      await screenshot(page, name);
      await page.context().close();
    }
  }, 180_000);
});
