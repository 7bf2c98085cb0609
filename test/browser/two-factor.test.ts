import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkA11y, openBrowser, pageProblems, PHONE, screenshot, SCREENSHOTS, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';
import { signInThroughPage } from './standings-world.js';

interface Person {
  id: string;
  username: string;
  password: string;
}

/** The code an authenticator app shows for this key at this moment (RFC 6238: SHA-1, 6 digits, 30 s). */
const codeAt = (key: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

/**
 * A code of the next 30-second step. The server takes a code once per step (the step turning it on
 * included) and one step either side of its clock: the next step's code is new and still accepted,
 * as a person typing the app's next code would send, without waiting for it.
 */
const nextCode = (key: string) => codeAt(key, Date.now() + 30_000);

/** A code of none of the steps the server accepts now. */
function wrongCode(key: string): string {
  const near = [-30_000, 0, 30_000, 60_000].map((d) => codeAt(key, Date.now() + d));
  for (let c = 123456; ; c++) if (!near.includes(String(c))) return String(c);
}

/**
 * Two-factor sign-in in a real Chromium on a real `judge up`: setting it up on the account page
 * (the QR code, the key, the recovery codes shown once), signing in with a code (a wrong one
 * first), a remembered browser, a recovery code, the staff page of a user who lost the phone, the
 * instance's list of permissions that need it, and the notice to an account that lacks it.
 */
describe('two-factor sign-in in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;

  beforeAll(async () => {
    // nothing is judged here, so no runner (its uid base, were it started, is 64700)
    judge = await startJudgeUp({ runner: false, runnerUidBase: 64700 });
    chromium = await openBrowser();
    admin = await judge.admin();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  async function person(username: string): Promise<Person> {
    const issued = await admin.call(ops.createUser, { body: { username } });
    return { id: issued.userId, username: issued.username, password: issued.password };
  }

  // zod probes whether eval is allowed, and the CSP rightly refuses; the refusals these pages show are answers
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 422] }).filter((p) => !/blocked eval/.test(p));
  const fitsWidth = (page: Page) => page.evaluate<boolean>(`document.documentElement.scrollWidth <= window.innerWidth`);
  const card = (page: Page) => page.locator('section.two-factor');

  /** The whole page, and the two-factor card alone (what a reviewer looks at on a phone-sized page). */
  async function shots(page: Page, name: string): Promise<void> {
    await screenshot(page, name);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await card(page).screenshot({ path: join(SCREENSHOTS, `${name}-card-${page.viewportSize()?.width ?? 0}.png`) });
  }

  /** On the account page: set up two-factor sign-in as its owner would, a wrong code first. Answers the key and the recovery codes. */
  async function enrolOnPage(page: Page, shot: string): Promise<{ key: string; codes: string[] }> {
    await card(page).getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await card(page).getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = card(page).getByRole('img', { name: 'QR code to scan with your authenticator app' });
    await qr.waitFor();
    // drawn: the image decoded (an SVG of the qrcode package, from a data: URL the CSP allows)
    await expect.poll(() => page.evaluate<number>(`(() => { const i = document.querySelector('section.two-factor .qr img'); return i && i.complete ? i.naturalWidth : 0; })()`)).toBeGreaterThan(0);
    const box = (await qr.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(180);
    expect(box.width).toBeLessThanOrEqual(220);
    const shown = (await card(page).locator('.shared-key').textContent())!;
    expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    const key = shown.replace(/\s/g, '');
    expect(await card(page).locator('.shared-key').getAttribute('data-shared-key')).toBe(key);
    expect(await fitsWidth(page)).toBe(true);
    await checkA11y(page, 'account, setting up two-factor sign-in');
    await shots(page, `${shot}-setup`);

    const field = card(page).getByLabel('Code from your authenticator app');
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    await field.fill(wrongCode(key));
    await card(page).getByRole('button', { name: 'Turn on' }).click();
    await card(page).getByText("That code is not the one your app shows now. Check the phone's clock or wait for the next code.").waitFor();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    await field.fill(codeAt(key));
    await card(page).getByRole('button', { name: 'Turn on' }).click();

    const list = card(page).getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const codes = (await list.locator('li').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    await card(page).getByText('they are shown only this once').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await checkA11y(page, 'account, recovery codes');
    await shots(page, `${shot}-codes`);
    return { key, codes };
  }

  async function signInStep(page: Page, p: Person, remember = false): Promise<void> {
    // a sign-out's own fresh load of the sign-in page may still be under way: it wins, then ours runs
    for (let i = 0; ; i++) {
      try {
        await page.goto(`${judge.url}/sign-in`);
        break;
      } catch (e) {
        if (i >= 2 || !/interrupted by another navigation|ERR_ABORTED/.test(String(e))) throw e;
        await page.waitForLoadState('load');
      }
    }
    await page.getByLabel(/User name or email/).fill(p.username);
    await page.getByLabel(/^Password/).fill(p.password);
    if (remember) await page.getByLabel('Keep me signed in on this computer').check();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function signOut(page: Page): Promise<void> {
    // signing out loads the sign-in page afresh; the route may reach /sign-in before that load, and a
    // navigation of the test's own started meanwhile would be aborted by it
    const fresh = page.waitForResponse((r) => r.request().resourceType() === 'document' && new URL(r.url()).pathname === '/sign-in');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await fresh;
    await page.waitForLoadState('load');
  }

  it('sets it up on the account page, then signs in with a code (a wrong one first), in a remembered browser, and with a recovery code', async () => {
    const ada = await person('ada');
    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, ada, '/account');
    await card(page).getByText('a six-digit code that an authenticator app on your phone shows').waitFor();
    const { key, codes } = await enrolOnPage(page, 'two-factor');

    // the codes as a text file, shown once: "Done" leaves the state that is on
    const [download] = await Promise.all([page.waitForEvent('download'), card(page).getByRole('button', { name: 'Download as text' }).click()]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    const file = readFileSync((await download.path())!, 'utf8');
    for (const c of codes) expect(file).toContain(`${c}\n`);
    expect(file).toContain('Recovery codes for ada');
    await card(page).getByRole('button', { name: 'Done, I saved them' }).click();
    await card(page).getByText('Two-factor sign-in is on.').waitFor();
    await card(page).getByText('10 recovery codes left.').waitFor();
    await expect.poll(() => card(page).getByRole('list', { name: 'Recovery codes' }).count()).toBe(0);
    await checkA11y(page, 'account, two-factor sign-in on');
    await shots(page, 'two-factor-on');
    expect(scriptProblems(page)).toEqual([]);

    // the password alone is not enough now: the code step asks for the app's code
    await signOut(page);
    await signInStep(page, ada);
    const code = page.getByLabel('Code from your authenticator app');
    await code.waitFor();
    // focused by an effect after the render that shows it: asked until it has happened
    await expect.poll(() => page.evaluate<string>(`document.activeElement && document.activeElement.name`)).toBe('twoFactorCode');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    await page.getByText('Signing in as ada.').waitFor();
    await checkA11y(page, 'sign-in, code step');
    await screenshot(page, 'sign-in-code');
    await code.fill(wrongCode(key));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('That code is wrong.').waitFor();
    await expect.poll(() => code.inputValue()).toBe('');
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toMatch(/\/sign-in$/);
    // ticked at the code step: this browser is remembered, and the page says for how long
    await page.getByLabel('Keep me signed in on this computer').check();
    await page.getByText('this browser will not ask for a code again for 30 days').waitFor();
    await checkA11y(page, 'sign-in, code refused');
    await screenshot(page, 'sign-in-code-refused');
    await code.fill(nextCode(key));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${judge.url}/`);
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();

    // remembered: the password alone signs in here, until the account page forgets this browser
    await signOut(page);
    await signInStep(page, ada);
    await page.waitForURL(`${judge.url}/`);
    await page.goto(`${judge.url}/account`);
    await card(page).getByText('This browser signs in without a code').waitFor();
    await card(page).getByRole('button', { name: 'Forget this browser' }).click();
    await card(page).getByText('This browser asks for a code again at the next sign-in.').waitFor();
    await expect.poll(() => card(page).getByRole('button', { name: 'Forget this browser' }).count()).toBe(0);

    // without the phone: a recovery code, once
    await signOut(page);
    await signInStep(page, ada);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    const recovery = page.getByLabel('Recovery code');
    await recovery.waitFor();
    await recovery.fill(codes[0]!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${judge.url}/`);
    await page.goto(`${judge.url}/account`);
    await card(page).getByText('9 recovery codes left.').waitFor();
    await signOut(page);
    await signInStep(page, ada);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('That recovery code is wrong, or it was used already.').waitFor();
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('fits a phone: setting it up, the recovery codes, the state that is on and the code step', async () => {
    const ben = await person('ben');
    const page = await chromium.newPage(PHONE);
    await signInThroughPage(page, judge.url, ben, '/account');
    const { key } = await enrolOnPage(page, 'two-factor-phone');
    await card(page).getByRole('button', { name: 'Done, I saved them' }).click();
    await card(page).getByText('Two-factor sign-in is on.').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await shots(page, 'two-factor-phone-on');

    // a new key for a new phone, asked first: then it is off, and the new key is shown to scan
    await card(page).getByRole('button', { name: 'Use a new key (new phone)' }).click();
    await card(page).getByRole('button', { name: 'Yes, make a new key' }).click();
    await card(page).getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    const fresh = (await card(page).locator('.shared-key').getAttribute('data-shared-key'))!;
    expect(fresh).not.toBe(key);
    // a code of a later step than the one that turned the first key on: the server takes each step once
    await card(page).getByLabel('Code from your authenticator app').fill(nextCode(fresh));
    await card(page).getByRole('button', { name: 'Turn on' }).click();
    // the ten codes of the first setup are all unused, so no new ones are made
    await card(page).getByText('Two-factor sign-in is on.').waitFor();
    await card(page).getByText('10 recovery codes left.').waitFor();

    // new recovery codes, asked first, shown once
    await card(page).getByRole('button', { name: 'Make new recovery codes' }).click();
    await card(page).getByText('The old ones stop working at once.').waitFor();
    await card(page).getByRole('button', { name: 'Yes, make new ones' }).click();
    await expect.poll(() => card(page).getByRole('list', { name: 'Recovery codes' }).locator('li').count()).toBe(10);
    await card(page).getByRole('button', { name: 'Done, I saved them' }).click();
    await card(page).getByText('10 recovery codes left.').waitFor();

    await signOut(page);
    await signInStep(page, ben, true);
    await page.getByLabel('Code from your authenticator app').waitFor();
    await page.getByText('this browser will not ask for a code again for 30 days').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await checkA11y(page, 'sign-in, code step on a phone');
    await screenshot(page, 'sign-in-code-phone');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('lets an administrator turn off the two-factor sign-in of an owner who lost the phone, and refuses a rule that would lock the administrator out', async () => {
    const cleo = await person('cleo');
    const own = new JudgeClient({ baseUrl: judge.url });
    await own.login(cleo.username, cleo.password);
    const { sharedKey } = await own.call(ops.manageTwoFactor, { body: {} });
    await own.call(ops.manageTwoFactor, { body: { enable: true, twoFactorCode: codeAt(sharedKey) } });
    await expect(new JudgeClient({ baseUrl: judge.url }).login(cleo.username, cleo.password)).rejects.toMatchObject({ status: 401, detail: 'RequiresTwoFactor' });

    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, `/staff/users/${cleo.id}`);
    const facts = page.locator('.admin-facts');
    await facts.locator('[data-two-factor="on"]').waitFor();
    expect(await facts.locator('[data-two-factor]').textContent()).toBe('on');
    const action = page.locator('form[data-two-factor-off]');
    await action.getByText('lost the phone with the authenticator app and the recovery codes').waitFor();
    await action.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await action.getByText('Turn off two-factor sign-in for cleo?').waitFor();
    await checkA11y(page, 'staff user, turning two-factor sign-in off');
    await screenshot(page, 'staff-user-two-factor-confirm');
    await action.getByRole('button', { name: 'Yes, turn it off' }).click();
    await action.getByText('Two-factor sign-in of cleo is off.').waitFor();
    await facts.locator('[data-two-factor="off"]').waitFor();
    await new JudgeClient({ baseUrl: judge.url }).login(cleo.username, cleo.password);

    // the instance's rule: the administrator has no second factor, so it would take their permissions
    await page.goto(`${judge.url}/staff/instance`);
    const rule = page.locator('form.require-two-factor');
    await rule.getByRole('heading', { name: 'Two-factor sign-in required for' }).waitFor();
    await rule.getByText('no permission (nobody needs two-factor sign-in)').waitFor();
    await rule.getByText('Choose the permissions').click();
    await rule.locator('label.permission', { hasText: 'system:administrator' }).getByRole('checkbox').check();
    await rule.getByRole('button', { name: 'Save the list' }).click();
    await rule.getByText('Not saved: this list would take permissions from you').waitFor();
    expect(await rule.getByRole('link', { name: 'Go to your account page' }).getAttribute('href')).toBe('/account#two-factor');
    await checkA11y(page, 'instance, two-factor rule refused');
    await screenshot(page, 'instance-two-factor-refused');
    expect((await admin.call(ops.getInstance)).requireTwoFactorFor).toEqual([]);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('tells an account that lacks two-factor sign-in, where the instance requires it, on its account page and on the staff page that refuses it', async () => {
    // the administrator turns it on first (over the API), then requires it for looking up users
    const { sharedKey } = await admin.call(ops.manageTwoFactor, { body: {} });
    await admin.call(ops.manageTwoFactor, { body: { enable: true, twoFactorCode: codeAt(sharedKey) } });
    const lookup = await admin.call(ops.createRole, { body: { name: 'User lookup', permissions: ['user:read:all'] } });
    const dora = await person('dora');
    await admin.call(ops.createGrant, { body: { userId: dora.id, roleId: lookup.id } });
    await admin.call(ops.updateInstance, { body: { requireTwoFactorFor: ['user:read:all'] } });

    const page = await chromium.newPage();
    await signInThroughPage(page, judge.url, dora, '/account');
    const banner = page.locator('.account-page > [data-two-factor="required"]');
    await banner.getByText('This installation requires two-factor sign-in for the permissions your account holds.').waitFor();
    // the card opens at the setup, with nothing to put it off
    await card(page).locator('[data-two-factor="required"]').waitFor();
    await card(page).getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    expect(await card(page).getByRole('button', { name: 'Not now' }).count()).toBe(0);
    await checkA11y(page, 'account, two-factor sign-in required');
    await shots(page, 'two-factor-required');

    await page.goto(`${judge.url}/staff/users`);
    await page.getByRole('link', { name: 'Set up two-factor sign-in' }).waitFor();
    await screenshot(page, 'staff-refused-two-factor');
    await page.getByRole('link', { name: 'Set up two-factor sign-in' }).click();
    await page.waitForURL(/\/account#two-factor$/);
    const key = (await card(page).locator('.shared-key').getAttribute('data-shared-key'))!;
    await card(page).getByLabel('Code from your authenticator app').fill(codeAt(key));
    await card(page).getByRole('button', { name: 'Turn on' }).click();
    await card(page).getByRole('button', { name: 'Done, I saved them' }).click();
    await card(page).getByText('Two-factor sign-in is on.').waitFor();
    // the notices go once the account's state is read again
    await expect.poll(() => page.locator('[data-two-factor="required"]').count()).toBe(0);
    // with it on, the permission is hers again
    await page.goto(`${judge.url}/staff/users`);
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();

    // turned off again (asked first), the notice is back
    await page.goto(`${judge.url}/account`);
    await card(page).getByRole('button', { name: 'Turn off' }).click();
    await card(page).getByRole('button', { name: 'Yes, turn it off' }).click();
    await card(page).getByText('Two-factor sign-in is off.').waitFor();
    await page.locator('.account-page > [data-two-factor="required"]').waitFor();
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 90_000);
});
