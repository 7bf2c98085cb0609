import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, TestJudge } from './harness.js';
import { open, barrier, types } from './support/socket.js';

/**
 * The event socket's liveness over real WebSockets (decisions §12): heartbeats, lapsed sessions, and
 * sockets that do not drain. Shared helpers in support/socket.ts.
 */

describe('the event socket heartbeat', () => {
  let j: TestJudge;
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    j = await TestJudge.start({ config: { socket: { pingSeconds: 0.2 } }, clock });
  });
  afterAll(() => j.stop());

  it('sends {type:"ping",data:{}} every socket.pingSeconds', async () => {
    const c = await j.signIn(await j.user('pinged'), 'cookie');
    const raw: string[] = [];
    const s = c.events();
    s.socket.on('message', (m) => raw.push(m.toString()));
    await s.opened;
    const t0 = Date.now();
    expect(await s.next('ping', 2000)).toEqual({ type: 'ping', data: {} });
    expect(await s.next('ping', 2000)).toEqual({ type: 'ping', data: {} });
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(raw[0]).toBe('{"type":"ping","data":{}}');
    s.close();
  });

  it('ends the sockets of a session that lapsed while they stayed open', async () => {
    const c = await j.signIn(await j.user('lapsing'), 'cookie');
    const s = await open(c);
    await s.next('ping', 2000);
    clock.advance(15 * 86_400); // past the 14-day cookie
    expect((await s.next('sessionExpired', 2000)).data).toEqual({ reason: 'expired' });
    expect((await s.closed).code).toBe(4001);
  });
});

describe('a socket that does not drain', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start({ config: { socket: { maxBufferedBytes: 64 * 1024 } } });
  });
  afterAll(() => j.stop());

  it('is dropped once its send buffer passes socket.maxBufferedBytes; others are not', async () => {
    const flooded = await j.user('flooded');
    const calm = await j.user('calm');
    const s = await open(await j.signIn(flooded, 'cookie'));
    const other = await open(await j.signIn(calm, 'cookie'));
    expect(j.app.hub.socketCount).toBe(2);
    // 16 MiB to one user in one synchronous burst: the peer cannot read meanwhile, so the buffer grows
    const big = 'x'.repeat(64 * 1024);
    const messages = Array.from({ length: 256 }, () => ({
      kind: 'event' as const,
      event: { type: 'instanceChanged' as const, data: { instance: { name: big } } as never, audience: { kind: 'users' as const, userIds: [flooded.id] } },
    }));
    j.app.deps.bus.publish(messages);
    expect((await s.closed).code).toBe(1006); // terminated, no close handshake
    expect(j.app.hub.socketCount).toBe(1);
    // the calm socket still works
    const admin = await j.admin();
    const [before] = await barrier(admin, [other]);
    expect(types(before!)).toEqual([]);
    other.close();
  });
});
