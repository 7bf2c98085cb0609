import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus, type BusMessage, type DomainEvent } from '../src/events/bus.js';
import { TestJudge, onPostgres } from './harness.js';
import { sleep } from './support/wait.js';

/**
 * Whether anyone would receive an event decides whether writers build its payload (the judging
 * flow's settle does not when nobody listens). A listener that says nothing always listens; the
 * socket hub listens exactly while a socket is open.
 */

describe('EventBus.listening', () => {
  it('follows every listener, each by its own word', () => {
    const bus = new EventBus();
    expect(bus.listening).toBe(false);
    let open = false;
    const got: BusMessage[] = [];
    const offHub = bus.subscribe((m) => got.push(m), () => open);
    expect(bus.listening).toBe(false);
    open = true;
    expect(bus.listening).toBe(true);
    open = false;
    const offPlain = bus.subscribe(() => {});
    expect(bus.listening).toBe(true);
    offPlain();
    expect(bus.listening).toBe(false);
    // a listener that wants nothing now is still told of what is published
    bus.publish([{ kind: 'sessionsEnded', sessionIds: ['s'], reason: 'logout' }]);
    expect(got).toHaveLength(1);
    offHub();
    expect(bus.listening).toBe(false);
  });
});

describe('the socket hub as a listener', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(() => j.stop());

  // on PostgreSQL the event log listens for the sockets of the other servers, always (cluster/node.ts)
  it('listens while a socket is open, and only then (on PostgreSQL always)', async () => {
    const bus = j.app.deps.bus;
    expect(bus.listening).toBe(onPostgres);
    const u = await j.user('listener');
    const c = await j.signIn(u, 'cookie');
    const s = c.events();
    await s.opened;
    expect(bus.listening).toBe(true);
    s.close();
    for (let i = 0; i < 100 && bus.listening !== onPostgres; i++) await sleep(20);
    expect(bus.listening).toBe(onPostgres);
  });

  it('writes an event only when an open socket may receive it, and then once for all of them', async () => {
    const u = await j.user('watcher');
    const streams = [(await j.signIn(u, 'cookie')).events(), (await j.signIn(u, 'cookie')).events()];
    await Promise.all(streams.map((s) => s.opened));
    let written = 0;
    const data = { toJSON: () => (written++, { reason: 'x' }) };
    const publish = (audience: DomainEvent['audience']) =>
      j.app.deps.bus.publish([{ kind: 'event', event: { type: 'instanceChanged', data, audience } as unknown as DomainEvent }]);
    publish({ kind: 'users', userIds: ['nobody-open'] });
    expect(written).toBe(0);
    publish({ kind: 'signedIn' });
    expect(written).toBe(1);
    for (const s of streams) s.close();
  });
});
