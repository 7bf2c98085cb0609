import { ops } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { participant, type Participant } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';
import { signInThroughPage } from './standings-world.js';

/** Where the screenshots of these pages are also put, to be looked at by a person. */
const SHOTS = '/tmp/shots';
/** The API paths of these pages: none may be asked by a browser whose account may not manage them. */
const PROVIDER_API = /\/api\/v1\/(identity\/providers|lti\/platforms|lti\/keys)/;

/**
 * The sign-in providers and LTI platforms pages (decisions §4 and §21) in a real Chromium on a real
 * `judge up` (no runner: nothing is judged): the administrator adds an OpenID Connect provider,
 * which the sign-in page's list (GET /instance) then carries, changes it with its secret kept, takes
 * the secret away and removes it; registers an LMS, reads what to enter there, links an account
 * to one of its people, is refused its removal while it is in use and switches it off instead,
 * and rotates the tool key. An account without provider:manage gets neither link nor page.
 */
describe('sign-in providers and LTI platforms in the browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let ivy: Participant;

  beforeAll(async () => {
    judge = await startJudgeUp({ runner: false, runnerUidBase: 65300 });
    chromium = await openBrowser();
    admin = await judge.admin();
    await admin.call(ops.createRole, { body: { name: 'Pupil', permissions: [] } });
    await admin.call(ops.createRole, { body: { name: 'Teacher', permissions: ['activity:create'] } });
    const keeper = await admin.call(ops.createRole, { body: { name: 'Instance keeper', permissions: ['instance:update'] } });
    // the account linked to a person of the LMS
    await participant(admin, judge.url, 'ann');
    ivy = await participant(admin, judge.url, 'ivy');
    await admin.call(ops.createGrant, { body: { userId: (await ivy.client.call(ops.getAccount)).userId, roleId: keeper.id } });
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; the refusals listed are answers the pages expect
  const scriptProblems = (page: Page, allowStatus: number[] = []) => pageProblems(page, { allowStatus: [401, 403, ...allowStatus] }).filter((p) => !/blocked eval/.test(p));
  const staffTabs = (page: Page) => page.getByRole('navigation', { name: 'Staff pages' }).getByRole('link');
  const overflow = (page: Page) => page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);

  async function adminOn(path: string, viewport: Viewport = DESKTOP): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await page.waitForURL(`**${path}`);
    return page;
  }

  /** A whole-page screenshot in test-artifacts and in /tmp/shots. */
  async function shoot(page: Page, name: string): Promise<void> {
    await screenshot(page, name);
    await page.screenshot({ path: `${SHOTS}/${name}-${page.viewportSize()?.width ?? 0}.png`, fullPage: true });
  }

  it('adds a provider that the sign-in page then lists, edits it keeping its secret, removes the secret, and removes it', async () => {
    const page = await adminOn('/staff/providers');
    await expect.poll(() => staffTabs(page).allTextContents()).toEqual(expect.arrayContaining(['Instance', 'Sign-in providers', 'LTI']));
    await page.getByRole('heading', { name: 'Sign-in providers', level: 1 }).waitFor();
    await page.getByText('No providers: accounts sign in with their passwords.').waitFor();
    await page.getByRole('button', { name: 'Add a provider' }).click();
    const form = page.locator('[data-provider-form="new"]');
    await form.getByLabel('Name on the sign-in button').fill('School accounts');
    await form.getByLabel('Slug', { exact: true }).fill('school');
    // the callback URL to register is there before the provider is saved, from the slug
    const callback = `${judge.url}/api/v1/identity/providers/school/callback`;
    await form.locator('[data-value="callback"] code').getByText(callback, { exact: true }).waitFor();
    await form.getByLabel('Issuer', { exact: true }).fill('http://login.school.example');
    await form.getByLabel('Client ID', { exact: true }).fill('judge');
    await form.getByLabel('Client secret', { exact: true }).fill('first-secret');
    await form.getByLabel('Claim the rules read').fill('groups');
    await form.getByRole('button', { name: 'Add a rule' }).click();
    await form.getByLabel('Claim value (rule 1)').fill('teachers');
    await form.getByLabel('Role (rule 1)').selectOption('Teacher');
    // a role holding system:administrator is never offered
    expect(await form.getByLabel('Role (rule 1)').locator('option').allTextContents()).not.toContain('Administrator');
    await form.getByLabel('are given a default role').check();
    await form.getByLabel('Default role', { exact: true }).selectOption('Pupil');
    await form.getByLabel('The account’s page at the provider').fill('https://login.school.example/account');

    // an insecure issuer: refused by the server, said in words and under the field, nothing lost
    await form.getByRole('button', { name: 'Add the provider' }).click();
    await form.getByRole('alert').getByText('Not saved: the issuer must be an https URL', { exact: false }).waitFor();
    const issuer = form.getByLabel('Issuer', { exact: true });
    expect(await issuer.getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('.field-error').first().textContent()).toContain('must be https');
    expect(await form.getByLabel('Claim value (rule 1)').inputValue()).toBe('teachers');
    await checkA11y(page, 'the provider form, refused');
    await shoot(page, 'providers-form');
    await issuer.fill('https://login.school.example');
    // sent from the keyboard
    await issuer.press('Enter');
    await page.getByText('School accounts is added. Register its callback URL at the provider.').waitFor();
    const card = page.locator('[data-provider="school"]');
    await card.waitFor();
    expect(await card.locator('[data-value="callback"] code').textContent()).toBe(callback);
    expect(await card.textContent()).toContain('teachers → Teacher');
    await card.getByRole('button', { name: 'Copy the callback URL of School accounts' }).click();
    await card.getByText('Copied').waitFor();
    expect((await admin.call(ops.getInstance)).providers).toEqual([{ slug: 'school', displayName: 'School accounts' }]);
    const [made] = await admin.call(ops.listProviders);
    expect(made).toMatchObject({ slug: 'school', issuer: 'https://login.school.example', clientId: 'judge', hasClientSecret: true, claimPath: 'groups', unmappedBehavior: 'defaultTemplate', defaultTemplateName: 'Pupil', accountUrl: 'https://login.school.example/account', mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }] });
    await checkA11y(page, 'the providers');
    await shoot(page, 'providers');

    // edited: the secret is said to be stored, and left empty it is kept
    await card.getByRole('button', { name: 'Edit School accounts' }).click();
    const edit = page.locator('[data-provider-form="school"]');
    await edit.locator('[data-secret-stored="client"]').getByText('A secret is stored.').waitFor();
    expect(await edit.getByLabel('New client secret').inputValue()).toBe('');
    await edit.getByLabel('Name on the sign-in button').fill('School login');
    await edit.getByRole('button', { name: 'Save the changes' }).click();
    await page.getByText('School login is saved.').waitFor();
    expect(await admin.call(ops.getProvider, { params: { id: made!.id } })).toMatchObject({ displayName: 'School login', hasClientSecret: true, mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }] });
    expect((await admin.call(ops.getInstance)).providers).toEqual([{ slug: 'school', displayName: 'School login' }]);

    // the secret removed on purpose: a public client from then on
    await card.getByRole('button', { name: 'Edit School login' }).click();
    await edit.getByLabel('Remove the stored client secret (a public client from now on)').check();
    await edit.getByText('The stored secret will be removed when you save.').waitFor();
    await edit.getByRole('button', { name: 'Save the changes' }).click();
    await page.getByText('School login is saved.').waitFor();
    expect((await admin.call(ops.getProvider, { params: { id: made!.id } })).hasClientSecret).toBe(false);
    await card.getByText('public client, no secret').waitFor();

    // removed, after being asked
    await card.getByRole('button', { name: 'Remove', exact: true }).click();
    await card.getByRole('button', { name: 'Yes, remove it' }).click();
    await page.getByText('School login is removed.').waitFor();
    await card.waitFor({ state: 'detached' });
    expect(await admin.call(ops.listProviders)).toEqual([]);
    expect((await admin.call(ops.getInstance)).providers).toEqual([]);
    expect(scriptProblems(page, [422])).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('registers an LMS and shows what to enter there, links an account, switches it off when its removal is refused, and rotates the key', async () => {
    const page = await adminOn('/staff/lti');
    await page.getByRole('heading', { name: 'LTI platforms', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add a platform' }).click();
    const form = page.locator('[data-platform-form="new"]');
    const moodle = 'https://moodle.school.example';
    await form.getByLabel('Name', { exact: true }).fill('School Moodle');
    await form.getByLabel('Issuer (platform ID)').fill(moodle);
    await form.getByLabel('Client ID', { exact: true }).fill('judge-client');
    await form.getByLabel('Deployment ID').fill('1');
    await form.getByLabel('Key set URL').fill(`${moodle}/mod/lti/certs.php`);
    await form.getByLabel('Access token URL').fill('http://moodle.school.example/mod/lti/token.php');
    await form.getByLabel('Authentication request URL').fill(`${moodle}/mod/lti/auth.php`);
    await form.getByRole('button', { name: 'Add the platform' }).click();
    // http on another machine: refused, under the field it is about
    await form.getByRole('alert').getByText('Not saved: the platform’s addresses must be https', { exact: false }).waitFor();
    expect(await form.getByLabel('Access token URL').getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Key set URL').getAttribute('aria-invalid')).toBeNull();
    await form.getByLabel('Access token URL').fill(`${moodle}/mod/lti/token.php`);
    await form.getByRole('button', { name: 'Add the platform' }).click();
    await page.getByText('School Moodle is added. Enter the values shown on its card in the LMS.').waitFor();

    // the new platform's card opens with what to enter in the LMS
    const card = page.locator('[data-platform="School Moodle"]');
    const values = card.locator('.registration .copy-values');
    await values.waitFor();
    const value = (name: string) => values.locator(`[data-value="${name}"] code`).textContent();
    expect(await value('toolUrl')).toBe(`${judge.url}/`);
    expect(await value('loginUrl')).toBe(`${judge.url}/api/v1/lti/login`);
    expect(await value('redirectUri')).toBe(`${judge.url}/api/v1/lti/launch`);
    expect(await value('keySetUrl')).toBe(`${judge.url}/api/v1/lti/jwks.json`);
    expect(await value('custom-activity')).toBe('activity=ACTIVITY-SLUG');
    expect(await card.locator('.registration').textContent()).toContain('activity=SLUG');
    await values.getByRole('button', { name: 'Copy Initiate login URL for School Moodle' }).click();
    await values.locator('[data-value="loginUrl"]').getByText('Copied').waitFor();
    const [platform] = await admin.call(ops.listLtiPlatforms);
    expect(platform).toMatchObject({ displayName: 'School Moodle', issuer: moodle, clientId: 'judge-client', deploymentId: '1', isIdentityAuthority: false, usernameClaim: 'email', enabled: true });
    await checkA11y(page, 'the LTI platforms with the registration values');
    await shoot(page, 'lti');

    // an account linked to a person of the platform, found by search, from the keyboard
    await card.getByText('Link an account', { exact: true }).click();
    const link = card.locator(`[data-link-form="${platform!.id}"]`);
    await link.getByLabel('Subject (the person’s sub at the platform)').fill('moodle-user-7');
    await link.getByLabel('Account (search by login, name or email)').fill('ann');
    await link.getByRole('button', { name: 'ann', exact: true }).click();
    await link.getByRole('button', { name: 'Link the account' }).focus();
    await page.keyboard.press('Enter');
    await link.getByText('ann is linked to moodle-user-7 of School Moodle.').waitFor();
    await checkA11y(page, 'an account linked to a person of the platform');
    await shoot(page, 'lti-linked');

    // in use now: its removal is refused in words, and switching it off is offered
    await card.getByRole('button', { name: 'Remove', exact: true }).click();
    await card.getByRole('button', { name: 'Yes, remove it' }).click();
    const refusal = card.locator('[data-code="lti.platform.inUse"]');
    await refusal.getByText('Not removed: accounts are linked to this platform', { exact: false }).waitFor();
    await checkA11y(page, 'a platform whose removal is refused');
    await shoot(page, 'lti-refused');
    await refusal.getByRole('button', { name: 'Switch it off instead' }).click();
    await page.getByText('School Moodle is switched off', { exact: false }).waitFor();
    await card.locator('.badge.off').waitFor();
    expect((await admin.call(ops.getLtiPlatform, { params: { id: platform!.id } })).enabled).toBe(false);

    // edited: back on, under another name
    await card.getByRole('button', { name: 'Edit School Moodle' }).click();
    const edit = page.locator(`[data-platform-form="${platform!.id}"]`);
    await edit.getByLabel('Name', { exact: true }).fill('Moodle of the school');
    await edit.getByLabel('Enabled', { exact: true }).check();
    await edit.getByRole('button', { name: 'Save the changes' }).click();
    await page.getByText('Moodle of the school is saved.').waitFor();
    expect(await admin.call(ops.getLtiPlatform, { params: { id: platform!.id } })).toMatchObject({ displayName: 'Moodle of the school', enabled: true, issuer: moodle });

    // a platform nobody uses is removed
    await admin.call(ops.createLtiPlatform, {
      body: { displayName: 'Trial Canvas', issuer: 'https://canvas.instructure.com', clientId: '10000000000001', deploymentId: '7:abc', keySetUrl: 'https://sso.canvaslms.com/api/lti/security/jwks', authTokenUrl: 'https://sso.canvaslms.com/login/oauth2/token', authLoginUrl: 'https://sso.canvaslms.com/api/lti/authorize_redirect' },
    });
    await page.reload();
    const trial = page.locator('[data-platform="Trial Canvas"]');
    await trial.getByRole('button', { name: 'Remove', exact: true }).click();
    await trial.getByRole('button', { name: 'Yes, remove it' }).click();
    await page.getByText('Trial Canvas is removed.').waitFor();
    expect((await admin.call(ops.listLtiPlatforms)).map((p) => p.displayName)).toEqual(['Moodle of the school']);

    // the tool key, rotated after being asked: the new one is published
    const before = (await admin.call(ops.ltiKeySet)).keys.map((k) => k.kid);
    await page.getByRole('button', { name: 'Rotate the tool key' }).click();
    await page.getByRole('button', { name: 'Yes, make a new key' }).click();
    const said = page.locator('[data-kid]');
    await said.waitFor();
    const kid = (await said.getAttribute('data-kid'))!;
    expect(before).not.toContain(kid);
    expect((await admin.call(ops.ltiKeySet)).keys.map((k) => k.kid)).toContain(kid);
    expect(scriptProblems(page, [409, 422])).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('gives an account without provider:manage no link to either page, and refuses both without asking the server', async () => {
    const page = await chromium.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/')) asked.push(new URL(r.url()).pathname);
    });
    await signInThroughPage(page, judge.url, ivy, '/staff');
    await page.waitForURL('**/staff');
    await expect.poll(() => staffTabs(page).allTextContents()).toContain('Instance');
    const tabs = await staffTabs(page).allTextContents();
    expect(tabs).not.toContain('Sign-in providers');
    expect(tabs).not.toContain('LTI');
    for (const path of ['/staff/providers', '/staff/lti']) {
      await page.goto(`${judge.url}${path}`);
      await page.getByRole('heading', { name: 'Not for your account' }).waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('provider:manage');
    }
    await checkA11y(page, 'the LTI page refused');
    expect(asked.filter((p) => PROVIDER_API.test(p))).toEqual([]);
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('fits a 1280 px screen and a 360 px phone, lists and forms alike', async () => {
    await admin.call(ops.createProvider, {
      body: { slug: 'microsoft-school', displayName: 'Microsoft accounts of the Lindenberg school', issuer: 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0', clientId: '00000000-0000-0000-0000-000000000042', clientSecret: 's', mappingRules: [{ claimValue: 'a-rather-long-group-name-from-the-directory', templateName: 'Teacher' }] },
    });
    await admin.call(ops.createLtiPlatform, {
      body: { displayName: 'Canvas of the district', issuer: 'https://canvas.instructure.com', clientId: '10000000000002', deploymentId: '12:8865aa05b4b79b64a91a86042e43af5ea8ae79eb', keySetUrl: 'https://sso.canvaslms.com/api/lti/security/jwks', authTokenUrl: 'https://sso.canvaslms.com/login/oauth2/token', authLoginUrl: 'https://sso.canvaslms.com/api/lti/authorize_redirect', isIdentityAuthority: true, identityNamespace: 'district' },
    });
    for (const viewport of [DESKTOP, PHONE]) {
      for (const [path, name, add] of [
        ['/staff/providers', 'providers', 'Add a provider'],
        ['/staff/lti', 'lti', 'Add a platform'],
      ] as const) {
        const page = await adminOn(path, viewport);
        await page.locator('h1').waitFor();
        await expect.poll(() => page.locator('.loading').count()).toBe(0);
        if (name === 'lti') {
          await page.getByText('What to enter in the LMS').first().click();
          await page.locator('.registration .copy-values').first().waitFor();
        }
        expect(await overflow(page), `${path} at ${viewport.width} px`).toBeLessThanOrEqual(0);
        await checkA11y(page, `${path} at ${viewport.width} px`);
        await shoot(page, `${name}-list`);
        await page.getByRole('button', { name: add }).click();
        if (name === 'providers') await page.getByRole('button', { name: 'Add a rule' }).click();
        expect(await overflow(page), `${path} with its form at ${viewport.width} px`).toBeLessThanOrEqual(0);
        await checkA11y(page, `${path} with its form at ${viewport.width} px`);
        await shoot(page, `${name}-add`);
        expect(scriptProblems(page)).toEqual([]);
        await page.context().close();
      }
    }
    // German words are longer: both pages, the forms open, still fit a phone
    for (const [path, title, add, name] of [
      ['/staff/providers', 'Anmeldedienste', 'Dienst hinzufügen', 'providers-de'],
      ['/staff/lti', 'LTI-Plattformen', 'Plattform hinzufügen', 'lti-de'],
    ] as const) {
      const page = await adminOn(path, PHONE);
      await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await page.getByRole('button', { name: add }).click();
      await expect.poll(() => page.locator('.loading').count()).toBe(0);
      expect(await overflow(page), `${path} in German at 360 px`).toBeLessThanOrEqual(0);
      await checkA11y(page, `${path} in German at 360 px`);
      await shoot(page, name);
      await page.context().close();
    }
  }, 240_000);
});
