import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contest, MINUTE, participant, serverNow, type Participant } from './activity-fixtures.js';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { signInThroughPage } from './standings-world.js';

const LAB = 'lab-class';
const PEOPLE = `/staff/a/${LAB}/people`;
/** The school office's class list as German Excel saves it: a byte-order mark, semicolons, CRLF, accented names. */
const CLASS_LIST = '\uFEFFusername;firstName;lastName;email\r\nlmüller;Lisa;Müller;\r\nzoé.dubois;Zoé;Dubois;zoe@example.com\r\nsgroß;Sven;Groß;\r\n';

/**
 * An activity's People page and its slips in a real Chromium on a real `judge up`: the
 * administrator creates a class's accounts from a CSV and prints their slips (whose passwords
 * work), enrols an existing account by search and makes it a co-teacher, who then works the
 * activity's printouts; a participant is kept out and gets no staff data.
 */
describe('people of an activity in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let mara: Participant;
  let labId: string;
  /** The passwords the slips showed, by username. */
  const slips = new Map<string, string>();

  beforeAll(async () => {
    // nothing is judged here, so no runner (its uid base, were it started, is 64500)
    judge = await startJudgeUp({ runner: false, runnerUidBase: 64500 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    const lab = await contest(admin, { slug: LAB, name: 'Lab class', joinPolicy: 'password', startsAt: now - MINUTE, endsAt: now + 120 * MINUTE });
    labId = lab.id;
    await admin.call(ops.updateActivity, { params: { idOrSlug: LAB }, body: { slug: LAB, modules: { printouts: true } } });
    mara = await participant(admin, judge.url, 'mara');
    await participant(admin, judge.url, 'jdoe');
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; 401/403 are answers the app expects
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403] }).filter((p) => !/blocked eval/.test(p));

  async function signedIn(who: { username: string; password: string }, path: string, viewport?: Viewport): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, who, path);
    await page.waitForURL(`**${path}`);
    return page;
  }
  const asAdmin = (path: string, viewport?: Viewport) => signedIn({ username: judge.adminUsername, password: judge.adminPassword }, path, viewport);
  const member = (page: Page, name: string) => page.locator('[data-member]', { hasText: name });

  it('creates a class from a semicolon CSV, shows the passwords once and prints them as slips that sign a student in', async () => {
    const page = await asAdmin(PEOPLE);
    await page.getByRole('heading', { name: 'People', level: 2 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Staff pages of Lab class' }).getByRole('link', { name: 'People' }).getAttribute('aria-current')).toBe('page');

    await page.getByLabel('Class list file').setInputFiles({ name: 'class-7b.csv', mimeType: 'text/csv', buffer: Buffer.from(CLASS_LIST, 'utf8') });
    const plan = page.locator('[data-plan]');
    await plan.waitFor();
    expect(await plan.locator('[data-fresh]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-fresh')))).toEqual(['lmueller', 'zoe.dubois', 'sgross']);
    expect(await plan.textContent()).toContain('lmueller (from lmüller)');
    expect(await plan.textContent()).toContain('Zoé Dubois');
    await checkA11y(page, 'people: class list read');
    await screenshot(page, 'staff-people-plan');

    // the main action by keyboard
    const run = page.getByRole('button', { name: 'Create 3 accounts and enrol them' });
    await run.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'The passwords of 3 new accounts' }).waitFor();
    await page.getByText('Created 3 accounts and enrolled them as participants.').waitFor();
    for (const u of ['lmueller', 'zoe.dubois', 'sgross']) await member(page, u === 'lmueller' ? 'Lisa Müller' : u === 'sgross' ? 'Sven Groß' : 'Zoé Dubois').waitFor();
    await checkA11y(page, 'people: passwords shown');
    await screenshot(page, 'staff-people');

    // the passwords live in the page's memory only: no storage, no history entry holds them
    const passwords = await page.locator('.issued code.password').allTextContents();
    expect(passwords).toHaveLength(3);
    const kept = await page.evaluate<string>(`JSON.stringify([{ ...localStorage }, { ...sessionStorage }, history.state, document.cookie])`);
    for (const p of passwords) expect(kept).not.toContain(p);

    await page.getByRole('link', { name: 'Print slips' }).click();
    await page.waitForURL(`**/staff/a/${LAB}/slips`);
    const slip = page.locator('[data-slip]');
    await expect.poll(() => slip.count()).toBe(3);
    for (const s of await slip.all()) {
      const username = (await s.locator('[data-field="username"]').textContent())!;
      slips.set(username, (await s.locator('[data-field="password"]').textContent())!);
      expect(await s.textContent()).toContain(judge.url);
    }
    expect([...slips.keys()].sort()).toEqual(['lmueller', 'sgross', 'zoe.dubois']);
    await checkA11y(page, 'slips');
    await screenshot(page, 'staff-slips');
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.site-header').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print 3 slips' }).isVisible()).toBe(false);
    await screenshot(page, 'staff-slips-print');
    await page.emulateMedia({ media: 'screen' });

    // leaving the pages forgets the passwords: back from another page, there is nothing to print
    await page.getByRole('link', { name: 'Open as a participant sees it' }).click();
    await page.waitForURL(`**/a/${LAB}`);
    await page.locator('.staff-activity').waitFor({ state: 'detached' });
    await page.goBack();
    await page.waitForURL(`**/staff/a/${LAB}/slips`);
    await page.getByText('There are no passwords to print').waitFor();
    expect(await page.locator('[data-slip]').count()).toBe(0);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();

    // a slip's password signs its student in
    const student = await signedIn({ username: 'zoe.dubois', password: slips.get('zoe.dubois')! }, '/');
    await student.getByRole('link', { name: 'Lab class' }).first().waitFor();
    await student.context().close();
  }, 240_000);

  it('enrols an existing account by search and makes it a co-teacher, who then resolves a printout of the activity', async () => {
    const page = await asAdmin(PEOPLE);
    const search = page.getByLabel('Username, name or email');
    await search.fill('mara');
    await search.press('Enter');
    const candidate = page.locator('[data-candidate="mara"]');
    await candidate.getByRole('button', { name: 'Enrol: mara' }).click();
    await candidate.getByText('Already here: Participant').waitFor();
    const row = member(page, 'mara');
    await row.waitFor();
    const maraId = (await mara.client.call(ops.getAccount)).userId;
    expect(await row.getByRole('link', { name: 'mara' }).getAttribute('href')).toBe(`/staff/users/${maraId}`);

    await row.getByRole('button', { name: 'Make co-teacher: mara' }).click();
    await expect.poll(() => row.getAttribute('data-role')).toBe('manager');
    await page.getByText('mara is now a co-teacher').waitFor();

    // taken out after a confirmation
    const sven = member(page, 'Sven Groß');
    await sven.getByRole('button', { name: 'Remove: Sven Groß' }).click();
    await sven.getByRole('button', { name: 'Remove', exact: true }).click();
    await sven.waitFor({ state: 'detached' });
    const grants = await admin.call(ops.listGrants, { query: { activityId: labId, pageSize: 200 } });
    expect(grants.items.map((g) => [g.userName, g.roleName]).sort()).toEqual([
      ['Lisa Müller', 'Participant'],
      ['Zoé Dubois', 'Participant'],
      ['admin', 'Manager'],
      ['mara', 'Manager'],
    ]);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();

    // a student of the list asks for a printout; the co-teacher resolves it from the staff printouts page
    const lisa = new JudgeClient({ baseUrl: judge.url });
    await lisa.login('lmueller', slips.get('lmueller')!);
    const asked = await lisa.call(ops.requestPrintout, { params: { idOrSlug: LAB }, body: { fileName: 'a.py', source: 'print(42)\n' } });
    const co = await signedIn(mara, '/staff/printouts');
    const item = co.locator(`[data-printout="${asked.id}"]`);
    await item.getByRole('button', { name: 'Claim' }).click();
    await expect.poll(() => item.locator('.badge').textContent()).toBe('Claimed by you');
    await item.getByRole('button', { name: 'Resolve' }).click();
    await item.waitFor({ state: 'detached' });
    expect((await lisa.call(ops.listOwnPrintouts, { params: { idOrSlug: LAB } })).items[0]).toMatchObject({ id: asked.id, state: 'resolved' });

    // her People page lists the members and says why she cannot look accounts up
    await co.goto(`${judge.url}${PEOPLE}`);
    await member(co, 'Lisa Müller').waitFor();
    await co.getByText('needs the permission user:read:all').waitFor();
    expect(await co.getByLabel('Class list file').count()).toBe(0);
    expect(scriptProblems(co)).toEqual([]);
    await co.context().close();
  }, 180_000);

  it('refuses a participant the People and Slips pages, and sends no staff data to their browser', async () => {
    const page = await chromium.newPage();
    const answers: Response[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) answers.push(r);
    });
    await signInThroughPage(page, judge.url, { username: 'lmueller', password: slips.get('lmueller')! }, PEOPLE);
    await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    await page.goto(`${judge.url}/staff/a/${LAB}/slips`);
    await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    await page.waitForLoadState('networkidle');
    const bodies = await Promise.all(answers.filter((r) => r.ok()).map(async (r) => `${new URL(r.url()).pathname} ${await r.text().catch(() => '')}`));
    const staffPaths = bodies.map((b) => b.split(' ')[0]!).filter((p) => /^\/api\/v1\/(grants|roles|users)/.test(p));
    expect(staffPaths).toEqual([]);
    // nobody else of the class reaches her browser
    for (const other of ['zoe.dubois', 'Zoé Dubois', 'mara', 'jdoe']) expect(bodies.join('\n')).not.toContain(other);
    await page.context().close();
  }, 60_000);

  it('fits a 360 px phone: a comma CSV with an existing account, its passwords and slips', async () => {
    const page = await asAdmin(PEOPLE, PHONE);
    await page.getByLabel('Class list file').setInputFiles({ name: 'late.csv', mimeType: 'text/csv', buffer: Buffer.from('username,firstName,lastName\r\njdoe,,\r\nOle Hansen,Ole,Hansen\r\n', 'utf8') });
    await page.locator('[data-plan]').getByText('1 existing account to enrol: jdoe').waitFor();
    await page.getByRole('button', { name: 'Create 1 and enrol 1 existing' }).click();
    await page.getByRole('heading', { name: 'The password of 1 new account' }).waitFor();
    const overflow = () => page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await checkA11y(page, 'people at 360 px');
    await screenshot(page, 'staff-people-phone');
    await page.getByRole('link', { name: 'Print slips' }).click();
    await page.locator('[data-slip="Ole.Hansen"]').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await checkA11y(page, 'slips at 360 px');
    await screenshot(page, 'staff-slips-phone');
    await page.getByRole('button', { name: 'Done: forget the passwords' }).click();
    await page.waitForURL(`**${PEOPLE}`);
    expect(await page.locator('.issued').count()).toBe(0);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);
});
