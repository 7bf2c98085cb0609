import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeBuiltApp, TINY_PDF } from './fake-app.js';
import { checkA11y, cspViolations, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge } from './harness.js';

/**
 * The judge serves a built app to a real Chromium under its Content-Security-Policy, from a real
 * `judge up`: what the page tests of packages/web stand on. The app here is a small stand-in that
 * does what the real one must be allowed to do (and, asked to, what it must not).
 */
describe('a browser on judge up', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let webDir: string;

  beforeAll(async () => {
    webDir = fakeBuiltApp();
    judge = await startJudgeUp({ webDir });
    chromium = await openBrowser();
  }, 90_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
    rmSync(join(webDir, '..'), { recursive: true, force: true });
  });

  const open = async (page: Page, path: string) => {
    const r = await page.goto(`${judge.url}${path}`);
    expect(r?.status(), path).toBe(200);
    await page.locator('body[data-ready=yes]').waitFor();
  };
  /** Signs the page's browser in with the session cookie, from the page, as the app does. */
  const signIn = (page: Page) => {
    const body = JSON.stringify({ email: judge.adminUsername, password: judge.adminPassword });
    return page.evaluate<number>(`fetch('/api/v1/identity/login?useCookies=true', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(body)} }).then((r) => r.status)`);
  };

  it('loads the app at / under the policy: its script, styles, API calls and event socket run with no violation', async () => {
    const page = await chromium.newPage();
    await open(page, '/');
    expect(await signIn(page)).toBe(200);
    await open(page, '/?socket');
    await expect.poll(() => page.locator('#socket').textContent()).toBe('open');
    await expect.poll(() => page.locator('#health').textContent()).toBe('health 200');
    expect(await page.locator('#path').textContent()).toBe('/');
    // the stylesheet and the style attribute set by script both apply
    expect(await page.evaluate<string>(`getComputedStyle(document.body).marginTop`)).toBe('32px');
    expect(await page.evaluate<string>(`getComputedStyle(document.querySelector('h1')).letterSpacing`)).not.toBe('normal');
    expect(pageProblems(page)).toEqual([]);
    await checkA11y(page);
    const shot = await screenshot(page, 'serve-home');
    expect(statSync(shot).size).toBeGreaterThan(1000);
    await page.context().close();
  });

  it('loads the app for a deep link, at phone width too', async () => {
    const page = await chromium.newPage(PHONE);
    await open(page, '/a/contest-1/problems/sum');
    expect(await page.locator('#path').textContent()).toBe('/a/contest-1/problems/sum');
    expect(page.viewportSize()).toEqual(PHONE);
    expect(pageProblems(page)).toEqual([]);
    await checkA11y(page);
    expect(existsSync(await screenshot(page, 'serve-deep-link'))).toBe(true);
    await page.context().close();
  });

  it('shows a PDF of the files route in a frame of the app', async () => {
    const admin = await judge.admin();
    const pdf = await admin.upload('statement.pdf', TINY_PDF, 'application/pdf');
    const page = await chromium.newPage();
    await open(page, '/');
    expect(await signIn(page)).toBe(200);
    await open(page, `/?pdf=/api/v1/files/${pdf.id}`);
    await page.locator('#pdf[data-loaded=yes]').waitFor();
    const frame = page.frames().find((f) => f.url().endsWith(`/api/v1/files/${pdf.id}`));
    expect(frame, 'the frame navigated to the PDF').toBeDefined();
    expect(cspViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('notices what the policy blocks and what axe refuses, so that their absence means something', async () => {
    const page = await chromium.newPage();
    await open(page, '/?inline');
    await expect.poll(() => cspViolations(page).length).toBeGreaterThan(0);
    expect(await page.evaluate<boolean>('window.inlineRan === true')).toBe(false);
    await open(page, '/?unlabelled');
    await expect(checkA11y(page)).rejects.toThrow(/button-name \(critical\)/);
    // a failed request is a problem unless the test says the page expects it
    await page.evaluate(`fetch('/api/v1/account')`);
    await expect.poll(() => pageProblems(page).some((p) => /status of 401/.test(p))).toBe(true);
    expect(pageProblems(page, { allowStatus: [401] }).some((p) => /status of 401/.test(p))).toBe(false);
    await page.context().close();
  });

  it('is served again after the server restarts, with its data kept, and the socket opens again', async () => {
    const page = await chromium.newPage();
    await open(page, '/');
    expect(await signIn(page)).toBe(200);
    await open(page, '/?socket');
    await expect.poll(() => page.locator('#socket').textContent()).toBe('open');
    await judge.restart();
    await expect.poll(() => page.locator('#socket').textContent()).toMatch(/^closed/);
    await page.reload();
    await page.locator('body[data-ready=yes]').waitFor();
    // the session cookie from before the restart still signs the page in
    await expect.poll(() => page.locator('#socket').textContent()).toBe('open');
    await page.context().close();
  }, 90_000);
});

describe('the browser tests on a machine without Chromium', () => {
  it('fail saying how to install it rather than being skipped', async () => {
    await expect(openBrowser('/nonexistent/chromium')).rejects.toThrow(/apt-get install chromium/);
  });
});
