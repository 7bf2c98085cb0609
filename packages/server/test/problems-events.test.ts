import { describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { admin, cookieAccount, create, share, statementVersion, useProblemLibrary } from './support/problems.js';

/**
 * The problem library over real HTTP and a real SQLite file: the problemChanged events and their
 * audience. Versions and packages have their own file (packages.test.ts); shared setup in
 * support/problems.ts.
 */

describe('problems', () => {
  useProblemLibrary();

  describe('problemChanged', () => {
    it('goes to the owner, the users it is shared with and readers of all problems, and to nobody else', async () => {
      const owner = await cookieAccount('ev-owner', 'manager');
      const friend = await cookieAccount('ev-friend', 'manager');
      const reader = await cookieAccount('ev-reader', 'Librarian');
      const outsider = await cookieAccount('ev-outsider', 'manager');
      const streams = [owner, friend, reader, outsider].map((a) => a.c.events());
      const [toOwner, toFriend, toReader, toOutsider] = streams;
      try {
        await Promise.all(streams.map((s) => s.opened));
        const p = await create(owner.c);
        for (const s of [toOwner!, toReader!]) expect((await s.next('problemChanged')).data).toEqual({ problem: p });

        await share(owner.c, p.id, 'shared', [friend.u.id]);
        for (const s of [toOwner!, toReader!, toFriend!]) expect((await s.next('problemChanged')).data).toMatchObject({ problem: { id: p.id, sharedWith: [friend.u.id] } });

        await owner.c.call(ops.updateProblem, { params: { id: p.id }, body: { slug: p.slug, name: 'Renamed', type: p.type } });
        for (const s of [toOwner!, toReader!, toFriend!]) expect((await s.next('problemChanged')).data).toMatchObject({ problem: { id: p.id, name: 'Renamed' } });

        await owner.c.call(ops.setProblemArchived, { params: { id: p.id }, body: { archived: true } });
        for (const s of [toOwner!, toReader!, toFriend!]) expect((await s.next('problemChanged')).data).toMatchObject({ problem: { id: p.id, archivedAt: expect.any(String) } });
        await owner.c.call(ops.setProblemArchived, { params: { id: p.id }, body: { archived: false } });
        for (const s of [toOwner!, toReader!, toFriend!]) await s.next('problemChanged');

        await statementVersion(owner.c, p.id);
        for (const s of [toOwner!, toReader!, toFriend!]) expect((await s.next('problemChanged')).data).toMatchObject({ problem: { id: p.id, currentVersion: 1 } });

        const copy = await friend.c.call(ops.duplicateProblem, { params: { id: p.id } });
        for (const s of [toFriend!, toReader!]) expect((await s.next('problemChanged')).data).toEqual({ problem: copy });

        await admin.call(ops.deleteProblem, { params: { id: copy.id } });
        for (const s of [toFriend!, toReader!]) expect((await s.next('problemChanged')).data).toEqual({ deletedId: copy.id });

        // the outsider's first problemChanged is about its own problem: it heard nothing before
        const own = await create(outsider.c);
        expect((await toOutsider!.next('problemChanged')).data).toEqual({ problem: own });
        // nor did the owner hear of the friend's copy
        const more = await create(owner.c);
        expect((await toOwner!.next('problemChanged')).data).toEqual({ problem: more });
      } finally {
        for (const s of streams) s.close();
      }
    });
  });
});
