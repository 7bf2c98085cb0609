import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { EventStream, JudgeClient } from '@judge/sdk';
import type { DomainEvent } from '../src/events/bus.js';
import { TestJudge, type TestUser } from './harness.js';
import { barrier, handshake, open } from './support/socket.js';

/**
 * The hub dispatches events one after another in the order they were published, though deciding
 * some of them needs a read first (the activity an event is about, the permissions after a change):
 * an event that needs none never overtakes one that waits. And the permissions it holds for a
 * connected user are read again before the first event published after a change committed.
 */

const event = (type: string, data: object, audience: DomainEvent['audience']) => ({ kind: 'event' as const, event: { type, data, audience } as unknown as DomainEvent });

describe('the order of dispatch', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let A: string;
  let manager: TestUser;
  let managerGrant: string;
  let member: EventStream;
  let managing: EventStream;

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    A = await j.insertActivity('ordered', 'Ordered'); // published, closed to joining
    const participant = await j.user('order-member');
    manager = await j.user('order-manager');
    await j.grant(participant.id, 'participant', A);
    managerGrant = (await j.grant(manager.id, 'manager', A)).id;
    member = await open(await j.signIn(participant, 'cookie'));
    managing = await open(await j.signIn(manager, 'cookie'));
    await barrier(admin, [member, managing]);
  });
  afterAll(async () => {
    member?.close();
    managing?.close();
    await j.stop();
  });

  /** The raw frames' types a stream receives from now on. */
  function record(s: EventStream): string[] {
    const types: string[] = [];
    s.socket.on('message', (raw) => types.push((JSON.parse(raw.toString()) as { type: string }).type));
    return types;
  }

  it('keeps publish order when the first event waits for its activity to be read and the next needs nothing read', async () => {
    const types = record(member);
    j.app.deps.bus.publish([
      event('orderFirst', { activityId: A }, { kind: 'signedIn' }),
      event('orderSecond', {}, { kind: 'signedIn' }),
      event('orderThird', { activityId: A }, { kind: 'permission', key: 'activity:read', activityId: A }),
      event('orderFourth', {}, { kind: 'users', userIds: [] }),
      event('orderFifth', {}, { kind: 'signedIn' }),
    ]);
    await barrier(admin, [member, managing]);
    expect(types.filter((t) => t.startsWith('order'))).toEqual(['orderFirst', 'orderSecond', 'orderThird', 'orderFifth']);
  });

  it('applies a revocation committed before an event was published to it, though the event needs nothing else read', async () => {
    const types = record(managing);
    const staffOnly = { kind: 'permission', key: 'activity:update', activityId: A } as const;
    j.app.deps.bus.publish([event('staffBefore', {}, staffOnly)]);
    await admin.call(ops.deleteGrant, { params: { id: managerGrant } });
    j.app.deps.bus.publish([event('staffAfter', {}, staffOnly)]);
    await barrier(admin, [member, managing]);
    expect(types.filter((t) => t.startsWith('staff'))).toEqual(['staffBefore']);
    // and a grant given again is heard from the next event on
    await j.grant(manager.id, 'manager', A);
    j.app.deps.bus.publish([event('staffAgain', {}, staffOnly)]);
    await barrier(admin, [member, managing]);
    expect(types.filter((t) => t.startsWith('staff'))).toEqual(['staffBefore', 'staffAgain']);
  });

  it('does not open a socket whose session ended while its permissions were being read', async () => {
    const u = await j.user('order-leaving');
    const cookie = (await j.signIn(u, 'cookie')).cookie!;
    const perms = j.app.deps.permissions;
    const original = perms.of.bind(perms);
    let reached!: () => void;
    const asked = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    perms.of = async (userId, q) => {
      if (userId === u.id) {
        reached();
        await gate;
      }
      return original(userId, q);
    };
    try {
      const opening = handshake(j, { cookie: `judge_session=${cookie}`, origin: new URL(j.url).origin });
      await asked;
      await j.app.deps.tx.write((q, out) => j.app.deps.sessions.endAllOfUser(q, u.id, 'logout', new Date(), out));
      // on PostgreSQL the end reaches this server's hub through the event log, a moment after the commit
      await j.delivered();
      release();
      expect(await opening).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    } finally {
      perms.of = original;
    }
  });
});
