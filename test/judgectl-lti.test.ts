import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type LtiPlatform, type LtiRegistration } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';

// `judgectl lti ...` against a real server, each call a child process: registering an LMS from a
// terminal, what to enter in the LMS, linking an account, rotating the key, removing a platform.

describe('judgectl lti', { timeout: 300_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let ctl: CtlSession;
  const sessions: CtlSession[] = [];

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    sessions.push(ctl);
  });
  afterAll(async () => {
    for (const s of sessions) s.close();
    await j?.stop();
  });

  const add = (...extra: string[]) =>
    ctl.run(
      'lti', 'add',
      '--display-name', 'School Moodle',
      '--issuer', 'https://moodle.school.example',
      '--client-id', 'judge-tool',
      '--deployment-id', '1',
      '--key-set-url', 'https://moodle.school.example/mod/lti/certs.php',
      '--auth-token-url', 'https://moodle.school.example/mod/lti/token.php',
      '--auth-login-url', 'https://moodle.school.example/mod/lti/auth.php',
      ...extra,
    );

  it('adds a platform and prints what to enter in the LMS; lists it; shows its registration', async () => {
    const added = await add('--identity-authority', '--identity-namespace', 'moodle', '--username-claim', 'preferred_username');
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain(`${j.url}/api/v1/lti/login`);
    expect(added.stdout).toContain(`${j.url}/api/v1/lti/launch`);
    expect(added.stdout).toContain('activity=ACTIVITY-SLUG');
    expect(added.stdout).toContain('moodle-… from preferred_username');
    const listed = await ctl.ok<LtiPlatform[]>('lti', 'list');
    expect(listed).toEqual([expect.objectContaining({ displayName: 'School Moodle', isIdentityAuthority: true, identityNamespace: 'moodle', usernameClaim: 'preferred_username', enabled: true })]);
    expect((await ctl.run('lti', 'list')).stdout).toContain('judge-tool');
    const reg = await ctl.ok<LtiRegistration>('lti', 'show-registration', 'School Moodle');
    expect(reg).toEqual(await admin.call(ops.getLtiRegistration, { params: { id: listed[0]!.id } }));
    expect(await ctl.refused('lti', 'add', '--display-name', 'x')).toMatch(/--issuer/);
    expect(await add()).toMatchObject({ status: 1, stderr: expect.stringContaining('lti.platform.duplicate') });
  });

  it('links an account, rotates the key, and removes only a platform nothing uses', async () => {
    const zoe = await j.user('zoe');
    const [p] = await admin.call(ops.listLtiPlatforms);
    expect((await ctl.run('lti', 'link', p!.id, 'lms-42', 'zoe')).stdout).toContain('Linked zoe to lms-42 of School Moodle.');
    expect((await j.rows('lti_identities')).map((r) => [r.subject, r.userId])).toEqual([['lms-42', zoe.id]]);
    expect(await ctl.refused('lti', 'remove', p!.id)).toMatch(/409|in use|linked/i);

    const rotated = await ctl.ok<{ kid: string; published: { kid: string }[] }>('lti', 'rotate-key');
    expect(rotated.published.map((k) => k.kid)).toContain(rotated.kid);
    expect(JSON.stringify(rotated)).not.toContain('PRIVATE');

    const spare = await add('--deployment-id', '2', '--display-name', 'Spare', '--disabled');
    expect(spare.status, spare.stderr).toBe(0);
    expect((await ctl.run('lti', 'remove', 'Spare')).stdout).toContain('Removed Spare.');
    expect((await admin.call(ops.listLtiPlatforms)).map((x) => x.displayName)).toEqual(['School Moodle']);
  });

  it('is refused to a participant', async () => {
    const u = await j.user('pupil');
    const pupil = await judgectlAs(j.url, u.username, u.password);
    sessions.push(pupil);
    expect(await pupil.refused('lti', 'list')).toMatch(/403/);
  });
});
