import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type MaintenanceState } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, raw, TestJudge } from './harness.js';
import { codeForm } from './support/forms.js';
import { act, admin, alice, j, manager, open, submit, task, useSubmissionWorld } from './support/submissions.js';

/**
 * Route matching and the gates in front of it agree on one path: the gates
 * ask which operation the routers will run, so a trailing slash, another letter case, a doubled
 * slash or a percent-encoded letter either reaches the same operation through the same gates or
 * reaches nothing (404). Never an operation without its gate.
 */

/** The spellings of one API path a client might send; the routers take some and refuse others. */
function variants(path: string): string[] {
  const last = path.lastIndexOf('/');
  const tail = path.slice(last + 1);
  return [
    `${path}/`,
    path.toUpperCase().replace(/\/API\/V1\//, '/api/v1/'),
    path.toUpperCase(),
    `${path.slice(0, last)}/${tail.slice(0, 1).toUpperCase()}${tail.slice(1)}/`,
    `${path.slice(0, last)}//${tail}`,
    `${path.slice(0, last)}/${tail.slice(0, -1)}%${tail.charCodeAt(tail.length - 1).toString(16)}`,
    path.replace('/api/v1/', '/api//v1/'),
  ];
}

const setLevel = (c: JudgeClient, level: MaintenanceState['level']) => c.call(ops.setMaintenance, { body: { level } });

/** What the answer was, for comparing against the expectation in one message. */
const outcome = (path: string, r: { status: number; body: any }) => ({ path, status: r.status, code: r.body?.code as string | undefined });

describe('maintenance gates on the operation, not the spelling', () => {
  useSubmissionWorld();

  it('draining refuses a submission and a rejudge however their paths are written, and none is stored', async () => {
    const t = await task(open);
    const queued = await submit(alice.c, t.slug, codeForm('int main(){}'));
    await setLevel(admin, 'draining');
    try {
      const before = (await j.count('submissions'));
      const submitPath = `/api/v1/activities/${act.slug}/problems/${t.slug}/submissions`;
      const rejudgePath = `/api/v1/submissions/${queued.id}/rejudge`;
      const answers = [];
      for (const path of variants(submitPath)) answers.push(outcome(path, await raw(`${j.url}${path}`, { method: 'POST', token: alice.c.accessToken!, body: codeForm('int main(){return 0;}') })));
      for (const path of variants(rejudgePath)) answers.push(outcome(path, await raw(`${j.url}${path}`, { method: 'POST', token: manager.c.accessToken! })));
      // every spelling is refused as draining or names nothing
      for (const a of answers) expect([{ ...a, status: 503, code: 'server.draining' }, { ...a, status: 404, code: 'not_found' }]).toContainEqual(a);
      // the ones the routers take are the operation itself, so they meet its gate
      for (const path of [`${submitPath}/`, submitPath.toUpperCase(), `${rejudgePath}/`]) {
        expect(answers.find((a) => a.path === path)).toEqual({ path, status: 503, code: 'server.draining' });
      }
      expect((await j.count('submissions'))).toBe(before);
    } finally {
      await setLevel(admin, 'open');
    }
  });

  it('closed serves health, sign-in and an administrator however the paths are written, and nobody else', async () => {
    const pupil = alice.c.accessToken!;
    await setLevel(admin, 'closed');
    try {
      for (const path of ['/api/v1/health/', '/api/v1/HEALTH']) expect(outcome(path, await raw(`${j.url}${path}`))).toMatchObject({ status: 200 });
      for (const path of ['/api/v1/account/', '/API/V1/ACCOUNT', '/api/v1/admin/maintenance/']) {
        expect(outcome(path, await raw(`${j.url}${path}`, { token: admin.accessToken! }))).toMatchObject({ status: 200 });
        expect(outcome(path, await raw(`${j.url}${path}`, { token: pupil }))).toMatchObject({ status: 503, code: 'server.maintenance' });
      }
      const signIn = await raw(`${j.url}/api/v1/Identity/Login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin', password: ADMIN_PASSWORD }) });
      expect(signIn.status, signIn.text).toBe(200);
      // a path that names nothing is not let through either
      expect(outcome('/api/v1//account', await raw(`${j.url}/api/v1//account`, { token: admin.accessToken! }))).toMatchObject({ status: 503 });
    } finally {
      await setLevel(admin, 'open');
    }
  });
});

describe('authentication and the Origin check on the operation', () => {
  let judge: TestJudge;
  beforeAll(async () => (judge = await TestJudge.start()));
  afterAll(() => judge.stop());

  it('asks for a session on every spelling of a signed-in operation', async () => {
    for (const path of variants('/api/v1/account')) {
      expect([401, 404]).toContain((await raw(`${judge.url}${path}`)).status);
    }
    expect((await raw(`${judge.url}/api/v1/account/`)).status).toBe(401);
    expect((await raw(`${judge.url}/api/v1/ACCOUNT`)).status).toBe(401);
  });

  it('refuses a cookie-authenticated write from a foreign origin on every spelling', async () => {
    const c = await judge.signIn({ username: 'admin', password: ADMIN_PASSWORD }, 'cookie');
    for (const path of variants('/api/v1/identity/logout')) {
      const r = await raw(`${judge.url}${path}`, { method: 'POST', headers: { cookie: `judge_session=${c.cookie}`, origin: 'https://evil.example' } });
      expect([{ path, status: 403, code: 'csrf.origin' }, { path, status: 404, code: 'not_found' }]).toContainEqual(outcome(path, r));
    }
    // still signed in: no spelling signed the session out
    expect((await raw(`${judge.url}/api/v1/account`, { headers: { cookie: `judge_session=${c.cookie}` } })).status).toBe(200);
  });
});

describe('rate limits on the operation', () => {
  let judge: TestJudge;
  beforeAll(async () => (judge = await TestJudge.start({ config: { limits: { requestsPerMinute: 12 } } })));
  afterAll(() => judge.stop());

  it('counts a runner registration against the address whatever letter case its path has', async () => {
    const statuses: number[] = [];
    for (const path of ['/api/v1/runner/Register', '/api/v1/runner/REGISTER/', '/api/v1/runner/Auth/Challenge', '/api/v1/runner/register/']) {
      for (let i = 0; i < 4; i++) {
        const r = await raw(`${judge.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        expect(r.status, `${path}: ${r.text}`).toBeLessThan(500);
        statuses.push(r.status);
      }
    }
    // twelve a minute for the address, counted over every spelling
    expect(statuses.slice(0, 12)).not.toContain(429);
    expect(statuses.slice(12)).toEqual([429, 429, 429, 429]);
  });

  it('counts sign-in attempts of every spelling against one budget', async () => {
    const other = await TestJudge.start({ config: { auth: { loginAttemptsPerMinute: 4 } } });
    try {
      const statuses: number[] = [];
      for (const path of ['/api/v1/identity/login/', '/api/v1/Identity/Login', '/api/v1/IDENTITY/LOGIN/', '/api/v1/identity/login', '/api/v1/identity/LOGIN']) {
        const r = await raw(`${other.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody', password: 'wrong-password' }) });
        statuses.push(r.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await other.stop();
    }
  });
});
