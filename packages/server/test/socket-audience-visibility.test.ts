import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops } from '@judge/contract';
import { activities } from '../src/db/schema.js';
import type { EventStream, JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge, type TestUser } from './harness.js';
import { barrier, open } from './support/socket.js';

/**
 * The socket tells a session exactly what REST would show it: an event about
 * an activity reaches a user only while GET /activities/{id} answers them 200, decided when the
 * event is delivered, not when the socket was opened. Staff keep hearing everything.
 */

type Who = 'admin' | 'manager' | 'member' | 'outsider' | 'latecomer';
const WHO: Who[] = ['admin', 'manager', 'member', 'outsider', 'latecomer'];

describe('socket audience equals REST visibility', () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let A: string;
  const users = {} as Record<Who, TestUser>;
  const clients = {} as Record<Who, JudgeClient>;
  const streams = {} as Record<Who, EventStream>;
  let memberGrant: string;

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    A = await j.insertActivity('closed-course', 'Closed course'); // published, closed to joining
    for (const who of WHO.slice(1)) users[who] = await j.user(`aud-${who}`);
    await j.grant(users.manager.id, 'manager', A);
    memberGrant = (await j.grant(users.member.id, 'participant', A)).id;
    clients.admin = await j.signIn({ username: 'admin', password: ADMIN_PASSWORD }, 'cookie');
    for (const who of WHO.slice(1)) clients[who] = await j.signIn(users[who], 'cookie');
    for (const who of WHO) streams[who] = await open(clients[who]);
    await barrier(admin, WHO.map((w) => streams[w]));
  });
  afterAll(async () => {
    for (const who of WHO) streams[who]?.close();
    await j.stop();
  });

  /** Who heard `type` since the last barrier. */
  async function heard(type: string): Promise<Who[]> {
    const got = await barrier(admin, WHO.map((w) => streams[w]));
    return WHO.filter((_, i) => got[i]!.some((f) => f.type === type));
  }

  /** Who REST lets read the activity right now. */
  async function restSees(): Promise<Who[]> {
    const out: Who[] = [];
    for (const who of WHO) {
      const r = await clients[who].call(ops.getActivity, { params: { idOrSlug: A } }).then(
        () => true,
        (e: { status?: number }) => {
          expect(e.status).toBe(404);
          return false;
        },
      );
      if (r) out.push(who);
    }
    return out;
  }

  const announce = (topic: string) => clients.manager.call(ops.createAnnouncement, { params: { idOrSlug: A }, body: { topic, body: 'Read problem B again.' } });
  const setPublished = (published: boolean) => j.app.deps.tx.write((q) => q.update(activities).set({ publishedAt: published ? new Date().toISOString() : null }).where(eq(activities.id, A)));

  it('tells a published activity’s members and staff, and nobody else', async () => {
    await announce('published');
    expect(await heard('announcementPublished')).toEqual(['admin', 'manager', 'member']);
    expect(await restSees()).toEqual(['admin', 'manager', 'member']);
  });

  it('tells nothing of an unpublished activity to its participants, which REST hides from them; staff still hear', async () => {
    await setPublished(false);
    try {
      await announce('unpublished');
      expect(await restSees()).toEqual(['admin', 'manager']);
      expect(await heard('announcementPublished')).toEqual(['admin', 'manager']);
    } finally {
      await setPublished(true);
    }
  });

  it('stops telling a removed member, even of their own question, and starts telling a member added later', async () => {
    const asked = await clients.member.call(ops.askQuestion, { params: { idOrSlug: A }, body: { topic: 'Mine', body: 'Is the input sorted?' } });
    await heard('questionAsked');
    await admin.call(ops.deleteGrant, { params: { id: memberGrant } });
    await j.grant(users.latecomer.id, 'participant', A);
    await heard('grantChanged');

    await announce('after the change');
    expect(await restSees()).toEqual(['admin', 'manager', 'latecomer']);
    expect(await heard('announcementPublished')).toEqual(['admin', 'manager', 'latecomer']);

    // the answer to a question the removed member asked is told to its author alone, and REST now
    // hides the activity from them: nobody hears it
    await clients.manager.call(ops.answerQuestion, { params: { id: asked.id }, body: { body: 'Yes.' } });
    expect(await heard('questionAnswered')).toEqual([]);
  });
});
