import { ops, type Activity } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contest, MINUTE, participant, serverNow, type Participant } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { signInThroughPage } from './standings-world.js';

const ROOM = 'staff-room';
/** The API paths of the administration pages: none of them may be asked by a participant's browser. */
const ADMIN_API = /\/api\/v1\/(users(\/|\?|$)|roles|grants|admin\/|permissions$)/;

/**
 * The administration pages in a real Chromium on a real `judge up` (no runner: nothing is judged):
 * the administrator finds an account, blocks and unblocks it, gives it a new password that then
 * signs in, ends its session in another browser; makes a co-teacher role from the template and
 * grants it in an activity; flips an instance switch, sets maintenance and broadcasts to a
 * participant's open page. A participant and a manager of one activity are kept out.
 */
describe('administration pages in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let room: Activity;
  let ann: Participant;
  let zoe: Participant;
  let zoeId: string;
  let tom: Participant;

  beforeAll(async () => {
    judge = await startJudgeUp({ runner: false, runnerUidBase: 64600 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    room = await contest(admin, { slug: ROOM, name: 'Staff room cup', joinPolicy: 'open', startsAt: now - MINUTE, endsAt: now + 120 * MINUTE });
    ann = await participant(admin, judge.url, 'ann');
    await ann.client.call(ops.enrol, { params: { idOrSlug: ROOM }, body: {} });
    zoe = await participant(admin, judge.url, 'zoe');
    zoeId = (await zoe.client.call(ops.getAccount)).userId;
    await admin.call(ops.updateUser, { params: { id: zoeId }, body: { firstName: 'Zoe', lastName: 'Zimmer' } });
    tom = await participant(admin, judge.url, 'tom');
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; 401/403 are answers the app expects
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403] }).filter((p) => !/blocked eval/.test(p));
  const staffTabs = (page: Page) => page.getByRole('navigation', { name: 'Staff pages' }).getByRole('link');

  async function adminOn(path: string, viewport: Viewport = DESKTOP): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await page.waitForURL(`**${path}`);
    return page;
  }

  /** Every API request a page makes, to show what reached a browser. */
  function apiLog(page: Page): string[] {
    const seen: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/')) seen.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    return seen;
  }

  it('refuses a participant every administration page in words, and her browser asks for no staff data', async () => {
    const page = await chromium.newPage();
    const asked = apiLog(page);
    const bodies: string[] = [];
    page.on('response', async (r) => {
      if (r.url().includes('/api/v1/') && r.ok()) bodies.push(await r.text().catch(() => ''));
    });
    await signInThroughPage(page, judge.url, ann, '/');
    for (const path of ['/staff/users', `/staff/users/${zoeId}`, '/staff/roles', '/staff/instance']) {
      await page.goto(`${judge.url}${path}`);
      await page.getByRole('heading', { name: 'For staff only' }).waitFor();
    }
    await checkA11y(page, 'administration refused');
    expect(asked.filter((p) => ADMIN_API.test(p))).toEqual([]);
    // nothing about another account reached her browser
    expect(bodies.join('\n')).not.toContain('zoe');
    expect(bodies.join('\n')).not.toContain(zoeId);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('shows a manager of one activity no administration entry, and says so on its address without asking the server', async () => {
    const roles = await admin.call(ops.listRoles, { query: {} });
    const manager = roles.find((r) => r.builtInKey === 'manager')!;
    const meg = await participant(admin, judge.url, 'meg');
    await admin.call(ops.createGrant, { body: { userId: (await meg.client.call(ops.getAccount)).userId, roleId: manager.id, activityId: room.id } });
    const page = await chromium.newPage();
    const asked = apiLog(page);
    await signInThroughPage(page, judge.url, meg, '/staff');
    await page.waitForURL('**/staff');
    await expect.poll(() => staffTabs(page).allTextContents()).toEqual(['Overview', 'Questions', 'Announce']);
    await page.goto(`${judge.url}/staff/users`);
    await page.getByRole('heading', { name: 'Not for your account' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('user:read:all');
    await checkA11y(page, 'users refused to a manager');
    expect(asked.filter((p) => /\/api\/v1\/users\/managed/.test(p))).toEqual([]);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('finds a user by search, blocks and unblocks, makes a new password that signs in, and ends her session in another browser', async () => {
    const page = await adminOn('/staff/users');
    await expect.poll(() => staffTabs(page).allTextContents()).toEqual(expect.arrayContaining(['Users', 'Roles', 'Instance']));
    // the search is typed, and the account opened, from the keyboard
    await page.getByLabel('Search by login, name or email').focus();
    await page.keyboard.type('zimm');
    const row = page.locator('tr[data-user="zoe"]');
    await row.waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await checkA11y(page, 'users');
    await screenshot(page, 'admin-users');
    await row.getByRole('link', { name: 'zoe' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/staff/users/${zoeId}`);
    await page.getByRole('heading', { name: 'zoe', level: 1 }).waitFor();

    // blocked with a reason, from the keyboard: the reason field, then Enter
    await page.getByLabel('Reason (optional, kept with the account)').fill('left the course');
    await page.getByLabel('Reason (optional, kept with the account)').press('Enter');
    await page.getByText('zoe is blocked.').waitFor();
    await expect.poll(() => page.locator('[data-state]').getAttribute('data-state')).toBe('blocked');
    expect(await admin.call(ops.getManagedUser, { params: { id: zoeId } })).toMatchObject({ blockedReason: 'left the course', blockedAt: expect.any(String) });
    await page.getByRole('button', { name: 'Unblock the account' }).click();
    await page.getByText('zoe may sign in again.').waitFor();
    await expect.poll(() => page.locator('[data-state]').getAttribute('data-state')).toBe('active');
    expect((await admin.call(ops.getManagedUser, { params: { id: zoeId } })).blockedAt).toBeUndefined();

    // a new password, shown once, which signs in; the old one no longer does
    await page.getByRole('button', { name: 'Make a new password' }).click();
    await page.getByRole('button', { name: 'Yes, make a new one' }).click();
    const fresh = (await page.locator('.issued-password').textContent())!;
    expect(fresh.length).toBeGreaterThanOrEqual(10);
    await expect(new JudgeClient({ baseUrl: judge.url }).login('zoe', zoe.password)).rejects.toThrow();
    await new JudgeClient({ baseUrl: judge.url }).login('zoe', fresh);
    await checkA11y(page, 'one user');
    await screenshot(page, 'admin-user');

    // zoe signs in with it in her own browser; the administrator ends that session
    const zoePage = await chromium.newPage();
    await signInThroughPage(zoePage, judge.url, { username: 'zoe', password: fresh }, '/');
    await zoePage.getByRole('link', { name: 'Staff room cup' }).first().waitFor();
    await page.reload();
    const session = page.locator('tr[data-session]');
    await session.first().waitFor();
    // the one from her browser is the newest, listed first
    await session.first().getByRole('button', { name: /^End the session on Chrome/ }).click();
    await expect.poll(() => admin.call(ops.listUserSessions, { params: { userId: zoeId } }).then((l) => l.length)).toBe(1);
    await zoePage.reload();
    await zoePage.waitForURL(/\/sign-in/);
    await zoePage.context().close();

    // and "end every session" ends the rest
    await page.getByRole('button', { name: 'End every session' }).click();
    await page.getByText('Signed out everywhere.', { exact: true }).waitFor();
    expect(await admin.call(ops.listUserSessions, { params: { userId: zoeId } })).toEqual([]);
    await page.getByText('Not signed in anywhere.').waitFor();

    // her roles are given and taken on the roles page, filtered to her
    await page.getByRole('link', { name: 'Give or take roles' }).click();
    await page.waitForURL(`**/staff/roles?user=${zoeId}#grants`);
    await expect.poll(() => page.locator('#grants strong').first().textContent()).toBe('zoe');
    await page.getByText('No grants here.').waitFor();
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('creates an account whose password is shown once, keeping what was typed when the server refuses', async () => {
    const page = await adminOn('/staff/users');
    const login = page.getByLabel('Login', { exact: true });
    await login.fill('zoe');
    await page.getByRole('button', { name: 'Create the account' }).click();
    // a taken login: said in words, nothing lost
    await page.getByRole('alert').filter({ hasText: 'zoe' }).waitFor();
    expect(await login.inputValue()).toBe('zoe');
    await login.fill('uma');
    await page.getByLabel('First name').fill('Uma');
    await login.press('Enter');
    await page.locator('[data-issued="uma"]').waitFor();
    const password = (await page.locator('[data-issued="uma"] .issued-password').textContent())!;
    await new JudgeClient({ baseUrl: judge.url }).login('uma', password);
    expect(await login.inputValue()).toBe('');
    await page.locator('tr[data-user="uma"]').waitFor();
    // the 409 of the taken login is the refusal the page shows
    expect(pageProblems(page, { allowStatus: [401, 403, 409] }).filter((p) => !/blocked eval/.test(p))).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('creates a co-teacher role from the template and grants it in an activity, where it works the printouts', async () => {
    const page = await adminOn('/staff/roles');
    await page.getByRole('heading', { name: 'Roles and grants', level: 1 }).waitFor();
    await page.locator('[data-role="Manager"]').waitFor();
    // built-in roles are never deletable
    expect(await page.locator('[data-role="Manager"]').getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Start from the co-teacher template' }).click();
    const form = page.locator('[data-role-form="new"]');
    expect(await form.getByLabel('Name').inputValue()).toBe('Co-teacher');
    expect(await form.locator('[data-group="printout"]').getByRole('checkbox', { name: /printout:manage/ }).isChecked()).toBe(true);
    expect(await form.locator('[data-group="question"]').getByRole('checkbox', { name: /question:answer/ }).isChecked()).toBe(true);
    await checkA11y(page, 'roles with the role form');
    await screenshot(page, 'admin-roles');
    await form.getByRole('button', { name: 'Create the role' }).click();
    await page.getByText('Role “Co-teacher” created.').waitFor();
    await page.locator('[data-role="Co-teacher"]').waitFor();

    // granted to tom in the staff room, from the keyboard: search, choose, role, place, Enter
    const give = page.locator('.grant-form');
    await give.getByLabel('User (search by login, name or email)').fill('tom');
    await give.getByRole('button', { name: 'tom' }).click();
    await give.getByLabel('Role').selectOption({ label: 'Co-teacher' });
    await give.getByLabel('Where').selectOption({ label: 'Staff room cup' });
    await give.getByRole('button', { name: 'Give the role' }).focus();
    await page.keyboard.press('Enter');
    await give.getByText('tom now holds Co-teacher (Staff room cup).').waitFor();
    await page.locator('tr[data-grant="tom/Co-teacher"]').waitFor();
    const there = await tom.client.call(ops.myPermissions, { query: { activityId: room.id } });
    expect(there).toEqual(expect.arrayContaining(['printout:manage', 'question:answer', 'submission:rejudge']));
    expect(await tom.client.call(ops.myPermissions, { query: {} })).not.toContain('printout:manage');
    // a role in use cannot be deleted; taking the grant back frees it
    expect(await page.locator('[data-role="Co-teacher"]').getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Take back Co-teacher from tom' }).click();
    await page.locator('tr[data-grant="tom/Co-teacher"]').waitFor({ state: 'detached' });
    expect(await tom.client.call(ops.myPermissions, { query: { activityId: room.id } })).not.toContain('printout:manage');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('flips an instance switch, sets maintenance, and broadcasts to a participant’s open page', async () => {
    const annPage = await chromium.newPage();
    await signInThroughPage(annPage, judge.url, ann, '/');
    await annPage.getByRole('link', { name: 'Staff room cup' }).first().waitFor();

    const page = await adminOn('/staff/instance');
    const sw = page.getByRole('checkbox', { name: 'Self-registered accounts may change their login and name' });
    expect(await sw.isChecked()).toBe(false);
    await sw.focus();
    await page.keyboard.press('Space');
    await page.getByText('“Self-registered accounts may change their login and name” is now on.').waitFor();
    expect((await admin.call(ops.getInstance)).allowRenameSelfRegistered).toBe(true);

    await page.getByRole('radio', { name: /^Draining/ }).check();
    await page.getByLabel('Reason shown to users (optional)').fill('upgrade at noon');
    await page.getByRole('button', { name: 'Set the level' }).click();
    await page.getByText('Maintenance level: Draining.').waitFor();
    await page.getByText('Now: Draining').waitFor();
    expect(await admin.call(ops.getMaintenance)).toMatchObject({ level: 'draining', reason: 'upgrade at noon' });
    await annPage.locator('[data-maintenance="draining"]').waitFor();
    await checkA11y(page, 'instance');
    await screenshot(page, 'admin-instance');
    await page.getByRole('radio', { name: /^Open/ }).check();
    await page.getByRole('button', { name: 'Set the level' }).click();
    await page.getByText('Now: Open').waitFor();
    expect((await admin.call(ops.getMaintenance)).level).toBe('open');

    await page.getByLabel('Kind').selectOption('warning');
    await page.getByRole('textbox', { name: 'Message' }).fill('The lab closes in ten minutes.');
    await page.getByRole('button', { name: 'Send to everyone signed in' }).click();
    await page.getByText('Sent: “The lab closes in ten minutes.”.').waitFor();
    await expect.poll(() => annPage.locator('[data-broadcast="warning"] .banner-text').textContent()).toBe('The lab closes in ten minutes.');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
    await annPage.context().close();
  }, 120_000);

  it('fits a 360 px phone, every administration page', async () => {
    for (const [path, name] of [
      ['/staff/users', 'admin-users'],
      [`/staff/users/${zoeId}`, 'admin-user'],
      ['/staff/roles', 'admin-roles'],
      ['/staff/instance', 'admin-instance'],
    ] as const) {
      const page = await adminOn(path, PHONE);
      await page.locator('.staff-tabs').waitFor();
      await page.locator('h1').waitFor().catch(async (e: unknown) => {
        await screenshot(page, `${name}-phone-stuck`);
        throw e;
      });
      await expect.poll(() => page.locator('.loading').count()).toBe(0);
      const overflow = await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await checkA11y(page, `${path} at 360 px`);
      await screenshot(page, `${name}-phone`);
      await page.context().close();
    }
  }, 120_000);
});
