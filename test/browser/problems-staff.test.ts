import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipOf } from '../../packages/server/test/zips.js';
import { contest, MINUTE, participant, serverNow, sumProblem, type Participant } from './activity-fixtures.js';
import { checkA11y, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, startJudgeUp, type OpenedBrowser, type RunningJudge, settled, type Viewport } from './harness.js';
import { signInThroughPage } from './standings-world.js';

const CUP = 'lab-cup';
/** The examples' Hello package: a LaTeX statement, accepted C and Python examples and a wrong-answer one. */
const HELLO_DIR = fileURLToPath(new URL('../../examples/spring-contest/hello', import.meta.url));
const NOTE = 'Output spelled out in the statement';

function filesOf(dir: string, root = dir): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesOf(path, root));
    else out[relative(root, path)] = readFileSync(path);
  }
  return out;
}

/**
 * The staff's problem pages in a real Chromium on a real `judge up` with its runner: the
 * administrator uploads a package into the library (and sees the progress, and a refused package's
 * reason in words), uploads a new version with a note, reads the statement as participants will,
 * runs the trial of the package's examples, and assigns the problem to a series with letter,
 * limits, points and languages. A participant gets none of it.
 */
describe('the problem pages for staff', () => {
  let judge: RunningJudge;
  let chromium: OpenedBrowser;
  let admin: JudgeClient;
  let ann: Participant;
  let hello: Buffer;
  let problemId = '';

  beforeAll(async () => {
    judge = await startJudgeUp({ runnerUidBase: 64100 });
    chromium = await openBrowser();
    admin = await judge.admin();
    const now = await serverNow(admin);
    const sum = await sumProblem(admin, 'sum');
    await contest(admin, { slug: CUP, name: 'Lab cup', joinPolicy: 'open', startsAt: now - MINUTE, endsAt: now + 120 * MINUTE, problems: { sum } });
    ann = await participant(admin, judge.url, 'ann');
    await ann.client.call(ops.enrol, { params: { idOrSlug: CUP }, body: {} });
    hello = await zipOf(filesOf(HELLO_DIR));
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await judge?.dispose();
  });

  // zod probes whether eval is allowed, and the CSP rightly refuses; 4xx are answers the pages show in words
  const scriptProblems = (page: Page) => pageProblems(page, { allowStatus: [401, 403, 404, 409, 422] }).filter((p) => !/blocked eval/.test(p));

  async function adminOn(path: string, viewport: Viewport = DESKTOP): Promise<Page> {
    const page = await chromium.newPage(viewport);
    await signInThroughPage(page, judge.url, { username: judge.adminUsername, password: judge.adminPassword }, path);
    await page.waitForURL(`**${path}`);
    return page;
  }

  /** The values the upload's progress bar took, in order, recorded in the page as they change. */
  const watchProgress = (page: Page) =>
    page.evaluate(`(() => {
      window.__progress = [];
      new MutationObserver(() => {
        for (const p of document.querySelectorAll('.upload-bar progress')) {
          const seen = window.__progress;
          const v = p.value + '/' + p.max;
          if (seen[seen.length - 1] !== v) seen.push(v);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['value', 'max'] });
    })()`);

  it('uploads a package into the library with its progress, and says in words why a broken one is refused', async () => {
    const page = await adminOn('/staff/problems');
    await page.getByRole('navigation', { name: 'Staff pages' }).getByRole('link', { name: 'Problems' }).waitFor();
    await page.getByRole('heading', { name: 'Problem library', level: 1 }).waitFor();
    await page.locator('[data-problem="sum"]').waitFor();
    await checkA11y(page, 'problem library');
    await screenshot(page, 'staff-problems');

    // not a package: the refusal says what is wrong, and no problem is left behind
    const file = page.getByLabel('Package (an ICPC problem package as a .zip)');
    await file.setInputFiles({ name: 'broken.zip', mimeType: 'application/zip', buffer: await zipOf({ 'README.txt': 'no problem here\n' }) });
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe('broken');
    await page.getByRole('button', { name: 'Upload and check' }).click();
    const refusal = page.locator('.package-refusal');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('The server refused the package. It is not a problem package the judge can use. The reason:');
    expect(await refusal.locator('.refusal-detail').textContent()).toMatch(/problem\.yaml/);
    expect((await admin.call(ops.listProblems, { query: { search: 'broken' } })).total).toBe(0);
    await screenshot(page, 'staff-problems-refused');

    // the real package, sent from the keyboard; the bar goes from nothing to all of it
    await watchProgress(page);
    await file.setInputFiles({ name: 'hello.zip', mimeType: 'application/zip', buffer: hello });
    await page.getByLabel('Slug', { exact: true }).fill('hello');
    await page.getByRole('button', { name: 'Upload and check' }).focus();
    // what the bar showed of the refused upload before is not this upload's
    await page.evaluate('window.__progress = []');
    await page.keyboard.press('Enter');
    const accepted = page.locator('.package-accepted');
    await accepted.waitFor();
    // no name given: the package's own (problem.yaml) names it
    expect(await accepted.textContent()).toContain('The server accepted the package as version 1 of Hello.');
    expect(await accepted.textContent()).toContain('1 sample, 1 secret');
    expect(await refusal.count()).toBe(0);
    const bar = page.locator('.upload-bar progress');
    expect(await bar.getAttribute('aria-label')).toBe('Upload progress');
    const seen = await page.evaluate<string[]>('window.__progress');
    const total = Number(await bar.getAttribute('max'));
    // the form's parts around the file make the request a little larger than the file
    expect(total).toBeGreaterThanOrEqual(hello.length);
    expect(seen[0]).toBe(`0/${hello.length}`);
    expect(seen[seen.length - 1]).toBe(`${total}/${total}`);
    expect(await page.locator('.upload-bar [role=status]').textContent()).toMatch(/^Uploaded \d/);
    await page.locator('[data-problem="hello"]').waitFor();
    await screenshot(page, 'staff-problems-uploaded');

    await page.getByRole('link', { name: 'Open Hello' }).click();
    await page.waitForURL(/\/staff\/problems\/[0-9a-f-]{36}$/);
    problemId = page.url().split('/').pop()!;
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('narrows the library to the problems a colleague shared, or to the reader\'s own, one or the other', async () => {
    // a colleague who writes problems and shares one with all staff
    const role = await admin.call(ops.createRole, { body: { name: 'Problem author', permissions: ['problem:create', 'problem:read:own', 'problem:share'] } });
    const bob = await participant(admin, judge.url, 'bob');
    const bobId = (await admin.call(ops.lookupUsers, { query: { q: 'bob' } })).find((u) => u.username === 'bob')!.id;
    await admin.call(ops.createGrant, { body: { userId: bobId, roleId: role.id } });
    const given = await bob.client.call(ops.createProblem, { body: { slug: 'bobs-gift', name: "Bob's gift", type: 'standard-io@1' } });
    await bob.client.call(ops.setProblemVisibility, { params: { id: given.id }, body: { visibility: 'instance' } });

    const page = await adminOn('/staff/problems');
    await page.locator('[data-problem="bobs-gift"]').waitFor();
    await page.locator('[data-problem="sum"]').waitFor();
    const shared = page.getByLabel('Shared with me');
    const mine = page.getByLabel('Only my problems');
    await shared.check();
    await page.waitForURL(/shared=1/);
    await page.locator('[data-problem="sum"]').waitFor({ state: 'detached' });
    await page.locator('[data-problem="bobs-gift"]').waitFor();
    // the other switch turns this one off: together they would match nothing
    await mine.check();
    await page.waitForURL((u) => u.searchParams.get('mine') === '1' && !u.searchParams.has('shared'));
    expect(await shared.isChecked()).toBe(false);
    await page.locator('[data-problem="bobs-gift"]').waitFor({ state: 'detached' });
    await page.locator('[data-problem="sum"]').waitFor();
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("uploads a new version with a note, shows the statement as participants read it, and runs the package's examples with expected and actual side by side", async () => {
    const page = await adminOn(`/staff/problems/${problemId}`);
    await page.getByRole('heading', { name: 'Hello', level: 1 }).waitFor();
    // the statement through the participants' own renderer: LaTeX made HTML by the server
    const statement = page.locator('.statement .statement-body');
    await statement.waitFor();
    expect(await statement.textContent()).toContain('Greet the judge.');
    expect(await statement.locator('code, tt, .texttt').first().textContent()).toContain('Hello, world!');

    await page.getByText('Upload a new version').click();
    await page.getByLabel('Package (an ICPC problem package as a .zip)').setInputFiles({ name: 'hello.zip', mimeType: 'application/zip', buffer: hello });
    await page.getByLabel('What changed (kept with the version)').fill(NOTE);
    await page.getByRole('button', { name: 'Upload as a new version' }).click();
    await page.getByText('The server accepted the package as version 2 of Hello.').waitFor();
    const newest = page.locator('[data-version="2"]');
    await newest.waitFor();
    expect(await newest.locator('.version-note').textContent()).toBe(NOTE);
    expect(await page.getByRole('heading', { name: 'Statement of version 2' }).count()).toBe(1);
    expect((await admin.call(ops.listProblemVersions, { params: { problemId } }))[0]).toMatchObject({ version: 2, note: NOTE });
    await checkA11y(page, 'staff problem page');
    await screenshot(page, 'staff-problem');

    // the trial, started from the keyboard, followed until the runner reports
    const run = page.getByRole('button', { name: 'Run the trial' });
    await run.focus();
    await page.keyboard.press('Enter');
    const state = page.locator('.trial-state');
    await state.waitFor();
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 150_000, interval: 500 }).toBe('completed');
    const rows = page.locator('.trial-table tbody tr');
    const row = (path: string) => page.locator(`.trial-table tr[data-example="${path}"]`);
    await rows.first().waitFor();
    expect(await row('wrong_answer/no-comma.py').locator('.expected [data-verdict]').getAttribute('data-verdict')).toBe('WA');
    expect(await row('wrong_answer/no-comma.py').locator('.actual [data-verdict]').getAttribute('data-verdict')).toBe('WA');
    expect(await row('accepted/hello.py').locator('.expected [data-verdict]').getAttribute('data-verdict')).toBe('AC');
    expect(await row('accepted/hello.py').locator('.actual [data-verdict]').getAttribute('data-verdict')).toBe('AC');
    for (const text of await rows.locator('td:last-child').allTextContents()) expect(text).toContain('Agrees');
    expect(await page.locator('[data-trial-ok]').getAttribute('data-trial-ok')).toBe('true');
    await checkA11y(page, 'staff problem page with a trial');
    await screenshot(page, 'staff-problem-trial');
    // the table scrolls in its card; the page keeps the window's width
    expect(await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`)).toBeLessThanOrEqual(0);

    // shared with a user by name, then private again; archived and restored
    const ann = (await admin.call(ops.lookupUsers, { query: { q: 'ann' } })).find((u) => u.username === 'ann')!;
    await page.getByLabel('Some users').check();
    await page.getByLabel('User names or ids, one per line').fill('ann');
    await page.getByRole('button', { name: 'Save who may read it' }).click();
    await page.getByText('Shared with 1 user').waitFor();
    expect(await admin.call(ops.getProblem, { params: { id: problemId } })).toMatchObject({ visibility: 'shared', sharedWith: [ann.id] });
    await page.getByLabel('Only its owner (and administrators)').check();
    await page.getByRole('button', { name: 'Save who may read it' }).click();
    await page.locator('.problem-card-facts .visibility-private').waitFor();
    await page.getByRole('button', { name: 'Archive the problem' }).click();
    await page.locator('.problem-card-facts .badge.archived').waitFor();
    expect((await admin.call(ops.getProblem, { params: { id: problemId } })).archivedAt).toBeDefined();
    await page.getByRole('button', { name: 'Restore the problem' }).click();
    await page.locator('.problem-card-facts .badge.archived').waitFor({ state: 'detached' });
    expect(await admin.call(ops.getProblem, { params: { id: problemId } })).toMatchObject({ visibility: 'private', sharedWith: [] });
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 240_000);

  it('assigns the problem to a series with letter, limits, points and languages, and links it to its pages', async () => {
    const page = await adminOn(`/staff/a/${CUP}/problems`);
    await page.getByRole('navigation', { name: 'Staff pages of Lab cup' }).getByRole('link', { name: 'Problems' }).waitFor();
    const series = page.locator('[data-series="main"]');
    await series.locator('[data-assignment="sum"][data-letter="A"]').waitFor();
    await series.getByText('Assign a problem to Main round').click();
    await series.getByLabel('Search the library').fill('hel');
    await series.getByLabel('Problem', { exact: true }).locator('option', { hasText: 'Hello (hello)' }).waitFor({ state: 'attached' });
    await series.getByLabel('Problem', { exact: true }).selectOption({ label: 'Hello (hello)' });
    // first, before Sum
    await series.getByLabel('Letter').selectOption({ label: 'A' });
    await series.getByLabel('Time limit (seconds)').fill('2');
    await series.getByLabel('Memory (MiB)').fill('128');
    await series.getByLabel('Points').fill('100');
    await series.getByLabel('Languages (empty: every language)').fill('c, python3');
    await series.getByRole('button', { name: 'Assign as A' }).click();
    const assigned = series.locator('[data-assignment="hello"][data-letter="A"]');
    await assigned.waitFor();
    await series.locator('[data-assignment="sum"][data-letter="B"]').waitFor();
    expect(await assigned.locator('.assignment-facts').textContent()).toContain('c, python3');
    const [main] = await admin.call(ops.listManagedSeries, { params: { idOrSlug: CUP } });
    const byOrder = [...main!.problems].sort((a, b) => a.order - b.order);
    expect(byOrder.map((p) => p.slug)).toEqual(['hello', 'sum']);
    expect(byOrder[0]).toMatchObject({ maxPoints: 100, config: { timeLimitSeconds: 2, memoryMiB: 128, languages: ['c', 'python3'] } });

    expect(await assigned.getByRole('link', { name: 'Problem page of A' }).getAttribute('href')).toBe(`/staff/problems/${problemId}`);
    expect(await assigned.getByRole('link', { name: 'A as participants see it' }).getAttribute('href')).toBe(`/a/${CUP}/p/hello`);
    // moved down by the keyboard: Sum is A again
    await assigned.getByRole('button', { name: 'Move A down' }).focus();
    await page.keyboard.press('Enter');
    await series.locator('[data-assignment="hello"][data-letter="B"]').waitFor();
    await checkA11y(page, 'activity problems');
    await screenshot(page, 'staff-activity-problems');

    await series.locator('[data-assignment="hello"]').getByRole('link', { name: 'B as participants see it' }).click();
    await page.getByRole('heading', { name: /Hello/, level: 1 }).waitFor();
    expect(await page.locator('.statement-body').textContent()).toContain('Greet the judge.');
    expect(scriptProblems(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('fits every problem page on a 360 px phone', async () => {
    for (const [path, name] of [
      ['/staff/problems', 'staff-problems-phone'],
      [`/staff/problems/${problemId}`, 'staff-problem-phone'],
      [`/staff/a/${CUP}/problems`, 'staff-activity-problems-phone'],
    ] as const) {
      const page = await adminOn(path, PHONE);
      await page.locator('.staff-tabs').waitFor();
      await page.locator('.problem-card, .statement-body, .assignment').first().waitFor();
      await settled(page);
      const overflow = await page.evaluate<number>(`document.documentElement.scrollWidth - document.documentElement.clientWidth`);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await checkA11y(page, `${path} at 360 px`);
      await screenshot(page, name);
      await page.context().close();
    }
  }, 120_000);

  it('refuses a participant every problem page, and no staff data reaches her browser', async () => {
    const page = await chromium.newPage();
    const bodies: { path: string; status: number; body: string }[] = [];
    page.on('response', async (r) => {
      const path = new URL(r.url()).pathname;
      if (!path.startsWith('/api/v1/')) return;
      bodies.push({ path, status: r.status(), body: await r.text().catch(() => '') });
    });
    await signInThroughPage(page, judge.url, ann, '/');
    await page.getByRole('link', { name: 'Lab cup' }).first().waitFor();
    for (const path of ['/staff/problems', `/staff/problems/${problemId}`, `/staff/a/${CUP}/problems`]) {
      await page.goto(`${judge.url}${path}`);
      await page.getByRole('heading', { name: 'For staff only' }).waitFor();
      await page.waitForLoadState('networkidle');
    }
    await checkA11y(page, 'problem pages refused');
    const staffPaths = /^\/api\/v1\/(problems|trials|manager|series|series-problems)(\/|$)/;
    expect(bodies.filter((b) => staffPaths.test(b.path) && b.status < 400)).toEqual([]);
    // nothing of the library's own: the version's note, the problem's id
    expect(bodies.filter((b) => b.body.includes(NOTE) || b.body.includes(problemId)).map((b) => b.path)).toEqual([]);
    await page.context().close();
  }, 60_000);
});
