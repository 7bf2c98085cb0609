import { ops, type Ranking } from '@judge/contract';
import { generateRunnerKey, JudgeClient, RunnerClient } from '@judge/sdk';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagedProblem } from '../../packages/server/test/support/packaged-problem.js';
import { legacyPackage, zipOf } from '../../packages/server/test/zips.js';
import { MINUTE, serverNow } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, settled, type Viewport } from './harness.js';
import { ACCEPTED, signInThroughPage, submitAndJudge, type Person } from './standings-world.js';

const FROST = 'frost';

/**
 * The staff pages for the runners and for an activity's standings, in a real Chromium on a real
 * `judge up` whose local runner judges: the runner with its state and languages, an enrolment code
 * and its lab command, a tag; a contest in its freeze where a participant solved a problem after
 * the freeze, shown in full to staff and exactly as frozen in the participants' view (the
 * server's answer carries no result), and the CSV download; a participant kept out.
 */
describe('staff pages: runners and standings', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let zoe: Person;

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 64300 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    const at = (ms: number) => new Date(ms).toISOString();
    await admin.call(ops.createActivity, {
      body: { slug: FROST, name: 'Frost cup', type: 'contest@1', rankingType: 'icpc', timeZone: 'Europe/Berlin', joinPolicy: 'open', unlisted: false },
    });
    // frozen a minute ago: what is judged now stays hidden from participants
    const series = await admin.call(ops.createSeries, {
      params: { idOrSlug: FROST },
      body: { slug: 'main', name: 'Main', startDate: at(now - 60 * MINUTE), endDate: at(now + 60 * MINUTE), rankingFreezeAt: at(now - MINUTE) },
    });
    const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum of two', type: 'standard-io@1' }, await zipOf(legacyPackage('Sum of two')), 'sum.zip');
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
    const issued = await admin.call(ops.createUser, { body: { username: 'zoe', firstName: 'Zoë', lastName: 'Ångström' } });
    const api = new JudgeClient({ baseUrl: judge.url });
    await api.login(issued.username, issued.password);
    await api.call(ops.enrol, { params: { idOrSlug: FROST }, body: {} });
    zoe = { id: issued.userId, username: issued.username, password: issued.password, api };
    // a name a spreadsheet would take for a date
    const odd = await admin.call(ops.createUser, { body: { username: 'odd', firstName: '3/4' } });
    const roles = await admin.call(ops.listRoles, {});
    await admin.call(ops.createGrant, { body: { userId: odd.userId, roleId: roles.find((r) => r.builtInKey === 'participant')!.id, activityId: (await admin.call(ops.getActivity, { params: { idOrSlug: FROST } })).id } });
  }, 180_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401] }).filter((p) => !/blocked eval/.test(p));

  async function adminOn(path: string, viewport: Viewport = DESKTOP): Promise<Page> {
    const page = await chromium.newPage(viewport, { permissions: ['clipboard-read', 'clipboard-write'], acceptDownloads: true });
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await page.waitForURL(`**${path}`);
    return page;
  }

  it('shows the local runner with its state and languages, makes an enrolment code with the lab command to copy, and tags the runner', async () => {
    const page = await adminOn('/staff/runners');
    await page.getByRole('heading', { name: 'Runners', level: 1 }).waitFor();
    const [local] = (await admin.call(ops.listRunners, { query: {} })).items;
    const card = page.locator(`[data-runner="${local!.id}"]`);
    await card.waitFor();
    expect(await card.locator('.badge').allTextContents()).toEqual(['Approved', 'Connected']);
    expect(await card.locator('[data-fact="languages"]').textContent()).toMatch(/python3/);
    expect((await card.locator('.fingerprint').textContent())!.replace(/\s/g, '')).toBe(local!.fingerprint);
    expect(await card.locator('[data-fact="now"]').textContent()).toBe('idle');
    expect(await page.locator('.judgectl-hint code').allTextContents()).toContain('judgectl runners list');
    await checkA11y(page, 'runners');
    await screenshot(page, 'staff-runners');

    // an enrolment code by keyboard: the name typed, the button reached with Tab and pressed with Enter
    await page.getByLabel('Name of the runner (optional)').fill('lab-07');
    await page.getByLabel('Tags (optional)').fill('lab');
    await page.getByRole('button', { name: 'Make an enrolment code' }).focus();
    await page.keyboard.press('Enter');
    const command = page.locator('.made-code pre');
    await command.waitFor();
    const text = (await command.textContent())!;
    expect(text).toMatch(new RegExp(`^judge-runner register --server ${judge.url.replace(/[.]/g, '\\.')} --code \\S+\\njudge-runner start$`));
    const codes = await admin.call(ops.listRunnerEnrolmentCodes, {});
    expect(codes.items).toEqual([expect.objectContaining({ name: 'lab-07', tags: ['lab'], uses: 1, used: 0 })]);
    await page.locator(`[data-code="${codes.items[0]!.id}"]`).waitFor();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(text);
    await checkA11y(page, 'runners with a new code');
    await screenshot(page, 'staff-runners-code');

    // tags, typed and saved with Enter
    await card.getByRole('button', { name: 'Tags…' }).click();
    const tags = card.getByLabel(`Tags of ${local!.name}`);
    await tags.fill('lab, fast  lab');
    await tags.press('Enter');
    await expect.poll(() => card.locator('[data-fact="tags"]').textContent()).toBe('lab, fast');
    expect((await admin.call(ops.getRunner, { params: { id: local!.id } })).tags).toEqual(['lab', 'fast']);

    // a new machine waits: approved after comparing its fingerprint, then revoked and forgotten
    const lab = new RunnerClient({ baseUrl: judge.url, key: generateRunnerKey() });
    await lab.register({ name: 'lab-08', problemTypes: ['nothing@1'] });
    const waiting = page.locator('[data-runner]', { hasText: 'lab-08' });
    await waiting.waitFor();
    await page.getByText('1 runner waits for approval.').waitFor();
    expect(await waiting.locator('.badge').allTextContents()).toEqual(['Waiting for approval', 'Connected']);
    await waiting.getByRole('button', { name: 'Approve…' }).click();
    const check = waiting.locator('.runner-confirm');
    expect((await check.locator('.fingerprint').textContent())!.replace(/\s/g, '')).toBe(lab.fingerprint);
    await checkA11y(page, 'runners: approving');
    await screenshot(page, 'staff-runners-approve');
    await page.keyboard.press('Enter'); // the confirming button has the focus
    await expect.poll(() => waiting.locator('.badge').first().textContent()).toBe('Approved');
    await waiting.getByRole('button', { name: 'Revoke…' }).click();
    await waiting.getByLabel('Reason (optional)').fill('lab closed');
    await waiting.getByRole('button', { name: 'Yes, revoke' }).click();
    await waiting.getByText('Revoked: lab closed').waitFor();
    await waiting.getByRole('button', { name: 'Forget…' }).click();
    await waiting.getByRole('button', { name: 'Yes, forget it' }).click();
    await waiting.waitFor({ state: 'detached' });
    expect((await admin.call(ops.listRunners, { query: {} })).items.map((r) => r.name)).toEqual([local!.name]);

    // the code is withdrawn from its line
    await page.getByRole('button', { name: /Withdraw the code/ }).click();
    await page.getByText('No enrolment code is valid now.').waitFor();
    expect((await admin.call(ops.listRunnerEnrolmentCodes, {})).items).toEqual([]);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("shows staff a result the freeze hides, the participants' view without it (the server's answer carries none), and downloads the CSV", async () => {
    const judged = await submitAndJudge(zoe, ACCEPTED, 'sum.py', { activity: FROST, problem: 'sum' });
    expect(judged.verdict).toBe('AC');
    const page = await adminOn(`/staff/a/${FROST}/standings`);
    await page.getByRole('heading', { name: 'Standings', level: 2 }).waitFor();
    const zoeRow = page.locator(`tr[data-user="${zoe.id}"]`);
    await zoeRow.waitFor();
    expect(await zoeRow.locator('td.cell').getAttribute('class')).toContain('ok');
    expect(await page.locator('.frozen-banner').count()).toBe(0);
    await checkA11y(page, 'staff standings');
    await screenshot(page, 'staff-standings');

    // the switch by keyboard: the radio group takes the arrow keys
    const answered = page.waitForResponse((r) => r.url().includes('/ranking') && r.url().includes('view=public'));
    await page.getByRole('radio', { name: 'Everything (through the freeze)' }).focus();
    await page.keyboard.press('ArrowRight');
    const publicView = (await (await answered).json()) as Ranking;
    await page.waitForURL(/view=public/);
    await page.locator('.frozen-banner').waitFor();
    const row = publicView.rows.find((r) => r.userId === zoe.id)!;
    expect(row).toMatchObject({ solved: 0, penalty: 0 });
    expect(row.username).toBeUndefined();
    expect(row.cells).toEqual([{ problemId: publicView.problems[0]!.id, attempts: 0, solved: false, pending: 0, frozen: 1 }]);
    await expect.poll(() => zoeRow.locator('td.cell').getAttribute('class')).toContain('frozen');
    expect(await zoeRow.locator('td.cell').getAttribute('class')).not.toContain('ok');
    // exactly what zoe herself gets
    expect(publicView).toEqual(await zoe.api.call(ops.getRanking, { params: { idOrSlug: FROST }, query: {} }));
    await checkA11y(page, 'staff standings as participants see it');
    await screenshot(page, 'staff-standings-public');

    // the download: UTF-8 with a byte-order mark, the names as written, a date-like name kept as text
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the standings (CSV)' }).click()]);
    expect(download.suggestedFilename()).toBe(`${FROST}-standings.csv`);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe('rank,username,name,userId,solved,penalty,sum solved,sum tries,sum minute');
    expect(lines[1]).toMatch(new RegExp(`^1,zoe,Zoë Ångström,${zoe.id},1,\\d+,1,1,\\d+$`));
    expect(lines).toContainEqual(expect.stringMatching(/^2,odd,'3\/4,/));
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('fits a 360 px phone', async () => {
    for (const [path, name] of [
      ['/staff/runners', 'staff-runners-phone'],
      [`/staff/a/${FROST}/standings?view=public`, 'staff-standings-phone'],
    ] as const) {
      const page = await adminOn(path, PHONE);
      await settled(page);
      await page.locator('.runner-list, .standings-region').first().waitFor();
      const overflow = await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
      expect(overflow).toBeLessThanOrEqual(0);
      await checkA11y(page, `${path} at 360 px`);
      await screenshot(page, name);
      await page.context().close();
    }
  }, 120_000);

  it('refuses a participant both pages in words, and none of their data reaches her browser', async () => {
    const page = await chromium.newPage();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    await signInThroughPage(page, judge.url, zoe, '/staff/runners');
    await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    await page.goto(`${judge.url}/staff/a/${FROST}/standings?view=public`);
    await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    expect(await page.locator('.runner-list, .staff-standings').count()).toBe(0);
    const api = asked.filter((u) => u.includes('/api/v1/'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter((u) => /\/api\/v1\/(runners|runner-enrolment-codes|activities\/[^/]+\/ranking)/.test(u))).toEqual([]);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);
});
