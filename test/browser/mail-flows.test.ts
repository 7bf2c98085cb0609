import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextOutboxMail, outboxFiles } from '../../packages/server/test/support/outbox.js';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { signInThroughPage } from './standings-world.js';

interface Person {
  userId: string;
  username: string;
  password: string;
  email: string;
}

/**
 * The pages behind the judge's mail, in a real Chromium on a real `judge up` without an SMTP
 * server, so every message lands in DATA_DIR/outbox/ and is read from there as a mailbox would
 * show it: a forgotten password reset through its link, a confirmation link that does not work,
 * an address confirmed again and changed from the account page, and a registration that must be
 * confirmed before it signs in.
 */
describe('mail flows in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;

  beforeAll(async () => {
    // nothing is judged here, so no runner (its uid base, were it started, is 64900)
    judge = await startJudgeUp({ runner: false, runnerUidBase: 64900 });
    chromium = await openBrowser();
    admin = await judge.admin();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  async function person(username: string): Promise<Person> {
    const email = `${username}@school.example`;
    const issued = await admin.call(ops.createUser, { body: { username, email } });
    return { userId: issued.userId, username: issued.username, password: issued.password, email };
  }

  // zod probes whether eval is allowed, and the CSP rightly refuses; the refusals these pages show are answers
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 409, 422] }).filter((p) => !/blocked eval/.test(p));
  const fitsWidth = (page: Page) => page.evaluate<boolean>(`document.documentElement.scrollWidth <= window.innerWidth`);

  it('resets a forgotten password through the mailed link: a wrong code is refused in words, every session ends, the new password signs in', async () => {
    const rosa = await person('rosa');
    const elsewhere = new JudgeClient({ baseUrl: judge.url });
    await elsewhere.login(rosa.username, rosa.password);
    const page = await chromium.newPage();
    await page.goto(`${judge.url}/sign-in`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await checkA11y(page, 'forgot password');
    await screenshot(page, 'forgot-password');

    await page.getByLabel('Email address').fill(rosa.email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText('If an account has this address, a message with a code is on its way').waitFor();
    await checkA11y(page, 'forgot password, sent');
    await screenshot(page, 'forgot-password-sent');
    const mail = await nextOutboxMail(judge.dataDir, rosa.email);
    const link = mail.links.find((l) => l.includes('/reset-password?'))!;
    expect(link.startsWith(`${judge.url}/reset-password?`)).toBe(true);

    // typed by hand first, wrongly: refused at the code, with the way to a new one
    await page.getByRole('link', { name: 'I have a code' }).click();
    await page.waitForURL(/\/reset-password\?email=/);
    expect(await page.getByLabel('Email address').inputValue()).toBe(rosa.email);
    await page.getByLabel('Code', { exact: true }).fill('AAAA-BBBB-CCCC-DDDD');
    await page.getByLabel('New password', { exact: true }).fill('rosas-new-password');
    await page.getByLabel('New password again').fill('rosas-new-password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('This code is wrong, was used already or has expired').waitFor();
    expect(await page.getByLabel('Code', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('link', { name: 'Ask for a new code' }).getAttribute('href')).toBe(`/forgot-password?email=${encodeURIComponent(rosa.email)}`);
    await checkA11y(page, 'reset password, refused');
    await screenshot(page, 'reset-password-refused');

    // the message's link brings address and code along
    await page.goto(link);
    expect(await page.getByLabel('Email address').inputValue()).toBe(rosa.email);
    expect(await page.getByLabel('Code', { exact: true }).inputValue()).toBe(mail.code);
    await page.getByLabel('New password', { exact: true }).fill('rosas-new-password');
    await page.getByLabel('New password again').fill('rosas-other-password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    await page.getByLabel('New password again').fill('rosas-new-password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password is changed.').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Your password is changed.' }).textContent()).toContain('you are signed out in every browser and on every device');
    await checkA11y(page, 'reset password, done');
    await screenshot(page, 'reset-password-done');
    await expect(elsewhere.call(ops.getAccount)).rejects.toMatchObject({ status: 401 });

    await page.getByRole('link', { name: 'Sign in with the new password' }).click();
    await page.waitForURL(/\/sign-in$/);
    await page.getByLabel(/User name or email/).fill(rosa.email);
    await page.getByLabel(/^Password/).fill('rosas-new-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${judge.url}/`);
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();

    // the link works once
    const again = await chromium.newPage();
    await again.goto(link);
    await again.getByLabel('New password', { exact: true }).fill('rosas-third-password');
    await again.getByLabel('New password again').fill('rosas-third-password');
    await again.getByRole('button', { name: 'Set the new password' }).click();
    await again.getByText('This code is wrong, was used already or has expired').waitFor();
    await again.context().close();
  }, 90_000);

  it('says "confirming…" while a confirmation link is checked, and refuses a wrong code in words, offering a new message', async () => {
    const sam = await person('sam');
    const page = await chromium.newPage();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route((url) => url.pathname.endsWith('/identity/confirmEmail'), async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${judge.url}/confirm-email?userId=${sam.userId}&code=WRNG-C0DE-WRNG-C0DE`);
    await page.getByRole('status').filter({ hasText: 'Confirming your address…' }).waitFor();
    release();
    await page.getByRole('alert').filter({ hasText: 'This confirmation link does not work' }).waitFor();
    await checkA11y(page, 'confirm email, refused');
    await screenshot(page, 'confirm-email-refused');

    const before = outboxFiles(judge.dataDir);
    await page.getByLabel('Email address').fill(sam.email);
    await page.getByRole('button', { name: 'Send a new confirmation' }).click();
    await page.getByText('If an account with this address waits for confirmation, a message with a new link is on its way').waitFor();
    const mail = await nextOutboxMail(judge.dataDir, sam.email, before);
    const link = mail.links.find((l) => l.includes('/confirm-email?'))!;
    expect(new URL(link).searchParams.get('userId')).toBe(sam.userId);
    await page.goto(link);
    await page.getByText('Your address is confirmed.').waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await admin.call(ops.getManagedUser, { params: { id: sam.userId } })).toMatchObject({ emailConfirmed: true });
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('shows the address on the account page: sends the confirmation again, and changes it only once the new one is confirmed', async () => {
    const tom = await person('tom');
    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, tom, '/account');
    const now = page.locator('.address-now');
    await now.getByText('Not confirmed').waitFor();
    expect(await now.textContent()).toContain(tom.email);
    await checkA11y(page, 'account, address not confirmed');
    await screenshot(page, 'account-address-unconfirmed');

    await page.getByRole('button', { name: 'Send the confirmation again' }).click();
    await page.getByText(`A new confirmation message is on its way to ${tom.email}`).waitFor();
    const confirmation = await nextOutboxMail(judge.dataDir, tom.email);
    await page.goto(confirmation.links.find((l) => l.includes('/confirm-email?'))!);
    await page.getByText('Your address is confirmed.').waitFor();
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await now.getByText('Confirmed', { exact: true }).waitFor();

    await page.getByLabel('New address').fill(tom.email.toUpperCase());
    await page.getByRole('button', { name: 'Change address' }).click();
    await page.getByText('This is your address already.').waitFor();
    await page.getByLabel('New address').fill('tom@home.example');
    await page.getByRole('button', { name: 'Change address' }).click();
    await page.getByText('We mailed a code to tom@home.example.').waitFor();
    expect(await now.textContent()).toContain(tom.email);
    expect(await admin.call(ops.getManagedUser, { params: { id: tom.userId } })).toMatchObject({ email: tom.email });
    await checkA11y(page, 'account, new address mailed');
    await screenshot(page, 'account-address-mailed');

    const change = await nextOutboxMail(judge.dataDir, 'tom@home.example');
    const link = change.links.find((l) => l.includes('/confirm-email?'))!;
    expect(new URL(link).searchParams.get('changedEmail')).toBe('tom@home.example');
    await page.goto(link);
    await page.getByText('Your address is now tom@home.example.').waitFor();
    await checkA11y(page, 'confirm email, changed');
    await screenshot(page, 'confirm-email-changed');
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await now.getByText('tom@home.example').waitFor();
    await now.getByText('Confirmed', { exact: true }).waitFor();
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('tells a new account to confirm its address when the instance asks for it, and says why sign-in waits until then', async () => {
    const was = await admin.call(ops.getInstance);
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true, requireConfirmedEmail: true } });
    try {
      const page = await chromium.newPage();
      await page.goto(`${judge.url}/register`);
      await page.getByLabel('Email address').fill('vera@school.example');
      await page.getByLabel('Password', { exact: true }).fill('veras-password-1');
      await page.getByLabel('Password again').fill('veras-password-1');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('We mailed a link to vera@school.example').waitFor();
      await checkA11y(page, 'registered, to confirm');
      await screenshot(page, 'register-confirm');

      await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel(/User name or email/).fill('vera@school.example');
      await page.getByLabel(/^Password/).fill('veras-password-1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('This account may not sign in now.').waitFor();
      expect(await page.getByRole('link', { name: 'Ask for a new confirmation message' }).getAttribute('href')).toBe('/confirm-email');

      const mail = await nextOutboxMail(judge.dataDir, 'vera@school.example');
      await page.goto(mail.links.find((l) => l.includes('/confirm-email?'))!);
      await page.getByText('Your address is confirmed.').waitFor();
      await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel(/User name or email/).fill('vera@school.example');
      await page.getByLabel(/^Password/).fill('veras-password-1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${judge.url}/`);
      await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      expect(scriptProblems(page)).toEqual([]);
      await page.context().close();
    } finally {
      await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: was.localRegistrationEnabled, requireConfirmedEmail: was.requireConfirmedEmail } });
    }
  }, 60_000);

  it('lays the new pages out at 1280 and 360 px, signed out and signed in, without a serious accessibility fault', async () => {
    const uma = await person('uma');
    const pages: [string, string][] = [
      ['forgot-password', '/forgot-password?email=uma%40school.example'],
      ['reset-password', '/reset-password?email=uma%40school.example&code=K7QF-2M9X-RT4P-8HWB'],
      ['confirm-email', '/confirm-email'],
    ];
    for (const viewport of [undefined, PHONE] as (Viewport | undefined)[]) {
      const page = await chromium.newPage(viewport);
      for (const [name, path] of pages) {
        await page.goto(`${judge.url}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await fitsWidth(page), name).toBe(true);
        await checkA11y(page, `${name} at ${viewport?.width ?? 1280} px`);
        await screenshot(page, name);
      }
      // signed in, the confirmation page also takes the code typed from the message
      await signInThroughPage(page, judge.url, uma, `/sign-in?next=${encodeURIComponent('/confirm-email')}`);
      await page.getByRole('heading', { name: 'Enter the code from the message' }).waitFor();
      expect(await page.getByLabel('Address the code was mailed to').inputValue()).toBe(uma.email);
      expect(await fitsWidth(page)).toBe(true);
      await checkA11y(page, 'confirm email, signed in');
      await screenshot(page, 'confirm-email-signed-in');
      await page.goto(`${judge.url}/account`);
      await page.locator('.address-now').waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await checkA11y(page, 'account with the address');
      await screenshot(page, 'account-address');
      expect(scriptProblems(page)).toEqual([]);
      await page.context().close();
    }
  }, 90_000);

  it('confirms an address with the code typed in by a signed-in reader', async () => {
    const val = await person('val');
    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, val, '/account');
    await page.getByRole('button', { name: 'Send the confirmation again' }).click();
    const mail = await nextOutboxMail(judge.dataDir, val.email);
    await page.getByRole('link', { name: 'Enter the code' }).click();
    await page.waitForURL(/\/confirm-email$/);
    await page.getByLabel('Code', { exact: true }).fill('K7QF-2M9X-RT4P-8HWB');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByText('This code is wrong, was used already or has expired, or it was mailed to another address.').waitFor();
    // as typed from a printout: small letters, spaces for dashes
    await page.getByLabel('Code', { exact: true }).fill(mail.code!.toLowerCase().replace(/-/g, ' '));
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByText('Your address is confirmed.').waitFor();
    expect(await admin.call(ops.getManagedUser, { params: { id: val.userId } })).toMatchObject({ emailConfirmed: true });
    await page.context().close();
  }, 60_000);
});
