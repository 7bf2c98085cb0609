import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeForm } from '../../packages/server/test/support/forms.js';
import { packagedProblem } from '../../packages/server/test/support/packaged-problem.js';
import { zipOf } from '../../packages/server/test/zips.js';
import { SUM_PACKAGE } from '../one-problem-contest.js';
import { contest, MINUTE, serverNow } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, SCREENSHOTS, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { signInThroughPage } from './standings-world.js';

const CUP = 'merge-cup';
const CUP_NAME = 'Merge cup';

interface Person {
  id: string;
  username: string;
  password: string;
}

/**
 * Accounts in a real Chromium on a real `judge up` (no runner: nothing needs judging): the
 * administrator merges a guest account into a pupil's on the staff user page (the preview's counts,
 * the merge, its record, the undo), approves a self-registered account, and makes temporary
 * accounts whose passwords are shown once and downloaded as CSV; a pupil downloads everything the
 * judge holds about her and deletes her account, ending signed out for good.
 */
describe('accounts in the browser: merging, approval, temporary accounts, your data', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let guest: Person;
  let pia: Person;

  beforeAll(async () => {
    judge = await startJudgeUp({ runner: false, runnerUidBase: 65100 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(SUM_PACKAGE), 'sum.zip');
    const cup = await contest(admin, { slug: CUP, name: CUP_NAME, joinPolicy: 'open', startsAt: now - MINUTE, endsAt: now + 120 * MINUTE, problems: { sum: problem.id } });
    await admin.call(ops.updateActivity, { params: { idOrSlug: CUP }, body: { slug: CUP, modules: { questions: true } } });
    // a guest account of the cup, which submits and asks; then the pupil it turns out to be
    const [issued] = await admin.call(ops.createTemporaryUsers, { body: { prefix: 'visitor', count: 1, activityId: cup.id } });
    guest = { id: issued!.userId, username: issued!.username, password: issued!.password };
    const asGuest = new JudgeClient({ baseUrl: judge.url });
    await asGuest.login(guest.username, guest.password);
    await asGuest.call(ops.submit, { params: { idOrSlug: CUP, problemSlug: 'sum' }, form: codeForm('print(3)\n', 'sum.py') });
    await asGuest.call(ops.askQuestion, { params: { idOrSlug: CUP }, body: { topic: 'Input', body: 'Can a be negative?' } });
    pia = await person('pia', { firstName: 'Pia', lastName: 'Pupil' });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  async function person(username: string, names: { firstName?: string; lastName?: string } = {}): Promise<Person> {
    const made = await admin.call(ops.createUser, { body: { username, ...names } });
    return { id: made.userId, username: made.username, password: made.password };
  }

  // zod probes whether eval is allowed, and the CSP rightly refuses; the refusals these pages show are answers
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403, 409, 422] }).filter((p) => !/blocked eval/.test(p));
  const fitsWidth = (page: Page) => page.evaluate<boolean>(`document.documentElement.scrollWidth <= window.innerWidth`);

  async function signedIn(who: { username: string; password: string }, path: string, viewport: Viewport = DESKTOP): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, who, path);
    await page.waitForURL(`**${path}`);
    return page;
  }
  const asAdmin = (path: string, viewport?: Viewport) => signedIn({ username: judge.adminUsername, password: judge.adminPassword }, path, viewport);

  /** The whole page, and one part of it alone (what a reviewer looks at), at the page's width. */
  async function shots(page: Page, name: string, part: Locator): Promise<void> {
    await screenshot(page, name);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await part.screenshot({ path: join(SCREENSHOTS, `${name}-part-${page.viewportSize()?.width ?? 0}.png`) });
  }

  /** On the guest's page: the pupil chosen as the target, and the preview of what moves. */
  async function previewMerge(page: Page): Promise<Locator> {
    const merge = page.locator('[data-merge-control]');
    await merge.getByRole('heading', { name: 'Merge into another account' }).waitFor();
    await merge.getByLabel('Merge into (search by login, name or email)').fill('pupil');
    await merge.getByRole('button', { name: 'Pia Pupil (pia)' }).click();
    const preview = merge.locator('[data-merge-preview]');
    await preview.waitFor();
    return preview;
  }

  it('merges a guest account into the pupil’s after a preview and a confirmation, shows the record, and undoes it', async () => {
    const page = await asAdmin(`/staff/users/${guest.id}`);
    await page.getByRole('heading', { name: guest.username, level: 1 }).waitFor();
    const preview = await previewMerge(page);
    expect(await preview.locator('p').first().textContent()).toBe(`Merging ${guest.username} into pia (Pia Pupil) moves:`);
    expect(await preview.locator('[data-count="submissions"]').textContent()).toBe('1 submission');
    expect(await preview.locator('[data-count="questions"]').textContent()).toBe('1 question');
    expect(await preview.locator('[data-count="activities"]').textContent()).toBe(`the membership in 1 activity: ${CUP_NAME}`);
    expect(await preview.locator('[data-blockers]').count()).toBe(0);
    await page.getByText(`judgectl users merge ${guest.username} pia --preview`).waitFor();
    await checkA11y(page, 'one user, merge preview');
    await shots(page, 'accounts-merge-preview', page.locator('[data-merge-control]'));

    // the question names both logins, the block and the 30 days
    await page.getByRole('button', { name: 'Merge the accounts' }).click();
    const question = page.getByRole('group', { name: 'Merge the accounts' });
    expect(await question.textContent()).toContain(`Merge ${guest.username} into pia? ${guest.username} is blocked and signed out everywhere; for 30 days the merge can be undone`);
    await checkA11y(page, 'one user, merge confirmation');
    await question.getByRole('button', { name: 'Yes, merge' }).click();
    const record = page.locator('[data-merge-record]');
    await record.getByText(`${guest.username} is merged into pia, blocked and signed out. The merge can be undone until`).waitFor();
    const mergeId = (await record.getAttribute('data-merge-record'))!;
    await record.getByText(`judgectl users undo-merge ${mergeId}`).waitFor();
    await expect.poll(() => page.locator('dd[data-state]').getAttribute('data-state')).toBe('blocked');
    const listed = page.locator(`li[data-merge="${mergeId}"]`);
    await listed.waitFor();
    expect(await listed.getAttribute('data-merge-state')).toBe('undoable');
    expect(await listed.getByRole('link', { name: 'pia' }).getAttribute('href')).toBe(`/staff/users/${pia.id}`);
    expect((await admin.call(ops.getManagedUser, { params: { id: guest.id } })).blockedReason).toBe('Merged into pia');
    await expect(new JudgeClient({ baseUrl: judge.url }).login(guest.username, guest.password)).rejects.toThrow();
    await checkA11y(page, 'one user, merged');
    await screenshot(page, 'accounts-merged');

    // undone: the guest is active again, and the list says so
    await record.getByRole('button', { name: 'Undo the merge' }).click();
    await page.getByText(`The merge is undone: what moved is back with ${guest.username}.`).waitFor();
    await expect.poll(() => listed.getAttribute('data-merge-state')).toBe('undone');
    await expect.poll(() => page.locator('dd[data-state]').getAttribute('data-state')).toBe('active');
    await expect.poll(() => listed.getByRole('button').count()).toBe(0);
    const [merge] = await admin.call(ops.listUserMerges, { params: { id: pia.id } });
    expect(merge).toMatchObject({ id: mergeId, undoneAt: expect.any(String), canUndo: false });
    await new JudgeClient({ baseUrl: judge.url }).login(guest.username, guest.password);

    // what stands in the way is listed, and then there is no merge button: the reader's own account
    const me = (await admin.call(ops.getAccount)).userId;
    await page.goto(`${judge.url}/staff/users/${me}`);
    const own = await previewMerge(page);
    await own.locator('[data-blockers]').getByText('You cannot merge your own account away').waitFor();
    expect(await page.getByRole('button', { name: 'Merge the accounts' }).count()).toBe(0);
    await checkA11y(page, 'one user, a merge that cannot be made');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();

    // a phone: the preview keeps to the screen
    const phone = await asAdmin(`/staff/users/${guest.id}`, PHONE);
    await previewMerge(phone);
    expect(await fitsWidth(phone)).toBe(true);
    await checkA11y(phone, 'one user, merge preview at 360 px');
    await shots(phone, 'accounts-merge-preview', phone.locator('[data-merge-control]'));
    await phone.context().close();
  }, 180_000);

  it('approves an account that registered itself while the judge asks for approval', async () => {
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true, requireApproval: true } });
    try {
      await new JudgeClient({ baseUrl: judge.url }).call(ops.register, { body: { email: 'newbie@home.example', password: 'a-long-enough-password', username: 'newbie' } });
      const page = await asAdmin('/staff/users?q=newbie');
      const row = page.locator('tr[data-user="newbie"]');
      await row.waitFor();
      expect(await row.locator('td[data-state]').getAttribute('data-state')).toBe('awaiting');
      expect(await row.locator('td[data-state]').textContent()).toBe('Awaiting approval');
      await row.getByRole('link', { name: 'newbie' }).click();
      const approve = page.locator('form[data-approve]');
      await approve.getByText('judgectl users approve newbie').waitFor();
      await checkA11y(page, 'one user, awaiting approval');
      await approve.getByRole('button', { name: 'Approve the account' }).click();
      await approve.getByText('newbie is approved and may enrol now.').waitFor();
      await expect.poll(() => approve.getByRole('button').count()).toBe(0);
      const newbie = (await admin.call(ops.lookupUsers, { query: { q: 'newbie' } })).find((u) => u.username === 'newbie')!;
      expect((await admin.call(ops.getManagedUser, { params: { id: newbie.id } })).approvedAt).toEqual(expect.any(String));
      await expect.poll(() => page.locator('dd[data-state]').textContent()).not.toContain('Awaiting approval');

      // the instance page offers the switch now that a page approves
      await page.goto(`${judge.url}/staff/instance`);
      const sw = page.getByRole('checkbox', { name: 'Self-registered accounts wait for approval' });
      expect(await sw.isChecked()).toBe(true);
      // saved as it flips: the box follows the server's answer
      await sw.click();
      await page.getByText('“Self-registered accounts wait for approval” is now off.').waitFor();
      expect((await admin.call(ops.getInstance)).requireApproval).toBe(false);
      expect(scriptProblems(page)).toEqual([]);
      await page.context().close();
    } finally {
      await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false, requireApproval: false } });
    }
  }, 120_000);

  /** On the users page: the temporary accounts form filled and sent; answers the result's part of the page. */
  async function makeTemporary(page: Page, prefix: string, count: number): Promise<Locator> {
    const form = page.locator('[data-temporary]');
    await form.getByRole('heading', { name: 'Temporary accounts' }).waitFor();
    await form.getByLabel('Login prefix').fill(prefix);
    await form.getByLabel('How many (1 to 500)').fill(String(count));
    await form.getByLabel('Enrol them in (optional)').selectOption({ label: CUP_NAME });
    await form.getByText(`judgectl users temporary --prefix ${prefix} --count ${count} --activity ${CUP} [--out FILE.csv]`).waitFor();
    await form.getByRole('button', { name: 'Create temporary accounts' }).click();
    const issued = form.locator('[data-temporary-issued]');
    await issued.getByRole('heading', { name: `${count} temporary accounts created` }).waitFor();
    return issued;
  }

  it('makes three temporary accounts whose passwords are shown once, sign in, and download as CSV', async () => {
    const page = await asAdmin('/staff/users');
    const issued = await makeTemporary(page, 'lab', 3);
    const rows = issued.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const accounts: { username: string; password: string }[] = [];
    for (const r of await rows.all()) accounts.push({ username: (await r.locator('th').textContent())!, password: (await r.locator('.issued-password').textContent())! });
    for (const a of accounts) expect(a.username).toMatch(/^lab\d+$/);
    // the heading has the focus: what the reader must act on now
    await expect.poll(() => page.evaluate<string>(`document.activeElement && document.activeElement.textContent`)).toBe('3 temporary accounts created');
    const signsIn = new JudgeClient({ baseUrl: judge.url });
    await signsIn.login(accounts[0]!.username, accounts[0]!.password);
    expect((await signsIn.call(ops.getActivity, { params: { idOrSlug: CUP } })).enrolled).toBe(true);
    await checkA11y(page, 'users, temporary accounts made');
    await shots(page, 'accounts-temporary', issued);

    const [download] = await Promise.all([page.waitForEvent('download'), issued.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('lab-accounts.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toBe(`\uFEFFusername,password\r\n${accounts.map((a) => `${a.username},${a.password}\r\n`).join('')}`);
    await issued.getByText('Saved as lab-accounts.csv.').waitFor();

    // on paper: the slips alone, one per account, with the judge's address
    await page.emulateMedia({ media: 'print' });
    const slips = page.locator('.temp-slip');
    await expect.poll(() => slips.count()).toBe(3);
    expect(await slips.first().isVisible()).toBe(true);
    expect(await page.locator('#root').isVisible()).toBe(false);
    expect(await slips.first().textContent()).toContain(judge.url);
    expect(await slips.first().textContent()).toContain(accounts[0]!.password);
    await screenshot(page, 'accounts-temporary-print');
    await page.emulateMedia({ media: 'screen' });

    // "Done" forgets them
    await issued.getByRole('button', { name: 'Done: forget the passwords' }).click();
    await issued.waitFor({ state: 'detached' });
    expect(await page.locator('.temp-slip').count()).toBe(0);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();

    const phone = await asAdmin('/staff/users', PHONE);
    const onPhone = await makeTemporary(phone, 'phone', 2);
    expect(await fitsWidth(phone)).toBe(true);
    await checkA11y(phone, 'users, temporary accounts made, at 360 px');
    await shots(phone, 'accounts-temporary', onPhone);
    await phone.context().close();
  }, 120_000);

  it('lets a pupil download everything the judge holds about her, then delete her account with her password, ending signed out for good', async () => {
    await admin.call(ops.updateInstance, { body: { accountDeletionEnabled: true } });
    const uma = await person('uma', { firstName: 'Uma', lastName: 'Unger' });
    const page = await signedIn(uma, '/account');
    const data = page.locator('[data-your-data]');
    await data.getByRole('heading', { name: 'Your data' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), data.getByRole('link', { name: 'Download everything the judge holds about you' }).click()]);
    const zip = readFileSync((await download.path())!);
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    await checkA11y(page, 'account, your data');
    await shots(page, 'accounts-your-data', data);

    // asked first: what happens, then the password (a wrong one is said at the field)
    await data.getByRole('button', { name: 'Delete my account…' }).click();
    await data.getByText('your login is replaced by a placeholder (deleted-…)').waitFor();
    const password = data.getByLabel('Your password, to confirm');
    await password.fill('not-her-password');
    await data.getByRole('button', { name: 'Delete my account for good' }).click();
    await data.getByText('That is not your password.').waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    await checkA11y(page, 'account, deleting, wrong password');
    await shots(page, 'accounts-delete', data);
    await password.fill(uma.password);
    await data.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.waitForURL((u) => u.pathname === '/' || u.pathname.startsWith('/sign-in'));
    await page.getByRole('link', { name: 'Account' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Sign out', exact: true }).count()).toBe(0);
    await expect(new JudgeClient({ baseUrl: judge.url }).login('uma', uma.password)).rejects.toThrow();
    // and the sign-in page refuses her
    await page.goto(`${judge.url}/sign-in`);
    await page.getByLabel(/User name or email/).fill('uma');
    await page.getByLabel(/^Password/).fill(uma.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(page.url()).toMatch(/\/sign-in/);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();

    // the last administrator is told why not; a phone keeps the card to its width
    const adminPage = await asAdmin('/account', PHONE);
    const card = adminPage.locator('[data-your-data]');
    await card.getByRole('heading', { name: 'Your data' }).waitFor();
    expect(await fitsWidth(adminPage)).toBe(true);
    await shots(adminPage, 'accounts-your-data', card);
    await card.getByRole('button', { name: 'Delete my account…' }).click();
    await card.getByLabel('Your password, to confirm').fill(judge.adminPassword);
    await card.getByRole('button', { name: 'Delete my account for good' }).click();
    await card.getByText('You are the last administrator of this judge').waitFor();
    expect(await fitsWidth(adminPage)).toBe(true);
    await checkA11y(adminPage, 'account, your data at 360 px');
    await shots(adminPage, 'accounts-your-data-refused', card);
    await adminPage.context().close();
    await admin.call(ops.updateInstance, { body: { accountDeletionEnabled: false } });
  }, 120_000);
});
