import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type AccountDeletionRequest } from '@judge/contract';
import { userIdentities } from '../packages/server/src/db/schema.js';
import { ADMIN_PASSWORD, raw, TestJudge } from '../packages/server/test/harness.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';

// `judgectl users deletion-requests [halt ID]` against a real server: the queue an identity
// provider's back channel fills, and halting one request of it.

const SECRET = 'judgectl-deletion-secret-0123456789';

describe('judgectl users deletion-requests', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let ctl: CtlSession;

  beforeAll(async () => {
    j = await TestJudge.start();
    const admin = await j.admin();
    const p = await admin.call(ops.createProvider, {
      body: { slug: 'school', displayName: 'School', issuer: 'https://login.school.example', clientId: 'judge', deletionChannelEnabled: true, deletionSecret: SECRET },
    });
    const u = await j.user('leaver');
    await j.app.deps.tx.write((q) => q.insert(userIdentities).values({ providerId: p.id, subject: 'sub-leaver', userId: u.id, linkedAt: new Date().toISOString() }));
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    ctl?.close();
    await j?.stop();
  });

  it('lists a provider’s request and halts it', async () => {
    const r = await raw(`${j.url}/api/v1/identity/providers/school/deletion-requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'sub-leaver', requestId: 'r-1' }),
    });
    expect(r.status, r.text).toBe(202);
    const listed = await ctl.ok<AccountDeletionRequest[]>('users', 'deletion-requests');
    expect(listed).toMatchObject([{ id: r.body.id, username: 'leaver', providerSlug: 'school', state: 'pending' }]);
    const shown = await ctl.run('users', 'deletion-requests');
    expect(shown.stdout).toContain('leaver');
    expect(shown.stdout).toContain('1 request');
    expect(await ctl.ok<AccountDeletionRequest>('users', 'deletion-requests', 'halt', r.body.id as string)).toMatchObject({ state: 'halted' });
    expect(await ctl.refused('users', 'deletion-requests', 'halt', r.body.id as string)).toMatch(/halted/);
  });
});
