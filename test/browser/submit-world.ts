import { ops, type Activity } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Page } from 'playwright-core';
import { packagedProblem } from '../../packages/server/test/support/packaged-problem.js';
import { zipOf } from '../../packages/server/test/zips.js';
import { SUM_PACKAGE as E2E_SUM_PACKAGE } from '../one-problem-contest.js';
import type { RunningJudge } from './harness.js';

/** What the submit pages' browser tests judge: the end-to-end tests' a + b with a second secret test, so progress has steps to show. */
export const SUM_PACKAGE = {
  ...E2E_SUM_PACKAGE,
  'data/secret/2.in': '100 1\n',
  'data/secret/2.ans': '101\n',
};

export const CORRECT_CPP = '#include <iostream>\nint main() {\n  long long a, b;\n  std::cin >> a >> b;\n  std::cout << a + b << "\\n";\n}\n';
export const WRONG_PY = 'a, b = map(int, input().split())\nprint(a + b + 1)\n';
/** Right, but slow enough (0.6 s a test) for the runner to report its progress while it runs. */
export const SLOW_PY = 'import time\ntime.sleep(0.6)\na, b = map(int, input().split())\nprint(a + b)\n';
export const BROKEN_CPP = 'int main( {\n  return 0;\n}\n';
/** Small, so that a file over it is cheap to make. */
export const MAX_UPLOAD = 20_000;

export interface SubmitWorld {
  act: Activity;
  problemSlug: string;
  /** Each browser test signs in as a participant of its own, so their lists do not mix. */
  participant(name: string): Promise<{ username: string; password: string }>;
}

/**
 * An open contest with the a + b problem, whose details attachment the activity shows to
 * participants (per-test results and failed samples), made over the API as an organiser would.
 */
export async function submitWorld(judge: RunningJudge): Promise<SubmitWorld> {
  const admin = await judge.admin();
  const act = await admin.call(ops.createActivity, {
    body: {
      slug: 'contest',
      name: 'Lab contest',
      type: 'contest@1',
      rankingType: 'icpc',
      timeZone: 'Europe/Berlin',
      joinPolicy: 'open',
      unlisted: false,
      maxUploadBytes: MAX_UPLOAD,
      attachmentVisibility: [{ name: 'details', visibility: 'participant' }],
    },
  });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
  const { problem } = await packagedProblem(admin, { slug: 'sum', name: 'Sum', type: 'standard-io@1' }, await zipOf(SUM_PACKAGE), 'sum.zip');
  await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
  return {
    act,
    problemSlug: 'sum',
    async participant(name) {
      const creds = await admin.call(ops.createUser, { body: { username: name, firstName: name } });
      const c = new JudgeClient({ baseUrl: judge.url });
      await c.login(creds.username, creds.password);
      await c.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
      return { username: creds.username, password: creds.password };
    },
  };
}

/** Signs in through the sign-in page and lands where `next` says, as a student would. */
export async function signIn(page: Page, url: string, who: { username: string; password: string }, next: string): Promise<void> {
  await page.goto(`${url}/sign-in?next=${encodeURIComponent(next)}`);
  await page.locator('input[name=login]').fill(who.username);
  await page.locator('input[name=password]').fill(who.password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => u.pathname === next);
}

/** Types code into the editor as a paste would put it there. */
export async function pasteCode(page: Page, code: string): Promise<void> {
  const editor = page.locator('.submit-form .cm-content');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}
