import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, checkA11y, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';

/**
 * The instance's look in a real Chromium on a real `judge up`: the theme's colours reach every page
 * (signed out too) and change on open pages when an administrator saves them on the Instance page,
 * the logo stands in the header, the documents in force are linked at the foot and shown, and terms
 * in force must be accepted to register.
 */
describe('the instance look', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;

  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const colourOf = (page: Page, selector: string, property: string) =>
    page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).getPropertyValue(${JSON.stringify(property)})`);
  const fitsWidth = (page: Page) => page.evaluate<boolean>(`document.documentElement.scrollWidth <= window.innerWidth`);

  beforeAll(async () => {
    judge = await startJudgeUp({ runner: false, runnerUidBase: 65400 });
    chromium = await openBrowser();
    admin = await judge.admin();
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true, name: 'Lab judge' } });
    const logo = await admin.upload('logo.png', PNG, 'image/png');
    await admin.call(ops.setLogo, { body: { fileId: logo.id } });
    const terms = await admin.upload('terms.md', '# Terms of the lab\n\nBe kind to the judge.\n', 'text/markdown');
    await admin.call(ops.publishInstanceDocuments, { params: { kind: 'terms' }, body: { statements: [{ fileId: terms.id, title: 'Terms of the lab' }] } });
    await admin.call(ops.setTheme, { body: { light: { headerBackground: '#102030', headerText: '#ffffff', navText: '#ffffff', navActiveText: '#ffffff' } } });
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  it('wears the theme and the logo signed out, links the terms, and asks to accept them at registration', async () => {
    const page = await chromium.newPage();
    await page.goto(`${judge.url}/register`);
    await page.getByRole('heading', { name: 'Register' }).waitFor();
    expect(await colourOf(page, '.site-header', 'background-color')).toBe('rgb(16, 32, 48)');
    const logo = page.locator('.site-header .brand img');
    await expect.poll(() => logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
    const footerLink = page.getByRole('navigation', { name: 'About this judge' }).getByRole('link', { name: 'Terms of the lab' });
    await footerLink.waitFor();
    await page.getByLabel('Email address').fill('newcomer@school.example');
    await page.getByLabel('Password', { exact: true }).fill('a long enough password');
    await page.getByLabel('Password again').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Accept the terms of use to create the account.').waitFor();
    await page.getByRole('checkbox', { name: /I accept the/ }).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await footerLink.click();
    await page.getByRole('heading', { name: 'Terms of the lab' }).waitFor();
    await page.getByText('Be kind to the judge.').waitFor();
    await checkA11y(page, 'a document of the instance');
    await screenshot(page, 'instance-document');
    // signed out, the page asks for the account and is told 401
    expect(pageProblems(page, { allowStatus: [401] })).toEqual([]);
    await page.context().close();
  });

  it('changes the colours of open pages when an administrator saves a theme, and goes back on reset', async () => {
    const page = await chromium.newPage();
    await page.goto(`${judge.url}/sign-in`);
    await page.getByLabel(/User name or email/).fill(ADMIN_USERNAME);
    await page.getByLabel(/^Password/).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
    await page.goto(`${judge.url}/staff/instance`);
    await page.getByRole('link', { name: 'Colours and type' }).click();
    await page.locator('summary', { hasText: 'Light palette' }).click();
    await page.getByLabel('headerBackground', { exact: true }).first().fill('#003300');
    await page.getByRole('button', { name: 'Save the theme' }).click();
    await page.getByText('Saved: every open page takes the new look.').waitFor();
    await expect.poll(() => colourOf(page, '.site-header', 'background-color')).toBe('rgb(0, 51, 0)');
    await checkA11y(page, 'the instance page with its look');
    await screenshot(page, 'instance-look');
    await page.getByRole('button', { name: 'Back to the judge’s own look' }).click();
    await expect.poll(() => colourOf(page, '.site-header', 'background-color')).toBe('rgb(244, 246, 249)');
    expect((await admin.call(ops.getInstance)).theme.custom).toBe(false);
    expect(pageProblems(page, { allowStatus: [401] })).toEqual([]);
    await page.context().close();
  });

  it('fits a phone', async () => {
    const page = await chromium.newPage(PHONE);
    await page.goto(`${judge.url}/sign-in`);
    await page.getByLabel(/User name or email/).fill(ADMIN_USERNAME);
    await page.getByLabel(/^Password/).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
    await page.goto(`${judge.url}/staff/instance`);
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'instance-look');
    await page.context().close();
  });
});
