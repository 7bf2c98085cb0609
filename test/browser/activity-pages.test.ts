import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contest, JOIN_PASSWORD, MINUTE, participant, SAMPLE_IN, serverNow, sumProblem, type Participant } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, type Viewport } from './harness.js';

/**
 * The participant's way into a contest, in a real Chromium on a real `judge up`: the activity
 * list, joining an open and a password contest, the contest clock counting down on the server's
 * time until the problems appear by themselves, and the problem page with its rendered statement
 * (math typeset), samples to copy and statement languages to switch; at desktop and phone width.
 */

/** This file's sandbox uids: clear of the other browser test files' runners. */
const RUNNER_UID_BASE = 62300;
const WAIT = { timeout: 20_000 };
describe('activity pages in a browser', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let sumId: string;

  beforeAll(async () => {
    // a loaded machine (two cores, other suites) can take a while to start the server and its runner
    judge = await startJudgeUp({ runnerUidBase: RUNNER_UID_BASE, startTimeoutMs: 150_000 });
    chromium = await openBrowser();
    admin = await judge.admin();
    sumId = await sumProblem(admin, 'sum');
  }, 200_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  async function signIn(page: Page, who: Participant): Promise<void> {
    await page.goto(`${judge.url}/sign-in`);
    await page.getByLabel('User name or email').fill(who.username);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activities' }).waitFor(WAIT);
  }

  /** Checks the page with axe and saves its screenshot, once it shows what the step waited for. */
  async function look(page: Page, name: string): Promise<void> {
    await checkA11y(page, name);
    await screenshot(page, `activity-${name}`);
  }

  async function world(w: number) {
    const now = await serverNow(admin);
    const running = { startsAt: now - 10 * MINUTE, endsAt: now + 120 * MINUTE };
    await contest(admin, { slug: `cup-${w}`, name: `Spring Cup ${w}`, joinPolicy: 'open', ...running, problems: { sum: sumId } });
    // its last 30 minutes are frozen, and it has 20 left
    await contest(admin, { slug: `lab-${w}`, name: `Lab Test ${w}`, joinPolicy: 'password', startsAt: running.startsAt, endsAt: now + 20 * MINUTE });
    return participant(admin, judge.url, `pupil-${w}`);
  }

  async function joinBoth(page: Page, who: Participant, w: number): Promise<void> {
    const lab = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: `Lab Test ${w}` }) });
    await lab.getByLabel('Join password').fill('not-the-password');
    await lab.getByRole('button', { name: `Join Lab Test ${w}` }).click();
    await lab.getByRole('alert').filter({ hasText: 'That password is wrong' }).waitFor(WAIT);
    await look(page, 'join-refused');
    await lab.getByLabel('Join password').fill(JOIN_PASSWORD);
    await lab.getByRole('button', { name: `Join Lab Test ${w}` }).click();
    await lab.getByText('Joined').waitFor(WAIT);
    // inside, the clock tells the time left and that the ranking is frozen
    await lab.getByRole('link', { name: `Lab Test ${w}` }).click();
    const clock = page.getByRole('timer', { name: 'Contest clock' });
    await clock.getByText('Time left').waitFor(WAIT);
    expect(await clock.locator('.clock-time').textContent()).toMatch(/^0:(19|20):\d\d$/);
    await page.getByText('Ranking frozen').waitFor(WAIT);
    await look(page, 'frozen');
    await page.getByRole('link', { name: 'Activities' }).click();

    // the open one from its own page: before joining it shows the join box, not its problems
    await page.getByRole('link', { name: `Spring Cup ${w}` }).click();
    await page.getByText(`Join Spring Cup ${w} to see its problems and submit.`).waitFor(WAIT);
    expect(await page.getByRole('navigation', { name: 'Activity' }).count()).toBe(0);
    await look(page, 'not-joined');
    await page.getByRole('button', { name: `Join Spring Cup ${w}` }).click();
    await page.getByRole('link', { name: /Sum/ }).waitFor(WAIT);
    await page.getByRole('navigation', { name: 'Activity' }).waitFor(WAIT);
    await look(page, 'home');
    // the server agrees: both joined
    const mine = await who.client.call(ops.listActivities, { query: { pageSize: 200 } });
    expect(mine.items.filter((a) => a.enrolled).map((a) => a.slug).sort()).toEqual([`cup-${w}`, `lab-${w}`]);
  }

  async function clockCountsDownToProblems(page: Page, who: Participant, w: number): Promise<void> {
    const start = (await serverNow(admin)) + 18_000;
    const soon = await contest(admin, { slug: `soon-${w}`, name: `Soon Cup ${w}`, joinPolicy: 'open', startsAt: start, endsAt: start + 60 * MINUTE, problems: { sum: sumId } });
    await who.client.call(ops.enrol, { params: { idOrSlug: soon.slug }, body: {} });
    // this lab PC's clock is three hours and a bit behind: the contest clock must not care
    await page.clock.install({ time: Date.now() - 3 * 3600_000 - 17_000 });
    await page.goto(`${judge.url}/a/${soon.slug}`);
    const clock = page.getByRole('timer', { name: 'Contest clock' });
    await clock.getByText('Starts in').waitFor(WAIT);
    await page.getByText('1 problem appears when the series starts.').waitFor(WAIT);
    // the countdown is the server's time to the start, give or take the second it ticks on
    const error = async () => {
      const [h, m, sec] = (await clock.locator('.clock-time').textContent())!.split(':').map(Number) as [number, number, number];
      return Math.abs((h * 3600 + m * 60 + sec) * 1000 - (start - (await serverNow(admin))));
    };
    await expect.poll(error, { timeout: 10_000 }).toBeLessThan(2500);
    await look(page, 'clock-before');
    // and again after a reload
    await page.reload();
    await clock.getByText('Starts in').waitFor(WAIT);
    await expect.poll(error, { timeout: 10_000 }).toBeLessThan(2500);
    // no reload: the start passes, the clock turns and the problem appears
    await page.getByRole('link', { name: /Sum/ }).waitFor({ timeout: 40_000 });
    await clock.getByText('Time left').waitFor(WAIT);
    await page.getByRole('status').filter({ hasText: 'The contest has started.' }).waitFor(WAIT);
    await look(page, 'clock-running');
  }

  async function problemPage(page: Page, w: number): Promise<void> {
    await page.goto(`${judge.url}/a/cup-${w}`);
    await page.getByRole('link', { name: /Sum/ }).click();
    await page.getByRole('heading', { level: 1, name: /Sum/ }).waitFor(WAIT);
    const statement = page.getByRole('region', { name: 'Statement' });
    // the LaTeX statement, converted at upload: its title, math typeset by KaTeX (with MathML for
    // screen readers) and its image, served from this origin
    await statement.getByRole('heading', { name: 'Sum of two' }).waitFor(WAIT);
    expect(await statement.locator('.katex').count()).toBeGreaterThanOrEqual(4);
    expect(await statement.locator('math').count()).toBeGreaterThanOrEqual(4);
    await expect.poll(() => page.evaluate<number>(`document.querySelector('.statement-body img')?.naturalWidth ?? 0`)).toBe(120);
    await expect.poll(() => page.locator('.sample pre').first().textContent()).toBe(SAMPLE_IN);
    // the limits from the package's problem.yaml
    const facts = page.getByRole('region', { name: 'Limits and files' });
    expect(await facts.locator('dl').innerText()).toMatch(/Time limit\s+2 s\s+Memory limit\s+256 MiB/);
    await look(page, 'problem');

    await page.getByRole('button', { name: 'Copy Input 1' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor(WAIT);
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(SAMPLE_IN);

    // a PDF statement is embedded from this origin, with a link to download it
    await page.getByLabel('Statement language').selectOption({ label: 'Polish' });
    const pdf = statement.locator('iframe[title="Problem statement (PDF)"]');
    await pdf.waitFor(WAIT);
    const src = (await pdf.getAttribute('src'))!;
    expect(src).toMatch(/^\/api\/v1\/files\//);
    expect(await statement.getByRole('link', { name: 'Download the statement as PDF' }).getAttribute('href')).toBe(src);
    expect(await page.evaluate<string>(`fetch(${JSON.stringify(src)}).then((r) => r.status + ' ' + r.headers.get('content-type'))`)).toBe('200 application/pdf');

    await page.getByLabel('Statement language').selectOption({ label: 'German' });
    await statement.getByRole('heading', { name: 'Summe zweier Zahlen' }).waitFor(WAIT);
    // Markdown with math, rendered here; its raw HTML shown as text, never run
    expect(await statement.locator('.katex').count()).toBeGreaterThanOrEqual(3);
    expect(await statement.textContent()).toContain('<script>');
    expect(await page.evaluate<boolean>('window.statementScriptRan === true')).toBe(false);
    // the choice is remembered in this browser
    await page.reload();
    await statement.getByRole('heading', { name: 'Summe zweier Zahlen' }).waitFor(WAIT);
    await look(page, 'problem-german');
  }

  async function wholeWay(viewport: Viewport): Promise<void> {
    const w = viewport.width;
    const who = await world(w);
    const page = await chromium.newPage(viewport, { permissions: ['clipboard-read', 'clipboard-write'], locale: 'en-GB' });
    await signIn(page, who);
    await page.getByRole('link', { name: `Spring Cup ${w}` }).waitFor(WAIT);
    await look(page, 'list');
    await joinBoth(page, who, w);
    await page.getByRole('link', { name: 'Activities' }).click();
    await page.getByRole('listitem').filter({ hasText: `Spring Cup ${w}` }).getByText('Joined').waitFor(WAIT);
    await look(page, 'list-joined');
    await clockCountsDownToProblems(page, who, w);
    await problemPage(page, w);
    // 401: the account asked for before signing in; 403: the refused join password
    expect(pageProblems(page, { allowStatus: [401, 403] })).toEqual([]);
    await page.context().close();
  }

  it('takes a participant from the list through joining and the clock to a problem, at desktop width', () => wholeWay(DESKTOP), 180_000);

  it('does the same at phone width', () => wholeWay(PHONE), 180_000);
});
