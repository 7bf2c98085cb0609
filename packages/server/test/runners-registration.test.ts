import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { ADMIN_PASSWORD, raw } from './harness.js';
import { sha256, b64, plus, HOUR, Runner, Bench } from './support/runner-bench.js';
import { eq } from 'drizzle-orm';
import { runners } from '../src/db/schema.js';

/**
 * Runner registration (decisions §7): registering a key, the Ed25519 challenge and token exchange,
 * runner-authenticated calls, heartbeats, and the per-address limit on the handshake.
 * Over real HTTP on a real server; fixtures in support/runner-bench.ts.
 */

describe('runners: registration and the handshake', () => {
  let b: Bench;
  beforeAll(async () => {
    b = await Bench.start();
  });
  afterAll(() => b.stop());

  describe('register', () => {
    it('a new key waits for approval; its fingerprint is the hex SHA-256 of the raw key', async () => {
      const r = new Runner(b.j.url, 'lab-1', ['standard-io@1'], ['gpu']);
      const res = await r.register({ version: '0.1.0' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ runnerId: expect.any(String), fingerprint: sha256(r.keys.publicKey), state: 'pendingApproval' });
      expect(res.body.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      const view = await b.view(r);
      expect(view).toMatchObject({
        id: r.id,
        name: 'lab-1',
        state: 'pendingApproval',
        fingerprint: r.fingerprint,
        problemTypes: ['standard-io@1'],
        tags: ['gpu'],
        version: '0.1.0',
        registeredAt: b.clock.now().toISOString(),
        completedJobs: 0,
        files: [],
      });
      expect(view.approvedAt).toBeUndefined();
      expect(view.currentJobId).toBeUndefined();
    });

    it('the same key again keeps its id, state and tags, and refreshes its name, version and problem types', async () => {
      const r = new Runner(b.j.url, 'lab-2', ['standard-io@1'], ['gpu']);
      await r.register({ version: '0.1.0' });
      await b.admin.call(ops.approveRunner, { params: { id: r.id } });
      const rows = (await b.j.count('runners'));
      const again = await r.register({ name: 'lab-2b', problemTypes: ['standard-io@1', 'output-only@1'], tags: ['cpu', 'big'], version: '0.2.0' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ runnerId: r.id, fingerprint: r.fingerprint, state: 'approved' });
      expect((await b.j.count('runners'))).toBe(rows);
      expect(await b.view(r)).toMatchObject({
        id: r.id,
        name: 'lab-2b',
        state: 'approved',
        problemTypes: ['standard-io@1', 'output-only@1'],
        tags: ['gpu'],
        version: '0.2.0',
      });
    });

    it('refuses a key that is not base64 (422 runner.key.malformed) and changes nothing', async () => {
      const r = new Runner(b.j.url, 'bad', ['standard-io@1']);
      for (const publicKey of ['not base64!', 'abc', `${b64(randomBytes(32))}#`]) {
        const res = await b.refused(() => r.register({ publicKey }), 422, 'runner.key.malformed');
        expect(res.body.errors).toHaveProperty('publicKey');
      }
    });

    it('refuses a key that is not 32 bytes (422 runner.key.length) and changes nothing', async () => {
      const r = new Runner(b.j.url, 'bad', ['standard-io@1']);
      for (const n of [31, 33, 64]) await b.refused(() => r.register({ publicKey: b64(randomBytes(n)) }), 422, 'runner.key.length');
    });

    it('refuses a revoked key (409 runner.revoked) and changes nothing', async () => {
      const r = await b.runner(['standard-io@1'], { approve: false });
      await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: {} });
      await b.refused(() => r.register({ name: 'back again' }), 409, 'runner.revoked');
      expect((await b.view(r)).name).toBe(r.name);
    });

    it('refuses malformed registrations (422 validation_failed) and changes nothing', async () => {
      const r = new Runner(b.j.url, 'bad', ['standard-io@1']);
      const bodies: Record<string, unknown>[] = [
        { problemTypes: undefined },
        { problemTypes: [] },
        { problemTypes: ['Standard IO'] },
        { problemTypes: ['standard-io'] },
        { problemTypes: 'standard-io@1' },
        { name: '' },
        { name: 'x'.repeat(101) },
        { publicKey: undefined },
        { tags: ['no spaces allowed'] },
        { version: 7 },
      ];
      for (const over of bodies) {
        const res = await b.refused(() => r.register(over), 422, 'validation_failed');
        expect(Object.keys(res.body.errors ?? {}).length).toBeGreaterThan(0);
      }
      await b.refused(() => r.post('/runner/register', '{"name":', null), 400, 'request.malformed');
    });
  });

  describe('challenge', () => {
    it('answers a single-use nonce: base64 of 32 random bytes, valid 2 minutes', async () => {
      const r = await b.runner(['standard-io@1'], { approve: false });
      const one = await r.challenge();
      const two = await r.challenge();
      expect(Buffer.from(one.nonce, 'base64')).toHaveLength(32);
      expect(b64(Buffer.from(one.nonce, 'base64'))).toBe(one.nonce);
      expect(one.expiresAt).toBe(plus(b.clock.now(), 120));
      expect(two.nonce).not.toBe(one.nonce);
    });

    it('an unknown fingerprint is 404, a malformed one 422', async () => {
      const r = new Runner(b.j.url, 'never registered', ['standard-io@1']);
      await b.refused(() => r.post('/runner/auth/challenge', { fingerprint: r.fingerprint }, null), 404, 'not_found');
      for (const fingerprint of ['abc', r.fingerprint.toUpperCase(), 42]) {
        await b.refused(() => r.post('/runner/auth/challenge', { fingerprint }, null), 422, 'validation_failed');
      }
    });
  });

  describe('token', () => {
    let r: Runner;
    beforeAll(async () => {
      r = await b.runner(['standard-io@1']);
    });

    it('an approved runner gets a 12-hour token, stored only as its SHA-256', async () => {
      const { nonce } = await r.challenge();
      const res = await r.exchange(nonce, r.sign(nonce));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{16,128}$/), expiresAt: plus(b.clock.now(), 12 * HOUR) });
      const hashes = ((await b.j.query('SELECT hash FROM runner_tokens WHERE runner_id = ?', r.id)) as { hash: string }[]).map((h) => h.hash);
      expect(hashes).toContain(sha256(res.body.token));
      expect(hashes).not.toContain(res.body.token);
      expect((await r.post('/runner/heartbeat', undefined, res.body.token)).status).toBe(204);
    });

    it('an unknown nonce is 403 runner.nonce.unknown; a spent one too, even when the attempt that spent it failed', async () => {
      await b.refused(() => r.exchange(b64(randomBytes(32)), r.sign('whatever')), 403, 'runner.nonce.unknown');
      // spent by a success
      const first = await r.challenge();
      expect((await r.exchange(first.nonce, r.sign(first.nonce))).status).toBe(200);
      await b.refused(() => r.exchange(first.nonce, r.sign(first.nonce)), 403, 'runner.nonce.unknown');
      // spent by a failure
      const second = await r.challenge();
      await b.refused(() => r.exchange(second.nonce, b64(randomBytes(64))), 403, 'runner.signature');
      await b.refused(() => r.exchange(second.nonce, r.sign(second.nonce)), 403, 'runner.nonce.unknown');
    });

    it('a nonce older than 2 minutes is 403 runner.nonce.expired', async () => {
      const fresh = await r.challenge();
      b.clock.advance(119);
      expect((await r.exchange(fresh.nonce, r.sign(fresh.nonce))).status).toBe(200);
      const stale = await r.challenge();
      b.clock.advance(121);
      await b.refused(() => r.exchange(stale.nonce, r.sign(stale.nonce)), 403, 'runner.nonce.expired');
    });

    it('a nonce issued to another key is 403 runner.nonce.mismatch', async () => {
      const other = await b.runner(['standard-io@1']);
      const { nonce } = await r.challenge();
      await b.refused(() => other.exchange(nonce, other.sign(nonce)), 403, 'runner.nonce.mismatch');
    });

    it('a signature that does not verify is 403 runner.signature', async () => {
      const stranger = nacl.sign.keyPair();
      const cases: ((nonce: string) => string)[] = [
        (nonce) => r.sign(nonce, stranger.secretKey), // another key
        (nonce) => b64(nacl.sign.detached(Buffer.from(nonce, 'base64'), r.keys.secretKey)), // the decoded bytes, not the string
        (nonce) => r.sign(`${nonce}x`), // another message
        () => 'not base64!', // not even base64
        (nonce) => b64(nacl.sign.detached(Buffer.from(nonce, 'utf8'), r.keys.secretKey).subarray(0, 63)), // 63 bytes
      ];
      for (const signature of cases) {
        const { nonce } = await r.challenge();
        await b.refused(() => r.exchange(nonce, signature(nonce)), 403, 'runner.signature');
      }
    });

    it('a runner waiting for approval is 403 runner.notApproved, but only once its signature verifies', async () => {
      const pending = await b.runner(['standard-io@1'], { approve: false });
      let c = await pending.challenge();
      await b.refused(() => pending.exchange(c.nonce, b64(randomBytes(64))), 403, 'runner.signature');
      c = await pending.challenge();
      await b.refused(() => pending.exchange(c.nonce, pending.sign(c.nonce)), 403, 'runner.notApproved');
    });

    it('a runner deleted after its challenge is 404', async () => {
      const gone = await b.runner(['standard-io@1']);
      const { nonce } = await gone.challenge();
      await b.admin.call(ops.revokeRunner, { params: { id: gone.id }, body: {} });
      await b.admin.call(ops.deleteRunner, { params: { id: gone.id } });
      await b.refused(() => gone.exchange(nonce, gone.sign(nonce)), 404, 'not_found');
    });

    it('refuses malformed token requests (422)', async () => {
      const { nonce } = await r.challenge();
      await b.refused(() => r.post('/runner/auth/token', { fingerprint: r.fingerprint, nonce }, null), 422, 'validation_failed');
      await b.refused(() => r.post('/runner/auth/token', { fingerprint: 'xyz', nonce, signature: r.sign(nonce) }, null), 422, 'validation_failed');
    });
  });

  describe('runner-authenticated calls', () => {
    it('need a runner token: none, garbage and unknown tokens are 401', async () => {
      const r = await b.runner(['standard-io@1']);
      await b.refused(() => r.post('/runner/heartbeat', undefined, null), 401, 'unauthenticated');
      await b.refused(() => r.post('/runner/heartbeat', undefined, 'garbage'), 401, 'unauthenticated');
      await b.refused(() => r.post('/runner/heartbeat', undefined, randomBytes(32).toString('base64url')), 401, 'unauthenticated');
      const basic = await raw(`${b.j.url}/api/v1/runner/heartbeat`, { method: 'POST', headers: { authorization: `Basic ${r.token}` } });
      expect({ status: basic.status, code: basic.body?.code }).toEqual({ status: 401, code: 'unauthenticated' });
      await b.refused(() => r.post('/runner/jobs/claim', {}, null), 401, 'unauthenticated');
    });

    it('a user bearer token is not a runner token, and a runner token is not a user token', async () => {
      const r = await b.runner(['standard-io@1']);
      await b.refused(() => r.post('/runner/heartbeat', undefined, b.pupil.c.accessToken), 401, 'unauthenticated');
      await b.refused(() => r.post('/runner/jobs/claim', {}, b.admin.accessToken), 401, 'unauthenticated');
      for (const path of ['/account', '/runners', `/runners/${r.id}`]) {
        await b.refused(() => r.send('GET', path), 401, 'unauthenticated');
      }
    });

    it('a token lasts 12 hours (401 afterwards); a new handshake gives a new one', async () => {
      const r = await b.runner(['standard-io@1']);
      b.clock.advance(12 * HOUR - 1);
      expect((await r.post('/runner/heartbeat')).status).toBe(204);
      b.clock.advance(1);
      await b.refused(() => r.post('/runner/heartbeat'), 401, 'unauthenticated');
      await r.authenticate();
      expect((await r.post('/runner/heartbeat')).status).toBe(204);
      // the administrator's hour-long access token lapsed too
      await b.admin.login('admin', ADMIN_PASSWORD);
    });

    it('a revoked runner: its token dies (401) and no new one is issued (403 runner.notApproved)', async () => {
      const r = await b.runner(['standard-io@1']);
      await b.admin.call(ops.revokeRunner, { params: { id: r.id }, body: { reason: 'retired' } });
      expect((await b.j.query('SELECT count(*) AS n FROM runner_tokens WHERE runner_id = ?', r.id))[0]).toEqual({ n: 0 });
      await b.refused(() => r.post('/runner/heartbeat'), 401, 'unauthenticated');
      const { nonce } = await r.challenge();
      await b.refused(() => r.exchange(nonce, r.sign(nonce)), 403, 'runner.notApproved');
    });

    it('every call re-reads the runner: a live token of a runner that is no longer approved is 403 runner.notApproved', async () => {
      // revoking deletes the tokens in the same transaction; this is the check behind it, reached by
      // changing the state alone, as a revocation committed between two calls would look to the second
      const r = await b.runner(['standard-io@1']);
      await b.j.app.deps.tx.write((q) => q.update(runners).set({ state: 'revoked' }).where(eq(runners.id, r.id)));
      await b.refused(() => r.post('/runner/heartbeat'), 403, 'runner.notApproved');
      await b.refused(() => r.claim({}), 403, 'runner.notApproved');
    });
  });

  describe('heartbeat', () => {
    it('answers 204 and notes lastSeenAt; a runner not seen for 2 minutes is not connected', async () => {
      const r = await b.runner(['standard-io@1']);
      b.clock.advance(30);
      const res = await r.post('/runner/heartbeat');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const seen = b.clock.now().toISOString();
      expect(await b.view(r)).toMatchObject({ lastSeenAt: seen, isConnected: true });
      b.clock.advance(3 * 60);
      expect(await b.view(r)).toMatchObject({ lastSeenAt: seen, isConnected: false });
      expect((await r.post('/runner/heartbeat')).status).toBe(204);
      expect(await b.view(r)).toMatchObject({ lastSeenAt: b.clock.now().toISOString(), isConnected: true });
    });
  });
});

describe('runners: the handshake is rate limited per address', () => {
  it('300 registrations, challenges and token requests a minute from one address, then 429 with Retry-After', async () => {
    const b = await Bench.start();
    try {
      const challenge = () =>
        raw(`${b.j.url}/api/v1/runner/auth/challenge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fingerprint: '0'.repeat(64) }) });
      for (let i = 0; i < 300; i += 50) {
        const batch = await Promise.all(Array.from({ length: 50 }, challenge));
        expect(batch.map((r) => r.status)).toEqual(Array(50).fill(404));
      }
      const limited = await challenge();
      expect({ status: limited.status, code: limited.body.code }).toEqual({ status: 429, code: 'rate_limited' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const before = (await b.j.count('runners'));
      const r = new Runner(b.j.url, 'late', ['standard-io@1']);
      expect((await r.register()).status).toBe(429);
      expect((await b.j.count('runners'))).toBe(before);
    } finally {
      await b.stop();
    }
  });
});
