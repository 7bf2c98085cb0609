import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type LtiPlatform } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ltiIdentities, ltiKeys, ltiPlatforms } from '../src/db/schema.js';
import { TestJudge } from './harness.js';
import { tableSnapshot } from './support/db-snapshot.js';
import { expectProblem, req } from './support/identity.js';
import { until } from './support/wait.js';

/**
 * Registering LMSs as LTI 1.3 platforms (the "LTI platforms" section, decisions §21): the six
 * operations of the interface with their refusals and who may call them, linking an account to a
 * platform's user, and the tool's key set with its rotation (private keys never leave the server).
 */

let j: TestJudge;
let admin: JudgeClient;
let n = 0;

beforeAll(async () => {
  j = await TestJudge.start({ config: { logLevel: 'info' } });
  admin = await j.admin();
});
afterAll(() => j?.stop());

const body = (over: Record<string, unknown> = {}) => ({
  displayName: 'School Moodle',
  issuer: 'https://moodle.school.example',
  clientId: `client-${++n}`,
  deploymentId: '1',
  keySetUrl: 'https://moodle.school.example/mod/lti/certs.php',
  authTokenUrl: 'https://moodle.school.example/mod/lti/token.php',
  authLoginUrl: 'https://moodle.school.example/mod/lti/auth.php',
  ...over,
});

const token = () => admin.accessToken!;

describe('administrators register platforms', () => {
  it('adds one: 200 with Location and the defaults; reads it back alone and in the list', async () => {
    const r = await req(j, 'POST', '/lti/platforms', { token: token(), body: body() });
    expect(r.status, r.text).toBe(200);
    const p = r.body as LtiPlatform;
    expect(r.headers.get('location')).toBe(`/api/v1/lti/platforms/${p.id}`);
    expect(p).toEqual({
      id: p.id,
      displayName: 'School Moodle',
      issuer: 'https://moodle.school.example',
      clientId: expect.stringMatching(/^client-/),
      deploymentId: '1',
      keySetUrl: 'https://moodle.school.example/mod/lti/certs.php',
      authTokenUrl: 'https://moodle.school.example/mod/lti/token.php',
      authLoginUrl: 'https://moodle.school.example/mod/lti/auth.php',
      isIdentityAuthority: false,
      usernameClaim: 'email',
      enabled: true,
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(await admin.call(ops.getLtiPlatform, { params: { id: p.id } })).toEqual(p);
    expect(await admin.call(ops.listLtiPlatforms)).toContainEqual(p);
  });

  it('replaces one, an identity authority with its namespace and claim', async () => {
    const p = await admin.call(ops.createLtiPlatform, { body: body() });
    const changed = await admin.call(ops.updateLtiPlatform, {
      params: { id: p.id },
      body: body({ clientId: p.clientId, displayName: 'Renamed', isIdentityAuthority: true, identityNamespace: 'moodle', usernameClaim: 'preferred_username', enabled: false }),
    });
    expect(changed).toMatchObject({ id: p.id, displayName: 'Renamed', isIdentityAuthority: true, identityNamespace: 'moodle', usernameClaim: 'preferred_username', enabled: false, createdAt: p.createdAt });
    expect(await admin.call(ops.getLtiPlatform, { params: { id: p.id } })).toEqual(changed);
  });

  it('answers the registration to enter in the LMS, under the origin of the request', async () => {
    const p = await admin.call(ops.createLtiPlatform, { body: body() });
    expect(await admin.call(ops.getLtiRegistration, { params: { id: p.id } })).toEqual({
      toolUrl: `${j.url}/`,
      loginUrl: `${j.url}/api/v1/lti/login`,
      redirectUri: `${j.url}/api/v1/lti/launch`,
      keySetUrl: `${j.url}/api/v1/lti/jwks.json`,
      customParameters: ['activity=ACTIVITY-SLUG', 'problem=PROBLEM-SLUG'],
    });
  });

  it('refuses bad input, changing nothing', async () => {
    const before = await tableSnapshot(j, [ltiPlatforms]);
    const refused = async (over: Record<string, unknown>, status: number, code: string) =>
      expectProblem(await req(j, 'POST', '/lti/platforms', { token: token(), body: body(over) }), status, code);
    await refused({ issuer: 'not a url' }, 422, 'validation_failed');
    await refused({ clientId: '' }, 422, 'validation_failed');
    await refused({ deploymentId: 7 }, 422, 'validation_failed');
    await refused({ keySetUrl: undefined }, 422, 'validation_failed');
    await refused({ enabled: 'yes' }, 422, 'validation_failed');
    await refused({ identityNamespace: 'Not A Namespace' }, 422, 'validation_failed');
    await refused({ authLoginUrl: 'ftp://moodle.school.example/auth' }, 422, 'validation_failed');
    await refused({ authTokenUrl: 'http://moodle.school.example/token' }, 422, 'lti.platform.url.insecure');
    await refused({ isIdentityAuthority: true }, 422, 'lti.platform.identityNamespace.required');
    expectProblem(await req(j, 'POST', '/lti/platforms', { token: token(), body: '{"displayName":' }), 400, 'request.malformed');
    expect(await tableSnapshot(j, [ltiPlatforms])).toEqual(before);
    // a platform on this machine may speak http, to try one out
    expect((await req(j, 'POST', '/lti/platforms', { token: token(), body: body({ issuer: 'http://127.0.0.1:9000', keySetUrl: 'http://localhost:9000/jwks' }) })).status).toBe(200);
  });

  it('refuses a second registration of one issuer, client and deployment (409), on POST and PUT', async () => {
    const first = await admin.call(ops.createLtiPlatform, { body: body() });
    const before = await tableSnapshot(j, [ltiPlatforms]);
    expectProblem(await req(j, 'POST', '/lti/platforms', { token: token(), body: body({ clientId: first.clientId }) }), 409, 'lti.platform.duplicate');
    const other = await admin.call(ops.createLtiPlatform, { body: body({ clientId: first.clientId, deploymentId: '2' }) });
    const after = await tableSnapshot(j, [ltiPlatforms]);
    expectProblem(await req(j, 'PUT', `/lti/platforms/${other.id}`, { token: token(), body: body({ clientId: first.clientId }) }), 409, 'lti.platform.duplicate');
    expect(await tableSnapshot(j, [ltiPlatforms])).toEqual(after);
    expect(after).not.toEqual(before);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const unknown = crypto.randomUUID();
    for (const [method, path] of [
      ['GET', `/lti/platforms/${unknown}`],
      ['PUT', `/lti/platforms/${unknown}`],
      ['DELETE', `/lti/platforms/${unknown}`],
      ['GET', `/lti/platforms/${unknown}/registration`],
      ['GET', '/lti/platforms/not-a-uuid'],
    ] as const) {
      expectProblem(await req(j, method, path, { token: token(), ...(method === 'PUT' ? { body: body() } : {}) }), 404, 'not_found');
    }
  });

  it('asks provider:manage: a participant is refused (403), nobody signed in 401', async () => {
    const pupil = await j.signIn(await j.user(`pupil-${++n}`));
    const id = (await admin.call(ops.createLtiPlatform, { body: body() })).id;
    const before = await tableSnapshot(j, [ltiPlatforms]);
    for (const [method, path] of [
      ['GET', '/lti/platforms'],
      ['POST', '/lti/platforms'],
      ['GET', `/lti/platforms/${id}`],
      ['PUT', `/lti/platforms/${id}`],
      ['DELETE', `/lti/platforms/${id}`],
      ['GET', `/lti/platforms/${id}/registration`],
      ['POST', `/lti/platforms/${id}/links`],
      ['POST', '/lti/keys/rotate'],
    ] as const) {
      const sent = path.endsWith('links') ? { subject: 's', userId: crypto.randomUUID() } : path.endsWith('rotate') ? undefined : body();
      const withBody = sent && (method === 'POST' || method === 'PUT') ? { body: sent } : {};
      expectProblem(await req(j, method, path, { token: pupil.accessToken!, ...withBody }), 403, 'forbidden');
      expect((await req(j, method, path, withBody)).status).toBe(401);
    }
    expect(await tableSnapshot(j, [ltiPlatforms])).toEqual(before);
  });
});

describe('removing and linking', () => {
  it('removes a platform nothing uses; one with a linked account is refused (disable it instead)', async () => {
    const free = await admin.call(ops.createLtiPlatform, { body: body() });
    expect((await req(j, 'DELETE', `/lti/platforms/${free.id}`, { token: token() })).status).toBe(204);
    expectProblem(await req(j, 'GET', `/lti/platforms/${free.id}`, { token: token() }), 404, 'not_found');

    const used = await admin.call(ops.createLtiPlatform, { body: body() });
    const u = await j.user(`linked-${++n}`);
    expect((await req(j, 'POST', `/lti/platforms/${used.id}/links`, { token: token(), body: { subject: 'lms-user-7', userId: u.id } })).status).toBe(204);
    expectProblem(await req(j, 'DELETE', `/lti/platforms/${used.id}`, { token: token() }), 409, 'lti.platform.inUse');
    expect((await admin.call(ops.getLtiPlatform, { params: { id: used.id } })).id).toBe(used.id);
  });

  it('links an account to a user of the platform once; the same user for another account is refused', async () => {
    const p = await admin.call(ops.createLtiPlatform, { body: body() });
    const [a, b] = [await j.user(`la-${++n}`), await j.user(`lb-${++n}`)];
    const link = (subject: string, userId: string) => req(j, 'POST', `/lti/platforms/${p.id}/links`, { token: token(), body: { subject, userId } });
    expect((await link('sub-a', a.id)).status).toBe(204);
    expect((await link('sub-a', a.id)).status).toBe(204);
    const before = await tableSnapshot(j, [ltiIdentities]);
    expectProblem(await link('sub-a', b.id), 409, 'lti.link.taken');
    expectProblem(await link('sub-b', crypto.randomUUID()), 404, 'not_found');
    expectProblem(await link('', b.id), 422, 'validation_failed');
    expect(await tableSnapshot(j, [ltiIdentities])).toEqual(before);
    expect((await j.rows('lti_identities')).filter((r) => r.platformId === p.id)).toEqual([expect.objectContaining({ subject: 'sub-a', userId: a.id })]);
  });
});

describe("the tool's keys", () => {
  it('publishes an RSA key for anybody, without its private part', async () => {
    const r = await req(j, 'GET', '/lti/jwks.json');
    expect(r.status).toBe(200);
    const keys = (r.body as { keys: Record<string, unknown>[] }).keys;
    expect(keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String), n: expect.any(String), e: 'AQAB' })]);
    for (const k of keys) for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(k).not.toHaveProperty(part);
    // the same key on every request, made once
    expect((await req(j, 'GET', '/lti/jwks.json')).body).toEqual(r.body);
  });

  it('rotates: a new key signs, the previous one stays published; private keys are never answered nor logged', async () => {
    const before = ((await req(j, 'GET', '/lti/jwks.json')).body as { keys: { kid: string }[] }).keys.map((k) => k.kid);
    const rotated = await admin.call(ops.rotateLtiKey);
    expect(before).not.toContain(rotated.kid);
    expect(rotated.published.find((p) => p.kid === rotated.kid)).toEqual({ kid: rotated.kid });
    for (const kid of before) expect(rotated.published.find((p) => p.kid === kid)?.retiredAt).toEqual(expect.any(String));
    const after = ((await req(j, 'GET', '/lti/jwks.json')).body as { keys: { kid: string }[] }).keys.map((k) => k.kid);
    expect(after).toEqual([rotated.kid, ...before]);
    const stored = await j.app.deps.tx.read((q) => q.select({ privateKey: ltiKeys.privateKey }).from(ltiKeys));
    expect(stored.every((k) => k.privateKey.startsWith('-----BEGIN PRIVATE KEY-----'))).toBe(true);
    expect(JSON.stringify(rotated)).not.toContain('PRIVATE KEY');
    const log = join(j.dataDir, 'logs', 'judge.log');
    await until('the rotation in the log', () => readFileSync(log, 'utf8').includes('LTI tool key rotated'), 5000, 20);
    const text = readFileSync(log, 'utf8');
    expect(text).toContain('LTI platform added');
    expect(text).not.toContain('PRIVATE KEY');
    for (const k of stored) expect(text).not.toContain(k.privateKey.split('\n')[1]!);
  });
});
