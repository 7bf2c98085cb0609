import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops, type Activity, type OperationInput } from '@judge/contract';
import type { ApiProblem, EventStream, Frame, JudgeClient } from '@judge/sdk';
import { activities, activityDocuments, grants, problemVersions, problems, roles, series, seriesProblems, submissions } from '../src/db/schema.js';
import { refusedWith, sendJson } from './expect.js';
import { ADMIN_PASSWORD, ManualClock, TestJudge, type TestUser } from './harness.js';

/**
 * The managers' side of activities over real HTTP and a real SQLite file: create, update, publish,
 * archive, delete, duplicate, documents and the manager views (CONTRACT §5, §7, §14), who may do
 * each and who may not, what each refusal leaves untouched, and which events reach whom.
 */

type CreateBody = OperationInput<typeof ops.createActivity>['body'];
type Party = { u: TestUser; c: JudgeClient };

const T0 = '2026-11-22T08:00:00.000Z';
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_UUID = '0190f5d2-6c3a-7b4e-8f00-000000000000';
const clock = new ManualClock(new Date(T0));
const now = () => clock.now().toISOString();

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;

let j: TestJudge;
let admin: JudgeClient;
let participantRoleId: string;

/** Every row an activity operation may touch, so a refusal is shown to change nothing at all. */
const TABLES = ['activities', 'grants', 'roles', 'series', 'series_problems', 'activity_documents', 'files'];
const snapshot = () => JSON.stringify(TABLES.map((t) => j.app.deps.sqlite.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()));

/** The call must fail with this status and code and leave every activity table as it was. */
async function refused(call: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
  const before = snapshot();
  const e = await refusedWith(call, status, code);
  expect(snapshot()).toBe(before);
  return e;
}

/** A raw request that must be refused with 4xx problem+json and change nothing. */
async function refusedRaw(c: JudgeClient, method: string, path: string, body: unknown, status: number, code: string) {
  const before = snapshot();
  const res = await sendJson(j.url, method, path, c.accessToken, body);
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(snapshot()).toBe(before);
  return res.body as { errors?: Record<string, string[]> };
}

async function account(prefix: string, opts: { creator?: boolean; how?: 'bearer' | 'cookie' } = {}): Promise<Party> {
  const u = await j.user(uniq(prefix));
  if (opts.creator) await j.grant(u.id, 'Creator');
  return { u, c: await j.signIn(u, opts.how ?? 'bearer') };
}

const create = (c: JudgeClient, body: Partial<CreateBody> = {}): Promise<Activity> =>
  c.call(ops.createActivity, { body: { slug: uniq('act'), name: 'An activity', type: 'contest@1', rankingType: 'icpc', timeZone: 'Europe/Warsaw', ...body } });

const managed = (c: JudgeClient, idOrSlug: string) => c.call(ops.getManagedActivity, { params: { idOrSlug } });
const update = (c: JudgeClient, a: { slug: string; id?: string }, body: Record<string, unknown>) =>
  c.call(ops.updateActivity, { params: { idOrSlug: a.id ?? a.slug }, body: { slug: a.slug, ...body } as never });
const publish = (c: JudgeClient, id: string, published: boolean) => c.call(ops.setActivityPublished, { params: { id }, body: { published } });
const archive = (c: JudgeClient, idOrSlug: string, archived: boolean) => c.call(ops.setActivityArchived, { params: { idOrSlug }, body: { archived } });
const activityRow = (id: string) => j.app.deps.db.select().from(activities).where(eq(activities.id, id)).get();

// ---- rows the series and problems areas would write: inserted directly, this file tests activities ----

function addSeries(activityId: string, fields: Partial<typeof series.$inferInsert> = {}): string {
  const id = randomUUID();
  const slug = uniq('s');
  j.app.deps.db.insert(series).values({ id, activityId, slug, slugKey: slug, name: `Series ${slug}`, order: seq, createdAt: T0, ...fields }).run();
  return id;
}

function addProblem(): { problemId: string; versionId: string } {
  const problemId = randomUUID();
  const versionId = randomUUID();
  const slug = uniq('p');
  j.app.deps.db.insert(problems).values({ id: problemId, slug, slugKey: slug, name: `Problem ${slug}`, type: 'standard-io@1', createdAt: T0 }).run();
  j.app.deps.db.insert(problemVersions).values({ id: versionId, problemId, version: 1, createdAt: T0 }).run();
  return { problemId, versionId };
}

function assign(activityId: string, seriesId: string, fields: Partial<typeof seriesProblems.$inferInsert> = {}) {
  const p = addProblem();
  const id = randomUUID();
  const slug = uniq('task');
  j.app.deps.db
    .insert(seriesProblems)
    .values({ id, seriesId, activityId, problemId: p.problemId, slug, slugKey: slug, order: seq, createdAt: T0, ...fields })
    .run();
  return { id, ...p };
}

/** There is no submission API yet (the judging issue brings it): a row written straight to the database. */
function addSubmission(activityId: string, userId: string): void {
  const s = addSeries(activityId);
  const a = assign(activityId, s);
  j.app.deps.db
    .insert(submissions)
    .values({ id: randomUUID(), activityId, seriesId: s, seriesProblemId: a.id, problemVersionId: a.versionId, userId, submittedAt: now() })
    .run();
}

describe('activities: the managers side', () => {
  /** M manages activities it creates; P takes part in them; MB manages its own; U is signed in only. */
  let M: Party, P: Party, MB: Party, U: Party;
  /** An administrator who stood down (overrideSystem) as a participant in the activities of `standDown`. */
  let SD: Party;

  const standDown = (activityId: string) =>
    SD.c.call(ops.createGrant, { body: { userId: SD.u.id, roleId: participantRoleId, activityId, overrideSystem: true } });

  /** A fresh closed activity of M with P enrolled and SD stood down in it. */
  async function world(body: Partial<CreateBody> = {}): Promise<Activity> {
    const a = await create(M.c, body);
    await j.grant(P.u.id, 'participant', a.id);
    await standDown(a.id);
    return a;
  }

  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    admin = await j.admin();
    await admin.call(ops.createRole, { body: { name: 'Creator', permissions: ['activity:create'] } });
    participantRoleId = (await admin.call(ops.listRoles, { query: {} })).find((r) => r.builtInKey === 'participant')!.id;
    [M, P, MB, U] = await Promise.all([account('manager', { creator: true }), account('participant'), account('manager-b', { creator: true }), account('user')]);
    SD = await account('stood-down');
    await j.grant(SD.u.id, 'administrator');
  });
  afterAll(() => j.stop());

  // ---------------------------------------------------------------- POST /activities

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
        modules: { questions: true, printouts: false },
        documents: [],
        scoreVisibility: 'everyone',
        attachmentVisibility: [],
        joinPolicy: 'closed',
        unlisted: true,
        hideEndedSeriesProblems: false,
        showGroupMembers: false,
        maxUploadBytes: 262144,
        maxAttachments: 1,
        publishedAt: now(),
        seriesCount: 0,
        problemCount: 0,
        participantCount: 0,
        runnerTags: [],
        matchingRunners: 0,
      });
      expect(activityRow(a.id)!.slugKey).toBe('spring-cup');
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

  // ---------------------------------------------------------------- PUT /activities/{idOrSlug}

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
        modules: { questions: false, printouts: true },
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

  // ---------------------------------------------------------------- POST /activities/{id}/published

  describe('POST /activities/{id}/published', () => {
    it('opens every due series at once on publishing and closes them on unpublishing; the first publication time is kept', async () => {
      const a = await world();
      const past = '2026-11-01T00:00:00.000Z';
      const future = '2027-01-01T00:00:00.000Z';
      const s = {
        started: addSeries(a.id, { startDate: past }),
        undated: addSeries(a.id),
        upcoming: addSeries(a.id, { startDate: future }),
        ended: addSeries(a.id, { startDate: past, endDate: '2026-11-02T00:00:00.000Z' }),
        paused: addSeries(a.id, { startDate: past, pausedAt: past }),
      };
      const state = () =>
        Object.fromEntries(
          Object.entries(s).map(([k, id]) => {
            const r = j.app.deps.db.select().from(series).where(eq(series.id, id)).get()!;
            return [k, { isOpen: r.isOpen, openedAt: r.openedAt }];
          }),
        );

      clock.advance(60);
      const firstOpen = now();
      const again = await publish(M.c, a.id, true);
      expect(again.publishedAt).toBe(a.publishedAt);
      expect(state()).toEqual({
        started: { isOpen: true, openedAt: firstOpen },
        undated: { isOpen: true, openedAt: firstOpen },
        upcoming: { isOpen: false, openedAt: null },
        ended: { isOpen: false, openedAt: null },
        paused: { isOpen: false, openedAt: null },
      });

      clock.advance(60);
      const hidden = await publish(M.c, a.id, false);
      expect(hidden.publishedAt).toBeUndefined();
      expect(activityRow(a.id)!.publishedAt).toBeNull();
      expect(Object.values(state()).every((x) => !x.isOpen)).toBe(true);
      // participants lose it entirely; its managers keep it
      await refusedWith(P.c.call(ops.getActivity, { params: { idOrSlug: a.id } }), 404, 'not_found');
      expect((await P.c.call(ops.listActivities, { query: {} })).items.map((x) => x.id)).not.toContain(a.id);
      expect((await managed(M.c, a.id)).publishedAt).toBeUndefined();

      clock.advance(60);
      const shown = await publish(M.c, a.id, true);
      expect(shown.publishedAt).toBe(now());
      // reopened, and the first opening is what openedAt remembers
      expect(state()).toMatchObject({ started: { isOpen: true, openedAt: firstOpen }, undated: { isOpen: true, openedAt: firstOpen }, upcoming: { isOpen: false } });
      expect((await P.c.call(ops.getActivity, { params: { idOrSlug: a.id } })).id).toBe(a.id);
    });

    it('needs activity:update there; takes only a UUID and a boolean', async () => {
      const a = await world();
      await refused(publish(P.c, a.id, false), 403, 'forbidden');
      await refused(publish(SD.c, a.id, false), 403, 'forbidden');
      await refused(publish(U.c, a.id, false), 404, 'not_found');
      await refused(publish(MB.c, a.id, false), 404, 'not_found');
      await refused(publish(M.c, UNKNOWN_UUID, false), 404, 'not_found');
      await refusedRaw(M.c, 'POST', `/activities/not-a-uuid/published`, { published: false }, 404, 'not_found');
      await refusedRaw(M.c, 'POST', `/activities/${a.slug}/published`, { published: false }, 404, 'not_found');
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/published`, { published: 'no' }, 422, 'validation_failed');
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/published`, {}, 422, 'validation_failed');
      expect((await publish(admin, a.id, false)).publishedAt).toBeUndefined();
    });
  });

  // ---------------------------------------------------------------- POST /activities/{idOrSlug}/archived

  describe('POST /activities/{idOrSlug}/archived', () => {
    it('archives: hidden from lists, readable by id to members, refusing writes; restoring undoes it', async () => {
      const a = await world({ joinPolicy: 'open', unlisted: false });
      const doc = await M.c.upload('rules.md', '# Rules');
      const archivedAt = now();
      const res = await archive(M.c, a.slug, true);
      expect(res.archivedAt).toBe(archivedAt);
      clock.advance(5);
      expect((await archive(M.c, a.id, true)).archivedAt).toBe(archivedAt);

      expect((await P.c.call(ops.getActivity, { params: { idOrSlug: a.slug } })).archivedAt).toBe(archivedAt);
      expect((await U.c.call(ops.listActivities, { query: { search: a.slug } })).items).toEqual([]);
      expect((await M.c.call(ops.listManagedActivities, { query: { search: a.slug } })).items).toEqual([]);
      expect((await M.c.call(ops.listManagedActivities, { query: { search: a.slug, includeArchived: 'true' } })).items.map((x) => x.id)).toEqual([a.id]);

      await refused(update(M.c, a, { name: 'Late' }), 409, 'activity.archived');
      await refused(M.c.call(ops.setActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' }, body: { documents: [{ language: 'en', title: 'Rules', fileId: doc.id }] } }), 409, 'activity.archived');
      await refused(M.c.call(ops.deleteActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' } }), 409, 'activity.archived');
      await refused(U.c.call(ops.enrol, { params: { idOrSlug: a.id }, body: {} }), 409, 'activity.archived');

      const restored = await archive(M.c, a.id, false);
      expect(restored.archivedAt).toBeUndefined();
      expect((await update(M.c, a, { name: 'Back' })).name).toBe('Back');
      expect((await U.c.call(ops.listActivities, { query: { search: a.slug } })).items.map((x) => x.id)).toEqual([a.id]);
    });

    it('needs activity:archive there', async () => {
      const a = await world();
      await refused(archive(P.c, a.id, true), 403, 'forbidden');
      await refused(archive(SD.c, a.id, true), 403, 'forbidden');
      await refused(archive(U.c, a.id, true), 404, 'not_found');
      await refused(archive(MB.c, a.slug, true), 404, 'not_found');
      // a role that may edit but not archive
      const editor = await account('editor');
      const role = await admin.call(ops.createRole, { body: { name: uniq('Editor'), permissions: ['activity:read', 'activity:update'], activityId: a.id } });
      await admin.call(ops.createGrant, { body: { userId: editor.u.id, roleId: role.id, activityId: a.id } });
      expect((await update(editor.c, a, { name: 'Edited' })).name).toBe('Edited');
      await refused(archive(editor.c, a.id, true), 403, 'forbidden');
      expect((await archive(admin, a.id, true)).archivedAt).toBe(now());
    });

    it('refuses malformed bodies', async () => {
      const a = await create(M.c);
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/archived`, { archived: 1 }, 422, 'validation_failed');
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/archived`, 'not json', 400, 'request.malformed');
    });
  });

  // ---------------------------------------------------------------- DELETE /activities/{idOrSlug}

  describe('DELETE /activities/{idOrSlug}', () => {
    it('deletes it with its series, assignments, documents, roles and grants; the files stay', async () => {
      const a = await world();
      const s = addSeries(a.id);
      assign(a.id, s);
      const file = await M.c.upload('rules.md', '# Rules');
      await M.c.call(ops.setActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' }, body: { documents: [{ language: 'en', title: 'Rules', fileId: file.id }] } });
      const helper = await account('helper');
      const role = await admin.call(ops.createRole, { body: { name: uniq('Helper'), permissions: ['activity:read'], activityId: a.id } });
      await admin.call(ops.createGrant, { body: { userId: helper.u.id, roleId: role.id, activityId: a.id } });

      const res = await admin.send(ops.deleteActivity, { params: { idOrSlug: a.slug } });
      expect(res.status).toBe(204);
      const db = j.app.deps.db;
      expect(activityRow(a.id)).toBeUndefined();
      expect(db.select().from(series).where(eq(series.activityId, a.id)).all()).toEqual([]);
      expect(db.select().from(seriesProblems).where(eq(seriesProblems.activityId, a.id)).all()).toEqual([]);
      expect(db.select().from(activityDocuments).where(eq(activityDocuments.activityId, a.id)).all()).toEqual([]);
      expect(db.select().from(grants).where(eq(grants.activityId, a.id)).all()).toEqual([]);
      expect(db.select().from(roles).where(eq(roles.activityId, a.id)).all()).toEqual([]);
      expect((await M.c.call(ops.getFileMeta, { params: { id: file.id } })).id).toBe(file.id);
      // and nobody holds anything there any more
      await refusedWith(managed(M.c, a.id), 404, 'not_found');
      expect(await P.c.call(ops.myPermissions, { query: { activityId: a.id } })).toEqual([]);
    });

    it('refuses while it holds submissions (409 activity.hasSubmissions)', async () => {
      const a = await world();
      addSubmission(a.id, P.u.id);
      await refused(admin.call(ops.deleteActivity, { params: { idOrSlug: a.id } }), 409, 'activity.hasSubmissions');
    });

    it('needs activity:delete there, which the built-in manager role does not hold', async () => {
      const a = await world();
      const del = (c: JudgeClient) => c.call(ops.deleteActivity, { params: { idOrSlug: a.id } });
      await refused(del(M.c), 403, 'forbidden');
      await refused(del(P.c), 403, 'forbidden');
      await refused(del(SD.c), 403, 'forbidden');
      await refused(del(U.c), 404, 'not_found');
      await refused(del(MB.c), 404, 'not_found');
      await refused(admin.call(ops.deleteActivity, { params: { idOrSlug: 'no-such-slug' } }), 404, 'not_found');
      // a role of the activity that carries the key
      const owner = await account('owner');
      const role = await admin.call(ops.createRole, { body: { name: uniq('Owner'), permissions: ['activity:read', 'activity:delete'], activityId: a.id } });
      await admin.call(ops.createGrant, { body: { userId: owner.u.id, roleId: role.id, activityId: a.id } });
      await owner.c.call(ops.deleteActivity, { params: { idOrSlug: a.id } });
      expect(activityRow(a.id)).toBeUndefined();
      const other = await world();
      await admin.call(ops.deleteActivity, { params: { idOrSlug: other.slug } });
      expect(activityRow(other.id)).toBeUndefined();
    });
  });

  // ---------------------------------------------------------------- POST /activities/{id}/duplicate

  describe('POST /activities/{id}/duplicate', () => {
    const dup = (c: JudgeClient, id: string, body: { slug: string; startsAt: string }) => c.call(ops.duplicateActivity, { params: { id }, body });

    it('copies settings, series, assignments and documents, unpublished, every date shifted to the new start', async () => {
      const a = await world({
        startDate: '2026-12-01T09:00:00Z',
        endDate: '2026-12-10T09:00:00Z',
        joinPolicy: 'password',
        joinPassword: 'secret',
        unlisted: false,
        props: { term: 'winter' },
        runnerTags: ['gpu'],
        maxSubmissionsPerProblem: 9,
      });
      const late = addSeries(a.id, {
        startDate: '2026-12-02T10:00:00.000Z',
        endDate: '2026-12-02T15:00:00.000Z',
        rankingFreezeAt: '2026-12-02T14:00:00.000Z',
        rankingRevealAt: '2026-12-03T00:00:00.000Z',
        rankingVisibleFrom: '2026-12-02T10:00:00.000Z',
        rankingVisibleTo: '2026-12-31T00:00:00.000Z',
        importance: 3,
        importanceScope: 'none',
        addressRules: [{ network: '10.0.0.0/8', note: 'lab' }],
        restrictionsEnabled: true,
        runnerTags: ['big'],
        revealProblemCount: false,
      });
      // the earliest start, and a series that opened and was paused: the copy starts afresh
      const early = addSeries(a.id, { startDate: '2026-12-01T12:00:00.000Z', isOpen: true, openedAt: '2026-12-01T12:00:00.000Z', pausedAt: '2026-12-01T13:00:00.000Z', hideProblemsWhilePaused: true });
      addSeries(a.id);
      const pinnedTask = assign(a.id, late, { name: 'Pinned', config: { languages: ['cpp'] }, spec: { k: 1 }, props: { p: true }, maxPoints: 100, maxUploadBytes: 2048, maxAttachments: 2, maxSubmissions: 7 });
      j.app.deps.db.update(seriesProblems).set({ pinnedVersionId: pinnedTask.versionId }).where(eq(seriesProblems.id, pinnedTask.id)).run();
      assign(a.id, early);
      const file = await M.c.upload('rules.md', '# Rules');
      const withDocs = await M.c.call(ops.setActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' }, body: { documents: [{ language: 'en', title: 'Rules', fileId: file.id }] } });
      const sourceBefore = JSON.stringify([activityRow(a.id), j.app.deps.db.select().from(series).where(eq(series.activityId, a.id)).all()]);

      // 2026-12-01T12:00 (earliest series start) lands on 2027-01-10T12:00: forty days later
      const DAY = 86_400_000;
      const shift = (t: string) => new Date(Date.parse(t) + 40 * DAY).toISOString();
      const res = await M.c.send(ops.duplicateActivity, { params: { id: a.id }, body: { slug: 'Winter-Copy', startsAt: '2027-01-10T13:00:00+01:00' } });
      expect(res.status).toBe(201);
      const copy = (await res.json()) as Activity;
      expect(res.headers.get('location')).toBe(`/api/v1/manager/activities/${copy.id}`);
      const { id: _id, slug: _slug, publishedAt: _p, joinPassword: _pw, ...kept } = withDocs;
      expect(copy).toEqual({
        ...kept,
        id: expect.stringMatching(UUID_V7),
        slug: 'Winter-Copy',
        startDate: shift('2026-12-01T09:00:00.000Z'),
        endDate: shift('2026-12-10T09:00:00.000Z'),
        seriesCount: 3,
        problemCount: 2,
        participantCount: 0,
      });
      expect(copy.documents).toEqual(withDocs.documents);

      const copied = j.app.deps.db.select().from(series).where(eq(series.activityId, copy.id)).all();
      const original = j.app.deps.db.select().from(series).where(eq(series.activityId, a.id)).all();
      expect(copied).toHaveLength(3);
      for (const o of original) {
        const c = copied.find((x) => x.slug === o.slug)!;
        const dates = ['startDate', 'endDate', 'rankingFreezeAt', 'rankingRevealAt', 'rankingVisibleFrom', 'rankingVisibleTo'] as const;
        for (const k of dates) expect(c[k]).toBe(o[k] ? shift(o[k]!) : null);
        expect(c).toMatchObject({ isOpen: false, openedAt: null, pausedAt: null, name: o.name, order: o.order, importance: o.importance, importanceScope: o.importanceScope });
        expect(c.addressRules).toEqual(o.addressRules);
        expect(c.runnerTags).toEqual(o.runnerTags);
        expect(c.restrictionsEnabled).toBe(o.restrictionsEnabled);
        expect(c.revealProblemCount).toBe(o.revealProblemCount);
        expect(c.id).not.toBe(o.id);
      }
      const tasks = j.app.deps.db.select().from(seriesProblems).where(eq(seriesProblems.activityId, copy.id)).all();
      const pinnedCopy = tasks.find((t) => t.problemId === pinnedTask.problemId)!;
      const pinnedOrig = j.app.deps.db.select().from(seriesProblems).where(eq(seriesProblems.id, pinnedTask.id)).get()!;
      const { id: _a, seriesId: _b, activityId: _c, createdAt: _d, ...assignmentFields } = pinnedOrig;
      expect(pinnedCopy).toMatchObject(assignmentFields);
      expect(pinnedCopy.pinnedVersionId).toBe(pinnedTask.versionId);
      expect(copied.find((x) => x.id === pinnedCopy.seriesId)!.slug).toBe(j.app.deps.db.select().from(series).where(eq(series.id, late)).get()!.slug);

      // the copier manages the copy; the source's participants know nothing of it
      expect(await M.c.call(ops.myPermissions, { query: { activityId: copy.id } })).toContain('activity:update');
      expect((await admin.call(ops.listGrants, { query: { activityId: copy.id } })).items.map((g) => g.userId)).toEqual([M.u.id]);
      await refusedWith(P.c.call(ops.getActivity, { params: { idOrSlug: copy.id } }), 404, 'not_found');
      expect(JSON.stringify([activityRow(a.id), j.app.deps.db.select().from(series).where(eq(series.activityId, a.id)).all()])).toBe(sourceBefore);
    });

    it("without a series start shifts by the activity's start; without either shifts nothing", async () => {
      const a = await create(M.c, { startDate: '2026-12-01T00:00:00Z', endDate: '2026-12-02T00:00:00Z' });
      addSeries(a.id, { endDate: '2026-12-01T12:00:00.000Z' });
      const copy = await dup(M.c, a.id, { slug: uniq('shifted'), startsAt: '2026-12-03T00:00:00Z' });
      expect(copy).toMatchObject({ startDate: '2026-12-03T00:00:00.000Z', endDate: '2026-12-04T00:00:00.000Z' });
      expect(j.app.deps.db.select().from(series).where(eq(series.activityId, copy.id)).get()!.endDate).toBe('2026-12-03T12:00:00.000Z');

      const undated = await create(M.c, { endDate: '2026-12-02T00:00:00Z' });
      addSeries(undated.id, { endDate: '2026-12-01T12:00:00.000Z' });
      const same = await dup(M.c, undated.id, { slug: uniq('unshifted'), startsAt: '2030-01-01T00:00:00Z' });
      expect(same.startDate).toBeUndefined();
      expect(same.endDate).toBe('2026-12-02T00:00:00.000Z');
      expect(j.app.deps.db.select().from(series).where(eq(series.activityId, same.id)).get()!.endDate).toBe('2026-12-01T12:00:00.000Z');
    });

    it('refuses a slug in use in any case (409 activity.slug.taken)', async () => {
      const a = await create(M.c, { slug: uniq('Source') });
      await refused(dup(M.c, a.id, { slug: a.slug.toUpperCase(), startsAt: T0 }), 409, 'activity.slug.taken');
    });

    it('needs activity:create system-wide and activity:update on the source', async () => {
      const a = await world();
      const open = await world({ joinPolicy: 'open', unlisted: false });
      const appointed = await account('appointed');
      await j.grant(appointed.u.id, 'manager', a.id);
      const body = () => ({ slug: uniq('dup'), startsAt: T0 });
      // manages the source, may not create
      await refused(dup(appointed.c, a.id, body()), 403, 'forbidden');
      await refused(dup(P.c, a.id, body()), 403, 'forbidden');
      // may create, does not manage the source: 404 where it is unseen, 403 where it is seen
      await refused(dup(MB.c, a.id, body()), 404, 'not_found');
      await refused(dup(MB.c, open.id, body()), 403, 'forbidden');
      await refused(dup(SD.c, a.id, body()), 403, 'forbidden');
      await refused(dup(M.c, UNKNOWN_UUID, body()), 404, 'not_found');
      expect((await dup(admin, a.id, body())).publishedAt).toBeUndefined();
    });

    it('refuses malformed input', async () => {
      const a = await create(M.c);
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/duplicate`, { slug: uniq('x'), startsAt: 'soon' }, 422, 'validation_failed');
      await refusedRaw(M.c, 'POST', `/activities/${a.id}/duplicate`, { startsAt: T0 }, 422, 'validation_failed');
      await refusedRaw(M.c, 'POST', `/activities/${a.slug}/duplicate`, { slug: uniq('x'), startsAt: T0 }, 404, 'not_found');
    });
  });

  // ---------------------------------------------------------------- documents

  describe('PUT and DELETE /activities/{idOrSlug}/documents/{kind}', () => {
    const put = (c: JudgeClient, idOrSlug: string, kind: 'rules' | 'welcome' | 'terms', documents: { language: string; title: string; fileId: string; validFrom?: string }[]) =>
      c.call(ops.setActivityDocuments, { params: { idOrSlug, kind }, body: { documents } });
    const del = (c: JudgeClient, idOrSlug: string, kind: 'rules' | 'welcome') => c.call(ops.deleteActivityDocuments, { params: { idOrSlug, kind } });

    it('replaces the documents of one kind, leaves the other kinds, and deletes a kind', async () => {
      const a = await world();
      const en = await M.c.upload('rules-en.md', '# Rules');
      const pl = await M.c.upload('rules-pl.md', '# Regulamin, dłuższy');
      const hi = await M.c.upload('welcome.md', 'Hello');
      const withRules = await put(M.c, a.slug, 'rules', [
        { language: 'pl', title: 'Regulamin', fileId: pl.id },
        { language: 'en', title: 'Rules', fileId: en.id, validFrom: '2026-12-01T00:00:00+02:00' },
      ]);
      expect(withRules.documents).toEqual([
        { kind: 'rules', language: 'en', title: 'Rules', validFrom: '2026-11-30T22:00:00.000Z', fileId: en.id, sha256: en.sha256, sizeBytes: en.sizeBytes },
        { kind: 'rules', language: 'pl', title: 'Regulamin', validFrom: now(), fileId: pl.id, sha256: pl.sha256, sizeBytes: pl.sizeBytes },
      ]);
      await put(M.c, a.id, 'welcome', [{ language: 'en', title: 'Welcome', fileId: hi.id }]);
      const replaced = await put(M.c, a.id, 'rules', [{ language: 'en', title: 'Rules v2', fileId: en.id }]);
      expect(replaced.documents.map((d) => [d.kind, d.language, d.title])).toEqual([
        ['rules', 'en', 'Rules v2'],
        ['welcome', 'en', 'Welcome'],
      ]);
      // participants see them too
      expect((await P.c.call(ops.getActivity, { params: { idOrSlug: a.id } })).documents).toEqual(replaced.documents);

      const removed = await del(M.c, a.id, 'rules');
      expect(removed.documents.map((d) => d.kind)).toEqual(['welcome']);
      expect((await del(M.c, a.id, 'rules')).documents).toEqual(removed.documents);
    });

    it("makes a document's file readable to whoever sees the activity, and to nobody else", async () => {
      const a = await world();
      const file = await M.c.upload('rules.md', '# Members only');
      await refusedWith(P.c.call(ops.getFileMeta, { params: { id: file.id } }), 404, 'not_found');
      await put(M.c, a.id, 'rules', [{ language: 'en', title: 'Rules', fileId: file.id }]);
      expect((await P.c.call(ops.getFileMeta, { params: { id: file.id } })).sha256).toBe(file.sha256);
      const bytes = await P.c.call(ops.downloadFile, { params: { id: file.id } });
      expect(Buffer.from(bytes).toString()).toBe('# Members only');
      await refusedWith(U.c.call(ops.getFileMeta, { params: { id: file.id } }), 404, 'not_found');
      await refusedWith(MB.c.call(ops.getFileMeta, { params: { id: file.id } }), 404, 'not_found');
      await del(M.c, a.id, 'rules');
      await refusedWith(P.c.call(ops.getFileMeta, { params: { id: file.id } }), 404, 'not_found');
    });

    it('refuses a file that does not exist or that the caller may not read (422 file.missing)', async () => {
      const a = await world();
      const mine = await M.c.upload('mine.md', 'mine');
      const theirs = await U.c.upload('theirs.md', 'theirs');
      const e = await refused(put(M.c, a.id, 'rules', [{ language: 'en', title: 'R', fileId: mine.id }, { language: 'pl', title: 'R', fileId: UNKNOWN_UUID }]), 422, 'file.missing');
      expect(Object.keys(e.errors ?? {})).toEqual(['documents.1.fileId']);
      await refused(put(M.c, a.id, 'rules', [{ language: 'en', title: 'R', fileId: theirs.id }]), 422, 'file.missing');
      // an administrator reads every file, so may use it
      expect((await put(admin, a.id, 'rules', [{ language: 'en', title: 'R', fileId: theirs.id }])).documents[0]!.fileId).toBe(theirs.id);
      // a co-manager may keep what is already there while changing the rest
      const co = await account('co-manager');
      await j.grant(co.u.id, 'manager', a.id);
      const coFile = await co.c.upload('pl.md', 'pl');
      const kept = await put(co.c, a.id, 'rules', [{ language: 'en', title: 'R', fileId: theirs.id }, { language: 'pl', title: 'R', fileId: coFile.id }]);
      expect(kept.documents.map((d) => d.fileId)).toEqual([theirs.id, coFile.id]);
    });

    it('needs activity:update there and an unarchived activity', async () => {
      const a = await world();
      const file = await P.c.upload('p.md', 'p');
      const doc = [{ language: 'en', title: 'R', fileId: file.id }];
      await refused(put(P.c, a.id, 'rules', doc), 403, 'forbidden');
      await refused(del(P.c, a.id, 'rules'), 403, 'forbidden');
      await refused(put(U.c, a.id, 'rules', doc), 404, 'not_found');
      await refused(del(MB.c, a.id, 'rules'), 404, 'not_found');
      await refused(put(SD.c, a.id, 'rules', doc), 403, 'forbidden');
    });

    it('refuses malformed input', async () => {
      const a = await create(M.c);
      const f = await M.c.upload('x.md', 'x');
      const path = (kind: string) => `/activities/${a.id}/documents/${kind}`;
      await refusedRaw(M.c, 'PUT', path('novel'), { documents: [{ language: 'en', title: 'N', fileId: f.id }] }, 404, 'not_found');
      for (const documents of [[], [{ language: '1', title: 'T', fileId: f.id }], [{ language: 'en', title: '', fileId: f.id }], [{ language: 'en', title: 'T', fileId: 'x' }], [{ language: 'en', title: 'T', fileId: f.id, validFrom: 'later' }], 'all']) {
        await refusedRaw(M.c, 'PUT', path('rules'), { documents }, 422, 'validation_failed');
      }
      const twice = await refusedRaw(M.c, 'PUT', path('rules'), { documents: [{ language: 'en', title: 'A', fileId: f.id }, { language: 'EN', title: 'B', fileId: f.id }] }, 422, 'validation_failed');
      expect(Object.keys(twice.errors!)).toEqual(['documents.1.language']);
      await refusedRaw(M.c, 'DELETE', path('novel'), undefined, 404, 'not_found');
    });
  });

  // ---------------------------------------------------------------- manager views

  describe('GET /manager/activities, /summary and /{idOrSlug}', () => {
    let X: Party;
    let a1: Activity, a2: Activity, a3: Activity, foreign: Activity;

    beforeAll(async () => {
      X = await account('lister', { creator: true });
      a1 = await create(X.c, { slug: uniq('needle-one'), name: 'First' });
      clock.advance(1);
      a2 = await create(X.c, { name: 'Second NEEDLE' });
      clock.advance(1);
      a3 = await create(X.c, { name: 'Third' });
      await archive(X.c, a2.id, true);
      foreign = await create(MB.c, { name: 'Not X' });
      await j.grant(X.u.id, 'participant', foreign.id);
    });

    const ids = (p: { items: { id: string }[] }) => p.items.map((x) => x.id);

    it('lists what the caller manages, newest first, archived only when asked', async () => {
      const page = await X.c.call(ops.listManagedActivities, { query: {} });
      expect(page).toMatchObject({ total: 2, page: 1, pageSize: 20 });
      expect(ids(page)).toEqual([a3.id, a1.id]);
      expect(page.items[1]).toEqual(await managed(X.c, a1.id));
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { includeArchived: 'true' } }))).toEqual([a3.id, a2.id, a1.id]);
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { includeArchived: '1', search: 'NeEdLe' } }))).toEqual([a2.id, a1.id]);
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { search: 'needle' } }))).toEqual([a1.id]);
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { search: '%' } }))).toEqual([]);
      const second = await X.c.call(ops.listManagedActivities, { query: { page: 2, pageSize: 1 } });
      expect(second).toMatchObject({ total: 2, page: 2, pageSize: 1 });
      expect(ids(second)).toEqual([a1.id]);
      expect(await X.c.call(ops.listManagedActivities, { query: { pageSize: 0 } })).toMatchObject({ pageSize: 1 });
      expect(await X.c.call(ops.listManagedActivities, { query: { pageSize: 1000 } })).toMatchObject({ pageSize: 200 });
    });

    it('gives the summary of the unarchived ones', async () => {
      expect(await X.c.call(ops.managedActivitiesSummary)).toEqual([
        { id: a3.id, slug: a3.slug, name: 'Third' },
        { id: a1.id, slug: a1.slug, name: 'First' },
      ]);
      expect(await P.c.call(ops.managedActivitiesSummary)).toEqual([]);
      expect(await U.c.call(ops.managedActivitiesSummary)).toEqual([]);
    });

    it('lists everything to an administrator, except where they stood down', async () => {
      const all = await admin.call(ops.listManagedActivities, { query: { pageSize: 200 } });
      const unarchived = j.app.deps.sqlite.prepare('SELECT count(*) AS n FROM activities WHERE archived_at IS NULL').get() as { n: number };
      expect(all.total).toBe(unarchived.n);
      expect(ids(all)).toEqual(expect.arrayContaining([a1.id, a3.id, foreign.id]));
      await standDown(a3.id);
      const sd = await SD.c.call(ops.listManagedActivities, { query: { pageSize: 200 } });
      expect(ids(sd)).toContain(a1.id);
      expect(ids(sd)).not.toContain(a3.id);
      expect((await SD.c.call(ops.managedActivitiesSummary)).map((x) => x.id)).not.toContain(a3.id);
      await refusedWith(managed(SD.c, a3.id), 404, 'not_found');
      expect((await managed(SD.c, a1.id)).id).toBe(a1.id);
    });

    it('lists nothing a participant or a plain user takes part in', async () => {
      expect(await P.c.call(ops.listManagedActivities, { query: {} })).toMatchObject({ items: [], total: 0 });
      expect(ids(await X.c.call(ops.listManagedActivities, { query: { pageSize: 200 } }))).not.toContain(foreign.id);
    });

    it('reads one managed activity, join password included, by id or slug; to anyone else it does not exist', async () => {
      const a = await world({ joinPolicy: 'password', joinPassword: 'letmein', unlisted: false });
      expect(await managed(M.c, a.slug.toUpperCase())).toMatchObject({ id: a.id, joinPassword: 'letmein' });
      expect((await managed(admin, a.id)).joinPassword).toBe('letmein');
      for (const c of [P.c, U.c, MB.c, SD.c]) await refusedWith(managed(c, a.id), 404, 'not_found');
      await refusedWith(managed(M.c, 'no-such-activity'), 404, 'not_found');
    });

    it('counts series, assignments and participants', async () => {
      const a = await world();
      const s = addSeries(a.id);
      assign(a.id, s);
      assign(a.id, addSeries(a.id));
      const co = await account('co');
      await j.grant(co.u.id, 'manager', a.id);
      // P and the stood-down administrator take part; M and the co-manager manage
      expect(await managed(M.c, a.id)).toMatchObject({ seriesCount: 2, problemCount: 2, participantCount: 2, matchingRunners: 0 });
    });

    it('refuses a malformed query', async () => {
      await refusedRaw(X.c, 'GET', '/manager/activities?includeArchived=maybe', undefined, 422, 'validation_failed');
      await refusedRaw(X.c, 'GET', '/manager/activities?page=first', undefined, 422, 'validation_failed');
    });
  });

  // ---------------------------------------------------------------- events

  describe('events', () => {
    let cM: Party, cP: Party, cQ: Party, cU: Party;
    let adminC: JudgeClient;
    let S: Record<'admin' | 'manager' | 'participant' | 'elsewhere' | 'user', EventStream>;
    let other: Activity;
    let barriers = 0;

    /** Frames each party got before a barrier every signed-in session hears (socket.test.ts explains why it proves absence). */
    async function settle(): Promise<Record<keyof typeof S, Frame[]>> {
      const name = `Judge ${++barriers}`;
      await admin.call(ops.updateInstance, { body: { name } });
      const out = {} as Record<keyof typeof S, Frame[]>;
      for (const [k, s] of Object.entries(S) as [keyof typeof S, EventStream][]) {
        const f = await s.next('instanceChanged', 5000);
        expect((f.data as { instance: { name: string } }).instance.name).toBe(name);
        out[k] = s.frames.splice(0).filter((x) => x.type !== 'ping');
      }
      return out;
    }
    const typesOf = (got: Record<string, Frame[]>) => Object.fromEntries(Object.entries(got).map(([k, fs]) => [k, fs.map((f) => f.type).sort()]));

    beforeAll(async () => {
      [cM, cP, cQ, cU] = await Promise.all([
        account('ev-manager', { creator: true, how: 'cookie' }),
        account('ev-participant', { how: 'cookie' }),
        account('ev-elsewhere', { how: 'cookie' }),
        account('ev-user', { how: 'cookie' }),
      ]);
      adminC = await j.signIn({ username: 'admin', password: ADMIN_PASSWORD }, 'cookie');
      other = await create(MB.c);
      await j.grant(cQ.u.id, 'participant', other.id);
      S = { admin: adminC.events(), manager: cM.c.events(), participant: cP.c.events(), elsewhere: cQ.c.events(), user: cU.c.events() };
      await Promise.all(Object.values(S).map((s) => s.opened));
      await settle();
    });
    afterAll(() => Object.values(S).forEach((s) => s.close()));

    it('creating a closed activity tells its manager and administrators only; a listed open one tells everyone', async () => {
      const a = await create(cM.c);
      let got = await settle();
      expect(typesOf(got)).toEqual({
        admin: ['activityChanged', 'activityCreated', 'grantChanged'],
        manager: ['activityChanged', 'activityCreated', 'grantChanged'],
        participant: [],
        elsewhere: [],
        user: [],
      });
      expect(got.manager.find((f) => f.type === 'activityCreated')!.data).toEqual({ activityId: a.id, slug: a.slug, name: a.name });
      expect(got.manager.find((f) => f.type === 'activityChanged')!.data).toEqual({ activity: a });

      const open = await create(cM.c, { joinPolicy: 'open', unlisted: false });
      got = await settle();
      for (const k of ['participant', 'elsewhere', 'user'] as const) expect(got[k].map((f) => [f.type, f.data])).toEqual([['activityCreated', { activityId: open.id, slug: open.slug, name: open.name }]]);
    });

    it('an update tells members and managers (times too when dates change); activityChanged reaches managers only', async () => {
      const a = await create(cM.c);
      await j.grant(cP.u.id, 'participant', a.id);
      await settle();
      await update(cM.c, a, { name: 'Renamed' });
      let got = await settle();
      expect(typesOf(got)).toEqual({ admin: ['activityChanged', 'activityUpdated'], manager: ['activityChanged', 'activityUpdated'], participant: ['activityUpdated'], elsewhere: [], user: [] });
      expect(got.participant[0]!.data).toEqual({ activityId: a.id, slug: a.slug, name: 'Renamed' });

      const changed = await update(cM.c, a, { startDate: '2026-12-01T00:00:00Z' });
      got = await settle();
      expect(typesOf(got)).toMatchObject({ manager: ['activityChanged', 'activityTimesChanged', 'activityUpdated'], participant: ['activityTimesChanged', 'activityUpdated'], elsewhere: [], user: [] });
      expect(got.participant.find((f) => f.type === 'activityTimesChanged')!.data).toEqual({ activityId: a.id, startDate: '2026-12-01T00:00:00.000Z' });
      expect(got.manager.find((f) => f.type === 'activityChanged')!.data).toEqual({ activity: changed });

      // documents and archiving are updates too
      const f = await cM.c.upload('r.md', 'r');
      await cM.c.call(ops.setActivityDocuments, { params: { idOrSlug: a.id, kind: 'rules' }, body: { documents: [{ language: 'en', title: 'R', fileId: f.id }] } });
      await archive(cM.c, a.id, true);
      got = await settle();
      expect(typesOf(got)).toMatchObject({ participant: ['activityUpdated', 'activityUpdated'], elsewhere: [], user: [] });
    });

    it('unpublishing tells those who saw it that it is gone, and nothing of its series; publishing opens them with their problems', async () => {
      const a = await create(cM.c);
      await j.grant(cP.u.id, 'participant', a.id);
      const s = addSeries(a.id, { startDate: '2026-01-01T00:00:00.000Z', isOpen: true, openedAt: '2026-01-01T00:00:00.000Z' });
      const task = assign(a.id, s, { name: 'Task A' });
      await settle();

      await publish(cM.c, a.id, false);
      let got = await settle();
      expect(typesOf(got)).toEqual({
        admin: ['activityChanged', 'activityDeleted', 'activityUpdated', 'managerSeriesChanged'],
        manager: ['activityChanged', 'activityDeleted', 'activityUpdated', 'managerSeriesChanged'],
        participant: ['activityDeleted'],
        elsewhere: [],
        user: [],
      });
      expect(got.participant[0]!.data).toEqual({ activityId: a.id });
      expect(got.manager.find((f) => f.type === 'managerSeriesChanged')!.data).toEqual({ activityId: a.id, seriesId: s });

      await publish(cM.c, a.id, true);
      got = await settle();
      expect(typesOf(got)).toEqual({
        admin: ['activityChanged', 'activityCreated', 'activityUpdated', 'managerSeriesChanged', 'seriesChanged'],
        manager: ['activityChanged', 'activityCreated', 'activityUpdated', 'managerSeriesChanged', 'seriesChanged'],
        participant: ['activityCreated', 'activityUpdated', 'seriesChanged'],
        elsewhere: [],
        user: [],
      });
      const opened = got.participant.find((f) => f.type === 'seriesChanged')!.data as { change: string; series: { id: string; isOpen: boolean }; problems: { id: string; name: string }[] };
      expect(opened).toMatchObject({ activityId: a.id, change: 'opened', series: { id: s, isOpen: true } });
      expect(opened.problems.map((p) => [p.id, p.name])).toEqual([[task.id, 'Task A']]);
    });

    it('deleting tells those who could see it, judged before the grants went', async () => {
      const a = await create(cM.c);
      await j.grant(cP.u.id, 'participant', a.id);
      await settle();
      await admin.call(ops.deleteActivity, { params: { idOrSlug: a.id } });
      const got = await settle();
      expect(typesOf(got)).toEqual({
        admin: ['activityChanged', 'activityDeleted'],
        manager: ['activityChanged', 'activityDeleted'],
        participant: ['activityDeleted'],
        elsewhere: [],
        user: [],
      });
      expect(got.manager.find((f) => f.type === 'activityChanged')!.data).toEqual({ deletedId: a.id });
    });

    it('a refused write tells nobody anything', async () => {
      const a = await create(cM.c);
      await settle();
      await refusedWith(update(cP.c, a, { name: 'x' }), 404, 'not_found');
      await refusedWith(update(cM.c, { id: a.id, slug: 'other' }, { name: 'x' }), 409, 'activity.slug.immutable');
      expect(typesOf(await settle())).toEqual({ admin: [], manager: [], participant: [], elsewhere: [], user: [] });
    });
  });
});
