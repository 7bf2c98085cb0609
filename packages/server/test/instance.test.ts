import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type InstanceSettings } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { TestJudge, raw } from './harness.js';

/** GET /instance (anonymous) and PUT /instance (instance:update) over real HTTP and SQLite. */

const SWITCHES = [
  'localRegistrationEnabled',
  'requireEmail',
  'requireConfirmedEmail',
  'requireApproval',
  'externalJudgingEnabled',
  'seriesRestrictionsEnabled',
  'showLogo',
  'showLocalSignIn',
  'showHero',
  'accountDeletionEnabled',
  'allowRenameStaffAccounts',
  'allowRenameSelfRegistered',
  'keepSignedInByDefault',
] as const;

const problem = refusedWith;

describe('instance settings', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  const stored = async () => JSON.stringify(await j.rows('instance_settings'));
  const read = () => j.anonymous().call(ops.getInstance, {});

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
  });
  afterAll(() => j.stop());

  it('GET /instance works anonymously: a name, the switches as booleans, empty lists', async () => {
    const res = await raw(`${j.url}/api/v1/instance`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.text).not.toContain('null');
    const s = res.body as InstanceSettings;
    expect(typeof s.name).toBe('string');
    expect(s.name.length).toBeGreaterThan(0);
    for (const k of SWITCHES) expect(typeof s[k], k).toBe('boolean');
    expect(s.documents).toEqual([]);
    expect(s.providers).toEqual([]);
    expect(s.logoTranslations).toEqual([]);
    expect(s.logo).toBeUndefined();
    // a fresh installation does not let strangers register
    expect(s.localRegistrationEnabled).toBe(false);
    // the signed-in view is the same document
    expect(await admin.call(ops.getInstance, {})).toEqual(s);
  });

  it('PUT /instance by the administrator changes the switches given, keeps the rest, and returns the settings', async () => {
    const before = await read();
    const after = await admin.call(ops.updateInstance, { body: { name: 'Contest Hall', localRegistrationEnabled: true, requireApproval: true } });
    expect(after).toEqual({ ...before, name: 'Contest Hall', localRegistrationEnabled: true, requireApproval: true });
    expect(await read()).toEqual(after);

    // an empty body and unknown members change nothing
    expect(await admin.call(ops.updateInstance, { body: {} })).toEqual(after);
    expect(await admin.call(ops.updateInstance, { body: { colour: 'red' } as never })).toEqual(after);

    // one switch back, the others stay
    const back = await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false } });
    expect(back).toEqual({ ...after, localRegistrationEnabled: false });
    expect(await read()).toEqual(back);

    // the name is trimmed
    expect((await admin.call(ops.updateInstance, { body: { name: '  Judge of Tests  ' } })).name).toBe('Judge of Tests');
    expect((await read()).name).toBe('Judge of Tests');
  });

  it('the switch takes effect: self-registration opens and closes with localRegistrationEnabled', async () => {
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false } });
    const users = () => j.count('users');
    const count = await users();
    await problem(j.anonymous().call(ops.register, { body: { email: 'closed@example.test', password: 'a-long-enough-password' } }), 403, 'registration.closed');
    expect(await users()).toBe(count);
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: true } });
    const open = await j.anonymous().send(ops.register, { body: { email: 'open@example.test', password: 'a-long-enough-password' } });
    expect(open.status).toBe(204);
    expect(await users()).toBe(count + 1);
    await admin.call(ops.updateInstance, { body: { localRegistrationEnabled: false } });
  });

  it('PUT /instance needs instance:update: a plain user gets 403, a stranger 401, nothing changes', async () => {
    const u = await j.user('plain');
    const c = await j.signIn(u);
    const before = await stored();
    const e = await problem(c.call(ops.updateInstance, { body: { localRegistrationEnabled: true } }), 403, 'forbidden');
    expect(e.detail).toContain('instance:update');
    await problem(j.anonymous().call(ops.updateInstance, { body: { name: 'Hijacked' } }), 401, 'unauthenticated');
    expect(await stored()).toBe(before);
    expect((await read()).name).not.toBe('Hijacked');
  });

  it('refuses members of the wrong type with 422 and changes nothing, not even the valid members beside them', async () => {
    const before = await stored();
    const view = await read();
    const cases: [unknown, string][] = [
      [{ localRegistrationEnabled: 'yes' }, 'localRegistrationEnabled'],
      [{ localRegistrationEnabled: 1 }, 'localRegistrationEnabled'],
      [{ requireEmail: null }, 'requireEmail'],
      [{ name: 5 }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'Fine name', showLogo: 'no' }, 'showLogo'],
      [{ accountDeletionEnabled: true, requireApproval: [] }, 'requireApproval'],
    ];
    for (const [body, field] of cases) {
      const e = await problem(admin.call(ops.updateInstance, { body: body as never }), 422, 'validation_failed');
      expect(Object.keys(e.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const notObject = await raw(`${j.url}/api/v1/instance`, { method: 'PUT', token: admin.accessToken!, headers: { 'content-type': 'application/json' }, body: '[true]' });
    expect(notObject.status).toBe(422);
    const malformed = await raw(`${j.url}/api/v1/instance`, { method: 'PUT', token: admin.accessToken!, headers: { 'content-type': 'application/json' }, body: '{"name":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'request.malformed' });
    expect(await stored()).toBe(before);
    expect(await read()).toEqual(view);
  });
});
