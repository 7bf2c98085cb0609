import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type SubmissionSummary } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { judgectlIn } from './cli-child.js';

/**
 * How judgectl fails, as child processes against a real server: with --json one JSON object on
 * standard error (the server's problem document inside when the server refused), else one human
 * line; a refused sign-in in words; unknown filter values refused with the known ones; required
 * options marked in --help.
 */
describe('judgectl failures', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let work: string;
  let as: ReturnType<typeof judgectlIn>;
  let nobody: ReturnType<typeof judgectlIn>;
  const password = (name: string, text: string) => {
    writeFileSync(join(work, name), `${text}\n`);
    return join(work, name);
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'judgectl-errors-'));
    j = await TestJudge.start({ config: { auth: { lockoutFailures: 2 } } });
    admin = await j.admin();
    for (const d of ['admin', 'nobody']) mkdirSync(join(work, d));
    as = judgectlIn(join(work, 'admin'));
    nobody = judgectlIn(join(work, 'nobody'));
    expect((await as.ctl('login', '--server', j.url, '--username', 'admin', '--password-file', password('pw', ADMIN_PASSWORD))).status).toBe(0);
    const act = await admin.call(ops.createActivity, { body: { slug: 'errs', name: 'Errors', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC' } });
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
    const problem = await admin.call(ops.createProblem, { body: { slug: 'used', name: 'Used', type: 'standard-io@1' } });
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id } });
  });
  afterAll(async () => {
    await j.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it("prints a server refusal as one JSON object on stderr with the server's problem document", async () => {
    const f = await as.failure('problems', 'delete', 'used');
    expect(f.error).toMatchObject({ status: 409, code: 'problem.attached', detail: expect.stringContaining('(409 problem.attached)') });
    expect(f.error.problem).toMatchObject({ status: 409, code: 'problem.attached', title: expect.any(String), detail: expect.any(String) });
    expect((await admin.call(ops.listProblems, { query: { search: 'used' } })).total).toBe(1);

    const missing = await as.failure('submissions', 'rejudge', '01a2045f-8567-76a6-bfa4-b95be3e90a7c');
    expect(missing.error).toMatchObject({ status: 404, code: 'not_found', problem: { status: 404, code: 'not_found' } });

    const human = await as.ctl('problems', 'delete', 'used');
    expect(human.status).toBe(1);
    expect(human.stderr).toMatch(/^judgectl: .*\(409 problem\.attached\)\n$/);
  }, 60_000);

  it('prints its own failures in the same shape without a problem document', async () => {
    const notSignedIn = await nobody.failure('submissions', 'list');
    expect(notSignedIn).toEqual({ error: { status: null, code: 'refused', detail: expect.stringContaining('not signed in') } });

    const away = await nobody.failure('login', '--server', 'http://127.0.0.1:9', '--username', 'admin', '--password-file', join(work, 'pw'));
    expect(away.error).toMatchObject({ status: null, code: 'unreachable', detail: expect.stringContaining('cannot reach the judge at http://127.0.0.1:9') });
    expect(away.error.problem).toBeUndefined();

    const r = await as.ctl('submissions', 'list', '--bogus', '--json');
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stderr)).toEqual({ error: { status: null, code: 'usage', detail: "unknown option '--bogus'" } });
    const missingOption = await nobody.failure('login', '--username', 'admin');
    expect(missingOption.error).toMatchObject({ code: 'usage', detail: expect.stringContaining("required option '--server <url>' not specified") });
  }, 60_000);

  it('refuses an unknown verdict or state with the known ones, and takes a verdict in any case', async () => {
    const bad = await as.ctl('submissions', 'list', '--verdict', 'XYZ');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('unknown verdict; the known verdicts are AC, WA, TLE, MLE, OLE, RTE, CE, JE');
    expect((await as.failure('submissions', 'list', '--verdict', 'XYZ')).error.detail).toContain('the known verdicts are AC, WA');
    expect(await as.json<{ items: SubmissionSummary[] }>('submissions', 'list', '--verdict', 'wa')).toMatchObject({ items: [] });

    for (const [cmd, state, known] of [
      ['submissions', 'done', 'queued, running, completed, failed, cancelled'],
      ['runners', 'busy', 'pendingApproval, approved, revoked'],
      ['printouts', 'lost', 'queued, claimed, resolved'],
    ] as const) {
      const r = await as.ctl(cmd, 'list', '--state', state);
      expect(r.status, `${cmd} --state ${state}`).toBe(1);
      expect(r.stderr).toContain(`Allowed choices are ${known}.`);
    }
  }, 60_000);

  it('says a refused sign-in in words: a wrong password, then the lock it leads to', async () => {
    const bob = await j.user('bob');
    const wrong = await nobody.ctl('login', '--server', j.url, '--username', 'bob', '--password-file', password('wrong', 'not-it'));
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/^judgectl: wrong username or password/);
    const asJson = await nobody.failure('login', '--server', j.url, '--username', 'bob', '--password-file', join(work, 'wrong'));
    expect(asJson.error).toMatchObject({ status: 401, code: 'unauthenticated', detail: expect.stringContaining('wrong username or password'), problem: { detail: 'Failed' } });

    const locked = await nobody.ctl('login', '--server', j.url, '--username', 'bob', '--password-file', password('bob', bob.password));
    expect(locked.status).toBe(1);
    expect(locked.stderr).toMatch(/the account is locked after too many wrong passwords .*wait for the lock to end/);
    const unknown = await nobody.ctl('login', '--server', j.url, '--username', 'nosuchuser', '--password-file', join(work, 'wrong'));
    expect(unknown.stderr).toContain('wrong username or password');
  }, 60_000);

  it('marks required options in --help and documents the --json failure shape', async () => {
    const login = await nobody.ctl('login', '--help');
    expect(login.stdout).toMatch(/--server <url> +the judge, e\.g\. http:\/\/127\.0\.0\.1:8080 \(required\)/);
    expect(login.stdout).toMatch(/--username <name> +login name or email address \(required\)/);
    expect(login.stdout).not.toMatch(/--password-file.*\(required\)/);
    expect((await nobody.ctl('series', 'create', '--help')).stdout).toMatch(/--name <name> +its name \(required\)/);
    expect((await nobody.ctl('users', 'import', '--help')).stdout).toMatch(/--activity <slug>[\s\S]*\(required\)/);
    const top = await nobody.ctl('--help');
    expect(top.stdout).toContain('{"error": {"status": 409, "code": "problem.attached", "detail": "...", "problem": {...}}}');
    expect(top.stdout).toContain('assignments');
  }, 60_000);
});
