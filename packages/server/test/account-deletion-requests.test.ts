import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type AccountDeletionRequest, type IdentityProvider } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { eq } from 'drizzle-orm';
import { accountDeletionRequests, sessions, userIdentities, users } from '../src/db/schema.js';
import { TestJudge, type TestUser } from './harness.js';
import { expectProblem, req } from './support/identity.js';
import { until } from './support/wait.js';

/**
 * The identity providers' deletion channel (decisions §4, "Deletion channel"): a provider's back
 * channel asks, with its deletion secret, for the account of one of its subjects to be deleted; the
 * request waits a day for an administrator to halt it, then the sweeper anonymises the account,
 * except one with system permissions, which waits for an administrator (`attention`).
 */

const SECRET = 'deletion-secret-never-logged-5f1c2a9e7b3d';
const HOUR = 3600_000;

let j: TestJudge;
let admin: JudgeClient;
let channel: IdentityProvider;
let n = 0;

const provider = (slug: string, over: Record<string, unknown>) =>
  admin.call(ops.createProvider, { body: { slug, displayName: slug, issuer: 'https://login.school.example', clientId: 'judge', ...over } });

/** An account linked to `p` under the subject `sub`, signed in. */
async function linked(p: IdentityProvider, sub: string): Promise<{ u: TestUser; c: JudgeClient }> {
  const u = await j.user(`linked-${++n}`, { email: `linked-${n}@school.example`, firstName: 'Linked' });
  await j.app.deps.tx.write((q) => q.insert(userIdentities).values({ providerId: p.id, subject: sub, userId: u.id, linkedAt: new Date().toISOString() }));
  return { u, c: await j.signIn(u) };
}

const ask = (slug: string, secret: string | undefined, body: { subject: string; requestId: string }) =>
  req(j, 'POST', `/identity/providers/${slug}/deletion-requests`, { body, ...(secret !== undefined ? { headers: { authorization: `Bearer ${secret}` } } : {}) });

const requestRows = () => j.app.deps.tx.read((q) => q.select().from(accountDeletionRequests));
const userRow = async (id: string) => (await j.app.deps.tx.read((q) => q.select().from(users).where(eq(users.id, id))))[0]!;
const sweep = (hoursFromNow: number) => j.app.deletionSweeper.tick(new Date(Date.now() + hoursFromNow * HOUR));

beforeAll(async () => {
  j = await TestJudge.start({ config: { logLevel: 'info' } });
  admin = await j.admin();
  channel = await provider('channel', { deletionChannelEnabled: true, deletionSecret: SECRET });
});
afterAll(() => j?.stop());

describe('the back channel', () => {
  it('records a request for a linked account: 202, pending, due a day later', async () => {
    const { u } = await linked(channel, 'sub-recorded');
    const before = Date.now();
    const r = await ask('channel', SECRET, { subject: 'sub-recorded', requestId: 'req-recorded' });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ id: expect.any(String), state: 'pending' });
    const due = Date.parse(r.body.dueAt as string);
    expect(due).toBeGreaterThanOrEqual(before + 24 * HOUR - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 24 * HOUR + 1000);
    const row = (await requestRows()).find((x) => x.id === r.body.id);
    expect(row).toMatchObject({ userId: u.id, providerId: channel.id, requestId: 'req-recorded', channel: 'provider', state: 'pending' });
  });

  it('refuses a wrong or missing secret, a channel that is off, a provider with no secret or none at all: the same 401, nothing recorded', async () => {
    const off = await provider('channel-off', { deletionChannelEnabled: false, deletionSecret: SECRET });
    const bare = await provider('no-secret', { deletionChannelEnabled: true });
    await linked(off, 'sub-x');
    await linked(bare, 'sub-x');
    await linked(channel, 'sub-x');
    const before = (await requestRows()).length;
    const refusals = [
      await ask('channel', 'not-the-secret', { subject: 'sub-x', requestId: 'r1' }),
      await ask('channel', undefined, { subject: 'sub-x', requestId: 'r2' }),
      await ask('channel-off', SECRET, { subject: 'sub-x', requestId: 'r3' }),
      await ask('no-secret', SECRET, { subject: 'sub-x', requestId: 'r4' }),
      await ask('no-secret', '', { subject: 'sub-x', requestId: 'r5' }),
      await ask('nobody', SECRET, { subject: 'sub-x', requestId: 'r6' }),
    ];
    for (const r of refusals) expectProblem(r, 401, 'unauthenticated', refusals[0]!.body.detail as string);
    expect((await requestRows()).length).toBe(before);
  });

  it('answers 202 for a subject with no account here and records nothing', async () => {
    const before = (await requestRows()).length;
    const r = await ask('channel', SECRET, { subject: 'sub-unknown', requestId: 'req-unknown' });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ id: expect.any(String), state: 'pending', dueAt: expect.any(String) });
    expect((await requestRows()).length).toBe(before);
  });

  it('records the same requestId once and answers it again', async () => {
    await linked(channel, 'sub-twice');
    const first = await ask('channel', SECRET, { subject: 'sub-twice', requestId: 'req-twice' });
    const again = await ask('channel', SECRET, { subject: 'sub-twice', requestId: 'req-twice' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect((await requestRows()).filter((x) => x.requestId === 'req-twice')).toHaveLength(1);
  });

  it('checks the body', async () => {
    expectProblem(await req(j, 'POST', '/identity/providers/channel/deletion-requests', { body: { subject: '' }, headers: { authorization: `Bearer ${SECRET}` } }), 422, 'validation_failed');
  });
});

describe('administrators and the sweeper', () => {
  it('carries out a due request: the account is anonymised and its sessions end; not before it is due', async () => {
    const { u, c } = await linked(channel, 'sub-due');
    const r = await ask('channel', SECRET, { subject: 'sub-due', requestId: 'req-due' });
    await sweep(23);
    expect((await userRow(u.id)).username).toBe(u.username);
    await sweep(25);
    const after = await userRow(u.id);
    expect(after.username).toMatch(/^deleted-/);
    expect(after).toMatchObject({ email: null, firstName: null, passwordHash: null });
    expect(after.blockedAt).not.toBeNull();
    const live = await j.app.deps.tx.read((q) => q.select().from(sessions).where(eq(sessions.userId, u.id)));
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((s) => s.endedAt !== null)).toBe(true);
    await expect(c.call(ops.getAccount)).rejects.toMatchObject({ status: 401 });
    const listed = (await admin.call(ops.listDeletionRequests)).find((x) => x.id === r.body.id);
    expect(listed).toMatchObject({ state: 'completed', providerSlug: 'channel', doneAt: expect.any(String) });
  });

  it('lets an administrator halt a pending request, which the sweeper then leaves; halting twice is 409', async () => {
    const { u } = await linked(channel, 'sub-halt');
    const r = await ask('channel', SECRET, { subject: 'sub-halt', requestId: 'req-halt' });
    const listed = await admin.call(ops.listDeletionRequests);
    expect(listed[0]).toMatchObject({ id: r.body.id, state: 'pending', username: u.username, displayName: expect.any(String), providerSlug: 'channel' });
    const halted = await admin.call(ops.haltDeletionRequest, { params: { id: r.body.id as string } });
    expect(halted).toMatchObject({ state: 'halted', haltedByUserId: expect.any(String) });
    await sweep(25);
    expect((await userRow(u.id)).username).toBe(u.username);
    expectProblem(await req(j, 'POST', `/account-deletion-requests/${r.body.id}/halt`, { token: admin.accessToken! }), 409, 'deletion.notPending');
  });

  it('never empties an account with system permissions: attention, until an administrator carries it out', async () => {
    const { u } = await linked(channel, 'sub-admin');
    await j.grant(u.id, 'administrator');
    const r = await ask('channel', SECRET, { subject: 'sub-admin', requestId: 'req-admin' });
    await sweep(25);
    expect((await userRow(u.id)).username).toBe(u.username);
    const waiting = (await admin.call(ops.listDeletionRequests)).find((x) => x.id === r.body.id) as AccountDeletionRequest;
    expect(waiting).toMatchObject({ state: 'attention', note: expect.any(String) });
    const done = await admin.call(ops.carryOutDeletionRequest, { params: { id: waiting.id } });
    expect(done.state).toBe('completed');
    expect((await userRow(u.id)).username).toMatch(/^deleted-/);
  });

  it('refuses participants the list and halting (403)', async () => {
    const p = await j.signIn(await j.user(`participant-${++n}`));
    const { u: _u } = await linked(channel, 'sub-403');
    const r = await ask('channel', SECRET, { subject: 'sub-403', requestId: 'req-403' });
    expectProblem(await req(j, 'GET', '/account-deletion-requests', { token: p.accessToken! }), 403, 'forbidden');
    expectProblem(await req(j, 'POST', `/account-deletion-requests/${r.body.id}/halt`, { token: p.accessToken! }), 403, 'forbidden');
    expect((await requestRows()).find((x) => x.id === r.body.id)?.state).toBe('pending');
  });

  it('logs refusals with their reason, never the secret', async () => {
    const log = join(j.dataDir, 'logs', 'judge.log');
    await until('the refusal in the log', () => (readFileSync(log, 'utf8').includes('wrong secret') ? true : undefined), 5000, 20);
    const text = readFileSync(log, 'utf8');
    expect(text).toContain('provider deletion request refused');
    expect(text).toContain('deletion channel off');
    expect(text).toContain('no deletion secret set');
    expect(text).not.toContain(SECRET);
  });
});
