import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { ops, type Activity, type OperationInput } from '@judge/contract';
import type { ApiProblem, JudgeClient } from '@judge/sdk';
import { activities, activityDocuments, files, grants, problemVersions, problems, roles, series, seriesProblems, submissions } from '../../src/db/schema.js';
import { refusedWith, sendJson } from '../expect.js';
import { ManualClock, TestJudge, type Party } from '../harness.js';
import { tableSnapshot } from './db-snapshot.js';

/**
 * What the tests of the managers' side of activities share: one server on a ManualClock, the
 * parties (M manages activities it creates; P takes part in them; MB manages its own; U is signed
 * in only; SD is an administrator who stood down), refusals that must change nothing, and rows the
 * series and problems areas would write, inserted directly.
 */

export type CreateBody = OperationInput<typeof ops.createActivity>['body'];

export const T0 = '2026-11-22T08:00:00.000Z';
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const clock = new ManualClock(new Date(T0));
export const now = () => clock.now().toISOString();

let seq = 0;
export const uniq = (prefix: string) => `${prefix}-${++seq}`;

export let j: TestJudge;
export let admin: JudgeClient;
let participantRoleId: string;

/** Every row an activity operation may touch, so a refusal is shown to change nothing at all. */
const TABLES = [activities, grants, roles, series, seriesProblems, activityDocuments, files];
const snapshot = () => tableSnapshot(j, TABLES);

/** The call must fail with this status and code and leave every activity table as it was. */
export async function refused(call: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
  // the call is under way already: its refusal, if it comes while the snapshot is read, is handled (refusedWith looks at it)
  call.catch(() => undefined);
  const before = await snapshot();
  const e = await refusedWith(call, status, code);
  expect(await snapshot()).toBe(before);
  return e;
}

/** A raw request that must be refused with 4xx problem+json and change nothing. */
export async function refusedRaw(c: JudgeClient, method: string, path: string, body: unknown, status: number, code: string) {
  const before = await snapshot();
  const res = await sendJson(j.url, method, path, c.accessToken, body);
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(await snapshot()).toBe(before);
  return res.body as { errors?: Record<string, string[]> };
}

export async function account(prefix: string, opts: { creator?: boolean; how?: 'bearer' | 'cookie' } = {}): Promise<Party> {
  const u = await j.user(uniq(prefix));
  if (opts.creator) await j.grant(u.id, 'Creator');
  return { u, c: await j.signIn(u, opts.how ?? 'bearer') };
}

export const create = (c: JudgeClient, body: Partial<CreateBody> = {}): Promise<Activity> =>
  c.call(ops.createActivity, { body: { slug: uniq('act'), name: 'An activity', type: 'contest@1', rankingType: 'icpc', timeZone: 'Europe/Warsaw', ...body } });

export const managed = (c: JudgeClient, idOrSlug: string) => c.call(ops.getManagedActivity, { params: { idOrSlug } });
export const update = (c: JudgeClient, a: { slug: string; id?: string }, body: Record<string, unknown>) =>
  c.call(ops.updateActivity, { params: { idOrSlug: a.id ?? a.slug }, body: { slug: a.slug, ...body } as never });
export const publish = (c: JudgeClient, id: string, published: boolean) => c.call(ops.setActivityPublished, { params: { id }, body: { published } });
export const archive = (c: JudgeClient, idOrSlug: string, archived: boolean) => c.call(ops.setActivityArchived, { params: { idOrSlug }, body: { archived } });
export const activityRow = async (id: string) => (await j.app.deps.tx.read((q) => q.select().from(activities).where(eq(activities.id, id))))[0];

// ---- rows the series and problems areas would write: inserted directly, this file tests activities ----

export async function addSeries(activityId: string, fields: Partial<typeof series.$inferInsert> = {}): Promise<string> {
  const id = randomUUID();
  const slug = uniq('s');
  await j.app.deps.tx.write((q) => q.insert(series).values({ id, activityId, slug, slugKey: slug, name: `Series ${slug}`, order: seq, createdAt: T0, ...fields }));
  return id;
}

async function addProblem(): Promise<{ problemId: string; versionId: string }> {
  const problemId = randomUUID();
  const versionId = randomUUID();
  const slug = uniq('p');
  await j.app.deps.tx.write(async (q) => {
    await q.insert(problems).values({ id: problemId, slug, slugKey: slug, name: `Problem ${slug}`, type: 'standard-io@1', createdAt: T0 });
    await q.insert(problemVersions).values({ id: versionId, problemId, version: 1, createdAt: T0 });
  });
  return { problemId, versionId };
}

export async function assign(activityId: string, seriesId: string, fields: Partial<typeof seriesProblems.$inferInsert> = {}) {
  const p = await addProblem();
  const id = randomUUID();
  const slug = uniq('task');
  await j.app.deps.tx.write((q) =>
    q.insert(seriesProblems).values({ id, seriesId, activityId, problemId: p.problemId, slug, slugKey: slug, order: seq, createdAt: T0, ...fields }),
  );
  return { id, ...p };
}

/**
 * There is no submission API yet (the judging issue brings it): a row written straight to the
 * database.
 */
export async function addSubmission(activityId: string, userId: string): Promise<void> {
  const s = await addSeries(activityId);
  const a = await assign(activityId, s);
  await j.app.deps.tx.write((q) =>
    q.insert(submissions).values({ id: randomUUID(), activityId, seriesId: s, seriesProblemId: a.id, problemVersionId: a.versionId, userId, submittedAt: now() }),
  );
}

/**
 * M manages activities it creates; P takes part in them; MB manages its own; U is signed in only.
 */
export let M: Party, P: Party, MB: Party, U: Party;
/**
 * An administrator who stood down (overrideSystem) as a participant in the activities of
 * `standDown`.
 */
export let SD: Party;

export const standDown = (activityId: string) =>
  SD.c.call(ops.createGrant, { body: { userId: SD.u.id, roleId: participantRoleId, activityId, overrideSystem: true } });

/** A fresh closed activity of M with P enrolled and SD stood down in it. */
export async function world(body: Partial<CreateBody> = {}): Promise<Activity> {
  const a = await create(M.c, body);
  await j.grant(P.u.id, 'participant', a.id);
  await standDown(a.id);
  return a;
}

/**
 * Starts the server and signs in the parties before the calling block, and stops the server after
 * it.
 */
export function useActivitiesWorld(): void {
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
}
