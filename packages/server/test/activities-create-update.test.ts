import { describe, expect, it } from 'vitest';
import { ops, type Activity } from '@judge/contract';
import { UUID_V7, now, uniq, j, admin, refused, refusedRaw, account, create, managed, update, archive, activityRow, M, P, MB, U, SD, world, useActivitiesWorld } from './support/activities.js';

/**
 * The managers' side of activities over real HTTP and a real SQLite file (decisions §5, §7, §14):
 * creating and updating activities, who may do each and who may not, what each refusal leaves
 * untouched. Shared setup in support/activities.ts.
 */

describe('activities: the managers side', () => {
  useActivitiesWorld();

  describe('POST /activities', () => {
    it('creates a published activity with the defaults; the creator manages it (201, Location)', async () => {
      const res = await M.c.send(ops.createActivity, { body: { slug: 'Spring-Cup', name: 'Spring Cup', type: 'contest@1', rankingType: 'icpc', timeZone: 'Europe/Warsaw' } });
      expect(res.status).toBe(201);
      const a = (await res.json()) as Activity;
      expect(res.headers.get('location')).toBe(`/api/v1/manager/activities/${a.id}`);
      expect(a).toEqual({
        id: expect.stringMatching(UUID_V7),
        slug: 'Spring-Cup',
        name: 'Spring Cup',
        type: 'contest@1',
        rankingType: 'icpc',
        timeZone: 'Europe/Warsaw',
        modules: { questions: true, printouts: false, sampleRuns: true },
        documents: [],
        scoreVisibility: 'everyone',
        attachmentVisibility: [],
        joinPolicy: 'closed',
        unlisted: true,
        hideEndedSeriesProblems: false,
        showGroupMembers: false,
        publicScoreboard: false,
        maxUploadBytes: 262144,
        maxAttachments: 1,
        publishedAt: now(),
        seriesCount: 0,
        problemCount: 0,
        participantCount: 0,
        runnerTags: [],
        matchingRunners: 0,
        awardRules: { gold: 4, silver: 4, bronze: 4, extraBronze: 0 },
      });
      expect((await activityRow(a.id))!.slugKey).toBe('spring-cup');
      // the creator holds the built-in manager role in it, and nothing in it is anyone else's
      const held = await admin.call(ops.listGrants, { query: { activityId: a.id } });
      expect(held.items.map((g) => ({ userId: g.userId, roleName: g.roleName }))).toEqual([{ userId: M.u.id, roleName: 'Manager' }]);
      expect(await M.c.call(ops.myPermissions, { query: { activityId: a.id } })).toEqual(expect.arrayContaining(['activity:read', 'activity:update', 'activity:archive']));
      expect(await managed(M.c, 'SPRING-cup')).toEqual(a);
    });

    it('stores every writable member and returns it, instants normalised to UTC', async () => {
      const body = {
        slug: uniq('Full'),
        name: 'Full settings',
        type: 'course@1',
        rankingType: 'points' as const,
        timeZone: 'America/New_York',
        startDate: '2026-12-01T10:00:00+01:00',
        endDate: '2026-12-20',
        modules: { questions: false, printouts: true },
        scoreVisibility: 'managersOnly' as const,
        attachmentVisibility: [{ name: 'log', visibility: 'participant' as const }],
        props: { colour: 'blue', nested: { a: [1, 2] } },
        joinPolicy: 'password' as const,
        unlisted: false,
        joinPassword: 'sesame',
        hideEndedSeriesProblems: true,
        showGroupMembers: true,
        publicScoreboard: true,
        maxUploadBytes: 1024,
        maxAttachments: 3,
        maxSubmissionsPerProblem: 50,
        runnerTags: ['gpu', 'x86', 'gpu'],
      };
      const a = await M.c.call(ops.createActivity, { body });
      expect(a).toMatchObject({ ...body, startDate: '2026-12-01T09:00:00.000Z', endDate: '2026-12-20T00:00:00.000Z', runnerTags: ['gpu', 'x86'] });
      expect(await managed(M.c, a.id)).toEqual(a);
    });

    it('makes a closed activity unlisted whatever the body says', async () => {
      expect(await create(M.c, { joinPolicy: 'closed', unlisted: false })).toMatchObject({ joinPolicy: 'closed', unlisted: true });
      expect(await create(M.c, { joinPolicy: 'open', unlisted: false })).toMatchObject({ joinPolicy: 'open', unlisted: false });
    });

    it('refuses a slug in use in any case (409 activity.slug.taken)', async () => {
      await create(M.c, { slug: 'Taken-Slug' });
      await refused(create(M.c, { slug: 'taken-SLUG' }), 409, 'activity.slug.taken');
      await refused(create(MB.c, { slug: 'Taken-Slug' }), 409, 'activity.slug.taken');
    });

    it('needs activity:create held system-wide: not a plain user, a participant, nor a manager of an activity', async () => {
      const a = await world();
      const appointed = await account('appointed');
      await j.grant(appointed.u.id, 'manager', a.id);
      for (const c of [U.c, P.c, appointed.c]) await refused(create(c), 403, 'forbidden');
      expect((await create(admin)).publishedAt).toBe(now());
      // standing down in one activity narrows nothing system-wide
      expect((await create(SD.c)).slug).toMatch(/^act-/);
    });

    it('refuses malformed bodies with 422 naming the member, and stores nothing', async () => {
      const base = { slug: uniq('bad'), name: 'Bad', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC' };
      const cases: [Record<string, unknown>, string][] = [
        [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
        [{ rankingType: 'elo' }, 'rankingType'],
        [{ name: 5 }, 'name'],
        [{ maxUploadBytes: 'big' }, 'maxUploadBytes'],
        [{ maxAttachments: 0 }, 'maxAttachments'],
        [{ slug: 'bad slug!' }, 'slug'],
        [{ slug: undefined }, 'slug'],
        [{ type: 'contest' }, 'type'],
        [{ startDate: '2026-13-01' }, 'startDate'],
        [{ joinPolicy: 'invite' }, 'joinPolicy'],
        [{ scoreVisibility: 'nobody' }, 'scoreVisibility'],
        [{ props: 'text' }, 'props'],
        [{ modules: { questions: 'yes' } }, 'modules.questions'],
        [{ runnerTags: 'gpu' }, 'runnerTags'],
        [{ startDate: '2026-12-02T00:00:00Z', endDate: '2026-12-01T00:00:00Z' }, 'endDate'],
        [{ joinPolicy: 'password' }, 'joinPassword'],
      ];
      for (const [change, field] of cases) {
        const body = await refusedRaw(M.c, 'POST', '/activities', { ...base, ...change }, 422, 'validation_failed');
        expect(Object.keys(body.errors ?? {})).toContain(field);
      }
      await refusedRaw(M.c, 'POST', '/activities', '{"slug": ', 400, 'request.malformed');
    });
  });

  describe('PUT /activities/{idOrSlug}', () => {
    it('merges: an absent member keeps its value, null clears it, modules merge member by member', async () => {
      const a = await create(M.c, {
        slug: uniq('Mixed-Case'),
        startDate: '2026-12-01T00:00:00Z',
        endDate: '2026-12-31T00:00:00Z',
        props: { a: 1 },
        joinPolicy: 'password',
        joinPassword: 'pw-1',
        maxSubmissionsPerProblem: 5,
        modules: { questions: true, printouts: true },
        runnerTags: ['x'],
      });
      // renaming alone changes nothing else
      const renamed = await update(M.c, { id: a.slug.toLowerCase(), slug: a.slug.toUpperCase() }, { name: 'Renamed' });
      expect(renamed).toEqual({ ...a, name: 'Renamed' });

      const b = await update(M.c, a, { startDate: null, props: null, maxSubmissionsPerProblem: null, modules: { questions: false }, joinPolicy: 'open', joinPassword: null });
      expect(b).toEqual({
        ...a,
        name: 'Renamed',
        startDate: undefined,
        props: undefined,
        maxSubmissionsPerProblem: undefined,
        joinPassword: undefined,
        joinPolicy: 'open',
        modules: { questions: false, printouts: true, sampleRuns: true },
      });
      expect(b.endDate).toBe('2026-12-31T00:00:00.000Z');
      expect(await managed(M.c, a.id)).toEqual(b);

      // closing forces unlisted; the password policy needs a password to stay
      const listed = await update(M.c, a, { unlisted: false });
      expect(listed.unlisted).toBe(false);
      expect(await update(M.c, a, { joinPolicy: 'closed' })).toMatchObject({ joinPolicy: 'closed', unlisted: true });
      const body = await refusedRaw(M.c, 'PUT', `/activities/${a.id}`, { slug: a.slug, joinPolicy: 'password' }, 422, 'validation_failed');
      expect(Object.keys(body.errors!)).toEqual(['joinPassword']);
      expect(await update(M.c, a, { joinPolicy: 'password', joinPassword: 'pw-2' })).toMatchObject({ joinPolicy: 'password', joinPassword: 'pw-2' });
    });

    it('refuses another slug (409 activity.slug.immutable), whatever its case', async () => {
      const a = await create(M.c);
      await refused(update(M.c, { id: a.id, slug: `${a.slug}-x` }, { name: 'Other' }), 409, 'activity.slug.immutable');
      expect((await update(M.c, { id: a.id, slug: a.slug.toUpperCase() }, { name: 'Same slug' })).slug).toBe(a.slug);
    });

    it('refuses an archived activity (409 activity.archived)', async () => {
      const a = await create(M.c);
      await archive(M.c, a.id, true);
      await refused(update(M.c, a, { name: 'Late' }), 409, 'activity.archived');
    });

    it('needs activity:update there: 403 to who sees it, 404 to who does not', async () => {
      const a = await world();
      await refused(update(P.c, a, { name: 'P' }), 403, 'forbidden');
      await refused(update(SD.c, a, { name: 'SD' }), 403, 'forbidden');
      await refused(update(U.c, a, { name: 'U' }), 404, 'not_found');
      await refused(update(MB.c, a, { name: 'MB' }), 404, 'not_found');
      await refused(update(M.c, { id: 'no-such-activity', slug: 'no-such-activity' }, { name: 'x' }), 404, 'not_found');
      expect((await update(admin, a, { name: 'By admin' })).name).toBe('By admin');
    });

    it('refuses malformed bodies with 422 and changes nothing', async () => {
      const a = await create(M.c);
      const path = `/activities/${a.slug}`;
      for (const [body, field] of [
        [{ slug: a.slug, timeZone: 'Nowhere/Land' }, 'timeZone'],
        [{ slug: a.slug, rankingType: 'elo' }, 'rankingType'],
        [{ slug: a.slug, unlisted: 'no' }, 'unlisted'],
        [{ slug: a.slug, maxSubmissionsPerProblem: 1.5 }, 'maxSubmissionsPerProblem'],
        [{ slug: a.slug, endDate: 'tomorrow' }, 'endDate'],
        [{ name: 'No slug' }, 'slug'],
      ] as const) {
        const res = await refusedRaw(M.c, 'PUT', path, body, 422, 'validation_failed');
        expect(Object.keys(res.errors!)).toContain(field);
      }
    });
  });
});
