import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops, type IdentityProvider } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { users } from '../src/db/schema.js';
import { TestJudge } from './harness.js';
import { req } from './support/identity.js';
import { browse, startForgingPeer, startOidcPeer, type OidcPeer } from './support/oidc-peer.js';

/**
 * Signing in through an OpenID provider (decisions §4), against a real one (`oidc-provider`) started
 * here, the browser's round trip followed over real HTTP: a first sign-in creates the account by a
 * mapping rule, a later one finds it, a verified address links an existing account, `deny` refuses
 * who no rule maps, the roles follow the provider's groups, a used state does not work twice, and an
 * ID token signed with a key the provider does not publish is refused.
 */

let j: TestJudge;
let admin: JudgeClient;
let peer: OidcPeer;
let school: IdentityProvider;

const cookieOf = (jar: Map<string, Map<string, string>>) => jar.get(new URL(j.url).host)?.get('judge_session');
const signIn = (slug: string, query = 'returnUrl=/staff&remember=true') => browse(`${j.url}/api/v1/identity/providers/${slug}/challenge?${query}`, j.url);

beforeAll(async () => {
  j = await TestJudge.start();
  admin = await j.admin();
  await admin.call(ops.createRole, { body: { name: 'Teacher', permissions: ['activity:create'] } });
  await admin.call(ops.createRole, { body: { name: 'Pupil', permissions: [] } });
  await admin.call(ops.createRole, { body: { name: 'Helper', permissions: [] } });
  peer = await startOidcPeer([`${j.url}/api/v1/identity/providers/school/callback`]);
  school = await admin.call(ops.createProvider, {
    body: { slug: 'school', displayName: 'School accounts', issuer: peer.issuer, clientId: peer.clientId, clientSecret: peer.clientSecret, scopes: 'openid email profile groups', claimPath: 'groups', mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }] },
  });
});
afterAll(async () => {
  await j?.stop();
  await peer?.close();
});

describe('signing in through a provider', () => {
  it('creates the account on the first sign-in, with the role its group maps to, and lands on the returnUrl', async () => {
    peer.as('sub-ann', { email: 'ann@school.example', email_verified: true, given_name: 'Ann', family_name: 'Lee', preferred_username: 'ann', groups: ['teachers'] });
    const done = await signIn('school');
    expect(done.location).toBe(`${j.url}/staff`);
    const cookie = cookieOf(done.jar)!;
    expect(cookie).toBeTruthy();
    const me = await req(j, 'GET', '/account', { cookie });
    expect(me.body).toMatchObject({ username: 'ann', firstName: 'Ann', lastName: 'Lee', email: 'ann@school.example', emailConfirmed: true, isLocal: false });
    expect((await req(j, 'GET', '/permissions/mine', { cookie })).body).toContain('activity:create');
    expect((await req(j, 'GET', '/account/links', { cookie })).body).toEqual([expect.objectContaining({ providerSlug: 'school', displayName: 'School accounts' })]);
    expect((await admin.call(ops.getProvider, { params: { id: school.id } })).linkedAccounts).toBe(1);

    // again: the same account, no second one
    peer.as('sub-ann', { email: 'ann@school.example', email_verified: true, preferred_username: 'ann', groups: ['teachers'] });
    const again = await signIn('school', 'returnUrl=/');
    expect((await req(j, 'GET', '/account', { cookie: cookieOf(again.jar)! })).body.userId).toBe((me.body as { userId: string }).userId);
  });

  it('refuses under deny whom no rule maps, creating nothing', async () => {
    const before = (await j.app.deps.tx.read((q) => q.select({ id: users.id }).from(users))).length;
    peer.as('sub-stranger', { email: 'x@elsewhere.example', email_verified: true, groups: ['parents'] });
    const done = await signIn('school');
    expect(done.location).toBe(`${j.url}/sign-in?provider=school&error=provider.unmapped`);
    expect(cookieOf(done.jar)).toBeUndefined();
    expect((await j.app.deps.tx.read((q) => q.select({ id: users.id }).from(users))).length).toBe(before);
  });

  it('links an existing account when the provider vouches for its address, and not otherwise', async () => {
    const bob = await j.user('bob', { email: 'bob@school.example' });
    peer.as('sub-bob', { email: 'bob@school.example', email_verified: true, groups: ['teachers'] });
    const linked = await signIn('school');
    expect((await req(j, 'GET', '/account', { cookie: cookieOf(linked.jar)! })).body.userId).toBe(bob.id);

    const carl = await j.user('carl', { email: 'carl@school.example' });
    peer.as('sub-carl', { email: 'carl@school.example', email_verified: false, preferred_username: 'carl', groups: ['teachers'] });
    const fresh = await signIn('school');
    const me = (await req(j, 'GET', '/account', { cookie: cookieOf(fresh.jar)! })).body as { userId: string; username: string; email?: string };
    expect(me.userId).not.toBe(carl.id);
    expect(me.username).toBe('carl2');
    expect(me.email).toBeUndefined();
  });

  it("rewrites the roles it gave when the provider's groups change, and keeps a role held by hand", async () => {
    await admin.call(ops.updateProvider, {
      params: { id: school.id },
      body: { slug: 'school', displayName: 'School accounts', issuer: peer.issuer, clientId: peer.clientId, scopes: 'openid email profile groups', claimPath: 'groups', mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }], unmappedBehavior: 'defaultTemplate', defaultTemplateName: 'Pupil' },
    });
    peer.as('sub-dana', { email: 'dana@school.example', email_verified: true, preferred_username: 'dana', groups: ['teachers'] });
    const first = await signIn('school');
    expect((await req(j, 'GET', '/permissions/mine', { cookie: cookieOf(first.jar)! })).body).toContain('activity:create');
    const dana = ((await req(j, 'GET', '/account', { cookie: cookieOf(first.jar)! })).body as { userId: string }).userId;
    await j.grant(dana, 'Helper');
    peer.as('sub-dana', { email: 'dana@school.example', email_verified: true, preferred_username: 'dana', groups: [] });
    const later = await signIn('school');
    expect((await req(j, 'GET', '/permissions/mine', { cookie: cookieOf(later.jar)! })).body).not.toContain('activity:create');
    const { userId } = (await req(j, 'GET', '/account', { cookie: cookieOf(later.jar)! })).body as { userId: string };
    const held = await admin.call(ops.listGrants, { query: { userId } });
    expect(held.items.map((g) => g.roleName).sort()).toEqual(['Helper', 'Pupil']);
  });

  it('lands on a path of this site only, and a browser-session cookie without remember', async () => {
    peer.as('sub-ann', { email: 'ann@school.example', email_verified: true, groups: ['teachers'] });
    const done = await signIn('school', `returnUrl=${encodeURIComponent('//evil.example/x')}`);
    expect(done.location).toBe(`${j.url}/`);
  });
});

describe('what is refused', () => {
  it('a callback whose state was used already, or never issued', async () => {
    peer.as('sub-ann', { email: 'ann@school.example', email_verified: true, groups: ['teachers'] });
    // the browser's way up to the judge's callback, which is then replayed
    const start = await fetch(`${j.url}/api/v1/identity/providers/school/challenge`, { redirect: 'manual' });
    const stopAtCallback = (await browse(start.headers.get('location')!, (u) => u.includes('/callback?'))).location!;
    const first = await fetch(stopAtCallback, { redirect: 'manual' });
    expect(first.headers.get('location')).toBe('/');
    const second = await fetch(stopAtCallback, { redirect: 'manual' });
    expect(second.headers.get('location')).toBe('/sign-in?provider=school&error=provider.ticket.missing');
    const none = await fetch(`${j.url}/api/v1/identity/providers/school/callback?code=x&state=never-issued`, { redirect: 'manual' });
    expect(none.headers.get('location')).toBe('/sign-in?provider=school&error=provider.ticket.missing');
  });

  it('an ID token signed with a key the provider does not publish', async () => {
    const forger = await startForgingPeer();
    try {
      await admin.call(ops.createProvider, { body: { slug: 'forged', displayName: 'Forged', issuer: forger.issuer, clientId: 'judge', clientSecret: 's', claimPath: 'groups', mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }] } });
      const done = await signIn('forged');
      expect(done.location).toBe(`${j.url}/sign-in?provider=forged&error=provider.refused`);
      expect(cookieOf(done.jar)).toBeUndefined();
      expect(await j.app.deps.tx.read((q) => q.select().from(users).where(eq(users.emailKey, 'mallory@school.example')))).toEqual([]);
    } finally {
      await forger.close();
    }
  });

  it('an unknown or disabled provider', async () => {
    expect((await fetch(`${j.url}/api/v1/identity/providers/nobody/challenge`, { redirect: 'manual' })).status).toBe(404);
    await admin.call(ops.createProvider, { body: { slug: 'off', displayName: 'Off', issuer: peer.issuer, clientId: peer.clientId, enabled: false, unmappedBehavior: 'defaultTemplate', defaultTemplateName: 'Pupil' } });
    expect((await fetch(`${j.url}/api/v1/identity/providers/off/challenge`, { redirect: 'manual' })).status).toBe(404);
  });
});
