import { describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { j, admin, inMinutes, party, activity, series, attach, participantOf, simpleProblem, submitted, listOf, problemOf, seriesIn, useParticipantWorld } from './support/participant.js';

/**
 * The participant's view of series and problems (decisions §7, §9) over real HTTP and a real SQLite
 * file: the series an activity shows, and the caller's standing per problem. Submissions are
 * written straight to the database. Shared world in support/participant.ts.
 */

describe('participant: series and problems', () => {
  useParticipantWorld();

  describe('GET /activities/{idOrSlug}/series', () => {
    it('lists every series in order with the problems of those that opened, and withholds the others', async () => {
      const a = await activity();
      const open = await series(a, { startDate: inMinutes(-60), endDate: inMinutes(600) });
      const later = await series(a, { startDate: inMinutes(60) });
      const secret = await series(a, { startDate: inMinutes(60), revealProblemCount: false });
      const p1 = await simpleProblem();
      const p2 = await simpleProblem();
      const first = await attach(open, p1.problemId, { slug: 'first', name: 'The first' });
      const second = await attach(open, p2.problemId, { slug: 'second' });
      await attach(later, p1.problemId, { slug: 'later-one' });
      await attach(secret, p2.problemId, { slug: 'secret-one' });
      const pupil = await participantOf(a);

      const list = await listOf(pupil.c, a);
      expect(list.map((s) => s.id)).toEqual([open.id, later.id, secret.id]);
      expect(list[0]).toEqual({
        id: open.id,
        slug: open.slug,
        name: 'Week',
        order: 1,
        startDate: open.startDate,
        endDate: open.endDate,
        isOpen: true,
        problemCount: 2,
        problems: [
          { id: first, slug: 'first', name: 'The first', order: 1, status: 'untouched', attempts: 0 },
          { id: second, slug: 'second', name: `Plain ${(await admin.call(ops.getProblem, { params: { id: p2.problemId } })).slug}`, order: 2, status: 'untouched', attempts: 0 },
        ],
      });
      // not opened yet: no problems; their number only where the series reveals it
      expect(list[1]).toEqual({ id: later.id, slug: later.slug, name: 'Week', order: 2, startDate: later.startDate, isOpen: false, problemCount: 1 });
      expect(list[2]).toEqual({ id: secret.id, slug: secret.slug, name: 'Week', order: 3, startDate: secret.startDate, isOpen: false });

      // by id too, and by slug in any case
      expect(await listOf(pupil.c, a.id)).toEqual(list);
      expect(await listOf(pupil.c, a.slug.toUpperCase())).toEqual(list);
    });

    it("shows the caller's own status per problem, computed from their submissions", async () => {
      const a = await activity();
      const s = await series(a, { startDate: inMinutes(-10) });
      const ids: Record<string, string> = {};
      const versions: Record<string, string> = {};
      for (const slug of ['solved', 'partial', 'scaled', 'queued', 'zero', 'excluded', 'untouched', 'noscale']) {
        const p = await simpleProblem();
        versions[slug] = p.versionId;
        ids[slug] = await attach(s, p.problemId, { slug, ...(slug === 'scaled' ? { maxPoints: 20 } : {}) });
      }
      const pupil = await participantOf(a);
      const other = await participantOf(a, 'other');
      const sub = (slug: string, outcome: Parameters<typeof submitted>[5] = {}, who = pupil.u) => submitted(who, a, s, ids[slug]!, versions[slug]!, outcome);

      await sub('solved', { score: 0, maxScore: 100, verdict: 'WA' });
      await sub('solved', { score: 100, maxScore: 100, verdict: 'AC' });
      await sub('partial', { score: 30, maxScore: 100 });
      await sub('partial', { score: 50, maxScore: 100 });
      await sub('partial', { score: 40, maxScore: 100 });
      await sub('scaled', { score: 1, maxScore: 3 }); // round(1 / 3 × 20) = 7
      await sub('queued'); // not judged yet: attempted, no score
      await sub('zero', { score: 0, maxScore: 10 });
      // an excluded submission is an attempt, but its score does not count
      await sub('excluded', { score: 10, maxScore: 10, excluded: true });
      await sub('excluded', { score: 2, maxScore: 10 });
      await sub('noscale', { score: 5 }); // a score without a scale cannot be judged against full marks
      // another participant's submissions are theirs alone
      await sub('untouched', { score: 1, maxScore: 1 }, other.u);
      await sub('queued', { score: 1, maxScore: 1 }, other.u);

      const problems = seriesIn(await listOf(pupil.c, a), s).problems!;
      const bySlug = Object.fromEntries(problems.map(({ slug, status, bestScore, maxScore, attempts }) => [slug, { status, bestScore, maxScore, attempts }]));
      expect(bySlug).toEqual({
        solved: { status: 'solved', bestScore: 100, maxScore: 100, attempts: 2 },
        partial: { status: 'partial', bestScore: 50, maxScore: 100, attempts: 3 },
        scaled: { status: 'partial', bestScore: 7, maxScore: 20, attempts: 1 },
        queued: { status: 'attempted', bestScore: undefined, maxScore: undefined, attempts: 1 },
        zero: { status: 'attempted', bestScore: 0, maxScore: 10, attempts: 1 },
        excluded: { status: 'partial', bestScore: 2, maxScore: 10, attempts: 2 },
        untouched: { status: 'untouched', bestScore: undefined, maxScore: undefined, attempts: 0 },
        noscale: { status: 'attempted', bestScore: undefined, maxScore: undefined, attempts: 1 },
      });
      // the other participant sees their own
      const theirs = seriesIn(await listOf(other.c, a), s).problems!;
      expect(theirs.find((p) => p.slug === 'untouched')).toMatchObject({ status: 'solved', bestScore: 1, maxScore: 1, attempts: 1 });
      expect(theirs.find((p) => p.slug === 'solved')).toMatchObject({ status: 'untouched', attempts: 0 });
      // and the detail agrees with the list
      expect(await problemOf(pupil.c, a, 'scaled')).toMatchObject({ status: 'partial', bestScore: 7, maxScore: 20, attempts: 1, maxPoints: 20 });
      expect(await problemOf(pupil.c, a, 'excluded')).toMatchObject({ status: 'partial', bestScore: 2, maxScore: 10, attempts: 2 });
    });

    it('tells participants when the ranking freezes and is revealed, so their contest clock can say it is frozen', async () => {
      const a = await activity();
      const frozen = await series(a, { startDate: inMinutes(-60), endDate: inMinutes(60), rankingFreezeAt: inMinutes(0), rankingRevealAt: inMinutes(120) });
      const plain = await series(a, { startDate: inMinutes(-60), endDate: inMinutes(60) });
      const pupil = await participantOf(a);
      const list = await listOf(pupil.c, a);
      expect(seriesIn(list, frozen)).toMatchObject({ rankingFreezeAt: frozen.rankingFreezeAt, rankingRevealAt: frozen.rankingRevealAt });
      expect(Date.parse(seriesIn(list, frozen).rankingFreezeAt!)).toBe(Date.parse(frozen.rankingFreezeAt!));
      // a series without a freeze names none
      expect(seriesIn(list, plain)).not.toHaveProperty('rankingFreezeAt');
      expect(seriesIn(list, plain)).not.toHaveProperty('rankingRevealAt');
    });

    it('shows managers the problems of every series, opened or not', async () => {
      const a = await activity();
      const later = await series(a, { startDate: inMinutes(60), revealProblemCount: false });
      const p = await simpleProblem();
      await attach(later, p.problemId, { slug: 'ahead' });
      const manager = await party('mgr');
      await j.grant(manager.u.id, 'manager', a.id);
      const seen = seriesIn(await listOf(manager.c, a), later);
      expect(seen).toMatchObject({ isOpen: false, problemCount: 1, problems: [{ slug: 'ahead', status: 'untouched', attempts: 0 }] });
      expect(await problemOf(manager.c, a, 'ahead')).toMatchObject({ slug: 'ahead', canSubmit: false });
      // the administrator too
      expect(seriesIn(await listOf(admin, a), later).problems).toHaveLength(1);
    });
  });
});
