import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from './harness.js';
import { open } from './support/socket.js';

/**
 * Access keys (named secrets, readable one at a time with the permission of the feature that uses
 * them, never in a list, an event or a log line) and the sign-in and registration redirects.
 */

const SECRET = 'archive-key-never-listed-0123456789';
const OTHER = 'licence-never-listed-9876543210';

let j: TestJudge;
let admin: JudgeClient;
let importer: JudgeClient;
let pupil: JudgeClient;

beforeAll(async () => {
  j = await TestJudge.start({ config: { logLevel: 'info' } });
  admin = await j.admin();
  const u = await j.user('importer');
  const role = await admin.call(ops.createRole, { body: { name: 'Importer', permissions: ['problem:import:external'] } });
  await admin.call(ops.createGrant, { body: { userId: u.id, roleId: role.id } });
  importer = await j.signIn(u);
  pupil = await j.signIn(await j.user('pupil-k'), 'cookie');
});
afterAll(() => j?.stop());

describe('access keys', () => {
  it('are listed by name only; a value is read with the permission of the feature that uses it', async () => {
    const stream = await open(pupil);
    const list = await admin.call(ops.setAccessKey, { params: { name: ' UVaExplorer ' }, body: { value: SECRET } });
    expect(list).toEqual([{ name: 'uvaexplorer', updatedAt: expect.any(String) }]);
    const frame = await stream.next('instanceChanged');
    expect(JSON.stringify(frame)).not.toContain(SECRET);
    stream.close();
    await admin.call(ops.setAccessKey, { params: { name: 'licence' }, body: { value: OTHER, expiresAt: '2999-01-01T00:00:00Z' } });
    const listed = await admin.call(ops.listAccessKeys);
    expect(listed).toEqual([
      { name: 'licence', updatedAt: expect.any(String), expiresAt: '2999-01-01T00:00:00.000Z' },
      { name: 'uvaexplorer', updatedAt: expect.any(String) },
    ]);
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    expect(await importer.call(ops.getAccessKeyValue, { params: { name: 'uvaexplorer' } })).toEqual({ name: 'uvaexplorer', value: SECRET });
    await expect(importer.call(ops.getAccessKeyValue, { params: { name: 'licence' } })).rejects.toMatchObject({ status: 403 });
    await expect(pupil.call(ops.getAccessKeyValue, { params: { name: 'uvaexplorer' } })).rejects.toMatchObject({ status: 403 });
    expect(await admin.call(ops.getAccessKeyValue, { params: { name: 'licence' } })).toEqual({ name: 'licence', value: OTHER, expiresAt: '2999-01-01T00:00:00.000Z' });
  });

  it('an expired or unknown key is not found; an empty value removes one', async () => {
    await admin.call(ops.setAccessKey, { params: { name: 'old' }, body: { value: 'x', expiresAt: '2001-01-01T00:00:00Z' } });
    await expect(admin.call(ops.getAccessKeyValue, { params: { name: 'old' } })).rejects.toMatchObject({ status: 404 });
    await expect(admin.call(ops.getAccessKeyValue, { params: { name: 'never-set' } })).rejects.toMatchObject({ status: 404 });
    const after = await admin.call(ops.setAccessKey, { params: { name: 'old' }, body: { value: '' } });
    expect(after.map((k) => k.name)).not.toContain('old');
  });

  it('only a holder of instance:update lists or writes them, and a bad name or value changes nothing', async () => {
    const before = await admin.call(ops.listAccessKeys);
    await expect(importer.call(ops.listAccessKeys)).rejects.toMatchObject({ status: 403 });
    await expect(importer.call(ops.setAccessKey, { params: { name: 'uvaexplorer' }, body: { value: 'stolen' } })).rejects.toMatchObject({ status: 403 });
    // a path parameter out of its form names nothing: 404, as for every path of the API
    await expect(admin.call(ops.setAccessKey, { params: { name: 'bad/name' }, body: { value: 'x' } })).rejects.toMatchObject({ status: 404 });
    await expect(admin.call(ops.setAccessKey, { params: { name: 'bad name' }, body: { value: 'x' } })).rejects.toMatchObject({ status: 404 });
    await expect(admin.call(ops.setAccessKey, { params: { name: 'long' }, body: { value: 'x'.repeat(4097) } })).rejects.toMatchObject({ status: 422 });
    await expect(admin.call(ops.setAccessKey, { params: { name: 'dated' }, body: { value: 'x', expiresAt: 'tomorrow' } as never })).rejects.toMatchObject({ status: 422 });
    expect(await admin.call(ops.listAccessKeys)).toEqual(before);
    expect(await admin.call(ops.getAccessKeyValue, { params: { name: 'uvaexplorer' } })).toMatchObject({ value: SECRET });
  });

  it('never writes a value to the log', async () => {
    const log = readFileSync(join(j.dataDir, 'logs', 'judge.log'), 'utf8');
    expect(log).toContain('access key changed');
    expect(log).toContain('access key read');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(OTHER);
  });
});

describe('redirects', () => {
  const provider = (slug: string, enabled = true) =>
    admin.call(ops.createProvider, { body: { slug, displayName: `Accounts of ${slug}`, issuer: 'https://login.school.example', clientId: 'judge', enabled, claimPath: 'groups', mappingRules: [] } });

  it('send the sign-in page to an enabled provider; a disabled or removed one leaves the page shown', async () => {
    const p = await provider('school');
    const s = await admin.call(ops.updateInstance, { body: { signInRedirectProvider: 'School', registerRedirectProvider: 'school' } });
    expect(s).toMatchObject({ signInRedirectProvider: 'school', registerRedirectProvider: 'school' });
    expect(await admin.call(ops.getRedirects)).toEqual({
      signIn: { slug: 'school', displayName: 'Accounts of school', state: 'active' },
      register: { slug: 'school', displayName: 'Accounts of school', state: 'active' },
    });
    const { id: _id, createdAt: _c, linkedAccounts: _l, callbackPath: _p, hasClientSecret: _h, hasDeletionSecret: _d, ...body } = p;
    await admin.call(ops.updateProvider, { params: { id: p.id }, body: { ...body, enabled: false } });
    expect((await j.anonymous().call(ops.getInstance)).signInRedirectProvider).toBeUndefined();
    expect((await admin.call(ops.getRedirects)).signIn?.state).toBe('disabled');
    await admin.call(ops.deleteProvider, { params: { id: p.id } });
    expect((await admin.call(ops.getRedirects)).signIn).toEqual({ slug: 'school', displayName: 'school', state: 'missing' });
    const cleared = await admin.call(ops.updateInstance, { body: { signInRedirectProvider: '', registerRedirectProvider: '' } });
    expect(cleared.signInRedirectProvider).toBeUndefined();
    expect(await admin.call(ops.getRedirects)).toEqual({});
  });

  it('refuses a slug no provider has, and is read only with instance:update', async () => {
    await expect(admin.call(ops.updateInstance, { body: { signInRedirectProvider: 'nobody' } })).rejects.toMatchObject({ status: 422, code: 'redirect.provider.unknown' });
    expect(await admin.call(ops.getRedirects)).toEqual({});
    await expect(pupil.call(ops.getRedirects)).rejects.toMatchObject({ status: 403 });
  });
});
