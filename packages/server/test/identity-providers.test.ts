import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type IdentityProvider } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { identityProviders, userIdentities } from '../src/db/schema.js';
import { TestJudge } from './harness.js';
import { tableSnapshot } from './support/db-snapshot.js';
import { expectProblem, req } from './support/identity.js';
import { until } from './support/wait.js';

/**
 * Registering OpenID Connect providers (the "Identity providers" section, decisions §4): what an
 * administrator adds, changes and removes; secrets go in and never come out (nor into the log);
 * mapping rules may give no administrator role and nothing the caller lacks; the sign-in page
 * learns of the enabled ones from GET /instance.
 */

const CLIENT_SECRET = 'client-secret-never-shown-0123456789';
const DELETION_SECRET = 'deletion-secret-never-shown-9876543210';

let j: TestJudge;
let admin: JudgeClient;
let n = 0;

beforeAll(async () => {
  j = await TestJudge.start({ config: { logLevel: 'info' } });
  admin = await j.admin();
  await admin.call(ops.createRole, { body: { name: 'Teacher', permissions: ['activity:create', 'problem:create'] } });
  await admin.call(ops.createRole, { body: { name: 'Runs everything', permissions: ['system:administrator'] } });
  await admin.call(ops.createRole, { body: { name: 'Provider keeper', permissions: ['provider:manage'] } });
});
afterAll(() => j?.stop());

const body = (over: Record<string, unknown> = {}) => ({
  slug: `school-${++n}`,
  displayName: 'School accounts',
  issuer: 'https://login.school.example/realms/pupils',
  clientId: 'judge',
  clientSecret: CLIENT_SECRET,
  claimPath: 'groups',
  mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }],
  ...over,
});

describe('administrators register providers', () => {
  it('adds one: 201 with Location, secrets only as flags, the callback path to register at the provider', async () => {
    const r = await req(j, 'POST', '/identity/providers', { token: admin.accessToken!, body: body({ deletionChannelEnabled: true, deletionSecret: DELETION_SECRET, scopes: 'email openid  profile email' }) });
    expect(r.status, r.text).toBe(201);
    const p = r.body as IdentityProvider;
    expect(r.headers.get('location')).toBe(`/api/v1/identity/providers/${p.id}`);
    expect(p).toMatchObject({
      displayName: 'School accounts',
      issuer: 'https://login.school.example/realms/pupils',
      scopes: 'openid email profile',
      enabled: true,
      unmappedBehavior: 'deny',
      hasClientSecret: true,
      hasDeletionSecret: true,
      deletionChannelEnabled: true,
      callbackPath: `/api/v1/identity/providers/${p.slug}/callback`,
      mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }],
      linkedAccounts: 0,
    });
    expect(r.text).not.toContain(CLIENT_SECRET);
    expect(await admin.call(ops.getProvider, { params: { id: p.id } })).toEqual(p);
    expect((await admin.call(ops.listProviders)).map((x) => x.id)).toContain(p.id);
    const listed = JSON.stringify(await admin.call(ops.listProviders));
    expect(listed).not.toContain(CLIENT_SECRET);
    expect(listed).not.toContain(DELETION_SECRET);
  });

  it('replaces one: an absent secret is kept, an empty one removed; the slug stays unique', async () => {
    const p = await admin.call(ops.createProvider, { body: body() });
    const { clientSecret: _omitted, ...withoutSecret } = body({ slug: p.slug, displayName: 'Renamed' });
    const kept = await admin.call(ops.updateProvider, { params: { id: p.id }, body: withoutSecret });
    expect(kept).toMatchObject({ displayName: 'Renamed', hasClientSecret: true });
    const cleared = await admin.call(ops.updateProvider, { params: { id: p.id }, body: { ...withoutSecret, clientSecret: '' } });
    expect(cleared.hasClientSecret).toBe(false);
    const other = await admin.call(ops.createProvider, { body: body() });
    expectProblem(await req(j, 'PUT', `/identity/providers/${other.id}`, { token: admin.accessToken!, body: body({ slug: p.slug }) }), 409, 'provider.slug.taken');
    expectProblem(await req(j, 'POST', '/identity/providers', { token: admin.accessToken!, body: body({ slug: p.slug }) }), 409, 'provider.slug.taken');
  });

  it('refuses bad input and rules it may not hold, changing nothing', async () => {
    const before = await tableSnapshot(j, [identityProviders]);
    const refused = async (over: Record<string, unknown>, status: number, code: string) =>
      expectProblem(await req(j, 'POST', '/identity/providers', { token: admin.accessToken!, body: body(over) }), status, code);
    await refused({ slug: 'Not A Slug' }, 422, 'validation_failed');
    await refused({ issuer: 'not a url' }, 422, 'validation_failed');
    await refused({ issuer: 'http://login.school.example' }, 422, 'provider.issuer.insecure');
    await refused({ claimPath: 'groups..x' }, 422, 'validation_failed');
    await refused({ unmappedBehavior: 'defaultTemplate' }, 422, 'provider.defaultTemplate.required');
    await refused({ unmappedBehavior: 'sometimes' }, 422, 'validation_failed');
    await refused({ mappingRules: [{ claimValue: 'x', templateName: 'No such role' }] }, 422, 'provider.rule.template.unknown');
    await refused({ mappingRules: [{ claimValue: 'staff', templateName: 'Runs everything' }] }, 403, 'provider.rule.administrator');
    await refused({ mappingRules: [{ claimValue: 'staff', templateName: 'Administrator' }] }, 403, 'provider.rule.administrator');
    await refused({ unmappedBehavior: 'defaultTemplate', defaultTemplateName: 'Administrator' }, 403, 'provider.rule.administrator');
    expect(await tableSnapshot(j, [identityProviders])).toEqual(before);
    // a provider on this machine may speak http, to try one out
    expect((await req(j, 'POST', '/identity/providers', { token: admin.accessToken!, body: body({ issuer: 'http://127.0.0.1:9000/realm' }) })).status).toBe(201);
  });

  it('asks provider:manage, and a keeper may map only roles whose keys they hold', async () => {
    const pupil = await j.signIn(await j.user(`pupil-${++n}`));
    for (const [method, path] of [
      ['GET', '/identity/providers'],
      ['POST', '/identity/providers'],
      ['GET', `/identity/providers/${crypto.randomUUID()}`],
      ['PUT', `/identity/providers/${crypto.randomUUID()}`],
      ['DELETE', `/identity/providers/${crypto.randomUUID()}`],
    ] as const) {
      const withBody = method === 'POST' || method === 'PUT' ? { body: body() } : {};
      expectProblem(await req(j, method, path, { token: pupil.accessToken!, ...withBody }), 403, 'forbidden');
      expect((await req(j, method, path, withBody)).status).toBe(401);
    }
    const keeperUser = await j.user(`keeper-${++n}`);
    await j.grant(keeperUser.id, 'Provider keeper');
    const keeper = await j.signIn(keeperUser);
    expectProblem(await req(j, 'POST', '/identity/providers', { token: keeper.accessToken!, body: body() }), 403, 'provider.rule.excess');
    expect((await req(j, 'POST', '/identity/providers', { token: keeper.accessToken!, body: body({ mappingRules: [] }) })).status).toBe(201);
    expectProblem(await req(j, 'GET', `/identity/providers/${crypto.randomUUID()}`, { token: admin.accessToken! }), 404, 'not_found');
  });

  it('removes one no account is linked to; a linked one is refused (disable it instead)', async () => {
    const free = await admin.call(ops.createProvider, { body: body() });
    expect((await req(j, 'DELETE', `/identity/providers/${free.id}`, { token: admin.accessToken! })).status).toBe(204);
    expectProblem(await req(j, 'GET', `/identity/providers/${free.id}`, { token: admin.accessToken! }), 404, 'not_found');

    const used = await admin.call(ops.createProvider, { body: body() });
    const u = await j.user(`linked-${++n}`);
    await j.app.deps.tx.write((q) => q.insert(userIdentities).values({ providerId: used.id, subject: 'sub-1', userId: u.id, linkedAt: new Date().toISOString() }));
    expect((await admin.call(ops.getProvider, { params: { id: used.id } })).linkedAccounts).toBe(1);
    expectProblem(await req(j, 'DELETE', `/identity/providers/${used.id}`, { token: admin.accessToken! }), 409, 'provider.linked');
  });
});

describe('the sign-in page', () => {
  it('lists the enabled providers by name in GET /instance, for anybody', async () => {
    const shown = await admin.call(ops.createProvider, { body: body({ displayName: 'Aardvark school' }) });
    const hidden = await admin.call(ops.createProvider, { body: body({ displayName: 'Hidden school', enabled: false }) });
    const providers = (await j.anonymous().call(ops.getInstance)).providers;
    expect(providers).toContainEqual({ slug: shown.slug, displayName: 'Aardvark school' });
    expect(providers.map((p) => p.slug)).not.toContain(hidden.slug);
    expect(providers[0]).toEqual({ slug: shown.slug, displayName: 'Aardvark school' });
    // what was shown is not kept past a change: disabled, the button goes at once
    await admin.call(ops.updateProvider, { params: { id: shown.id }, body: body({ slug: shown.slug, displayName: 'Aardvark school', enabled: false }) });
    expect((await j.anonymous().call(ops.getInstance)).providers.map((p) => p.slug)).not.toContain(shown.slug);
  });

  it('never logs a secret', async () => {
    const log = join(j.dataDir, 'logs', 'judge.log');
    await until('the log line', () => (readFileSync(log, 'utf8').includes('identity provider added') ? true : undefined), 5000, 20);
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain(CLIENT_SECRET);
    expect(text).not.toContain(DELETION_SECRET);
  });
});
