import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { ops, type Activity, type OperationInput, type ParticipantSeries, type Series } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { submissions } from '../../src/db/schema.js';
import { refusedWith } from '../expect.js';
import { ManualClock, TestJudge, raw, type TestUser, type Party } from '../harness.js';
import { legacyPackage, zipOf } from '../zips.js';

/**
 * What the participant tests share: one server on a ManualClock with managers, participants and
 * outsiders, activities, series and problems with files made to order, and submissions written
 * straight to the database (their API comes with the judging issue).
 */

export type ActivityBody = OperationInput<typeof ops.createActivity>['body'];
export type SeriesBody = OperationInput<typeof ops.createSeries>['body'];
export type AssignmentBody = Omit<OperationInput<typeof ops.attachProblem>['body'], 'problemId'>;

const MINUTE = 60_000;

/** The files of a problem version made by `problemWithFiles`, by what they are. */
export interface ProblemFiles {
  statement: string;
  notes: string;
  samples: string;
  solution: string;
  checker: string;
  pkg: string;
}

const clock = new ManualClock();
export let j: TestJudge;
export let admin: JudgeClient;
let seq = 0;
export const uniq = (prefix: string) => `${prefix}-${++seq}`;
export const inMinutes = (m: number) => new Date(clock.now().getTime() + m * MINUTE).toISOString();

export async function party(prefix: string): Promise<Party> {
  const u = await j.user(uniq(prefix));
  return { u, c: await j.signIn(u) };
}

/**
 * A published activity anyone signed in may find and join (so that outsiders can see it exists).
 */
export function activity(body: Partial<ActivityBody> = {}): Promise<Activity> {
  return admin.call(ops.createActivity, {
    body: { slug: uniq('act'), name: 'Course', type: 'course@1', rankingType: 'points', timeZone: 'UTC', joinPolicy: 'open', unlisted: false, ...body },
  });
}

export function series(a: Activity, body: Partial<SeriesBody> = {}): Promise<Series> {
  return admin.call(ops.createSeries, { params: { idOrSlug: a.slug }, body: { slug: uniq('s'), name: 'Week', ...body } });
}

/** Attaches a problem and answers the new assignment's id. */
export async function attach(s: Series, problemId: string, body: AssignmentBody = {}): Promise<string> {
  const slug = body.slug ?? uniq('task');
  const updated = await admin.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId, slug, ...body } });
  return updated.problems.find((p) => p.slug === slug)!.id;
}

export async function participantOf(a: Activity, prefix = 'pupil'): Promise<Party> {
  const p = await party(prefix);
  await p.c.call(ops.enrol, { params: { idOrSlug: a.slug }, body: {} });
  return p;
}

/**
 * A problem whose first version holds a statement, a participant attachment, a manager file,
 * a runner file, and a package with its samples; `versions` more versions each bring a new
 * statement (the other files carry forward).
 */
export async function problemWithFiles(): Promise<{ problemId: string; versionIds: string[]; files: ProblemFiles }> {
  const slug = uniq('prob');
  const problem = await admin.call(ops.createProblem, { body: { slug, name: `Problem ${slug}`, type: 'standard-io@1' } });
  const up = async (name: string, text: string | Buffer, mime = 'text/plain') => (await admin.upload(name, text, mime)).id;
  const f: ProblemFiles = {
    statement: await up('statement.md', `# ${slug} v1\n`, 'text/markdown'),
    notes: await up('notes.txt', 'hints'),
    samples: await up('samples.zip', await zipOf({ '1.in': '1 2\n', '1.ans': '3\n' }), 'application/zip'),
    solution: await up('solution.cpp', 'int main() {}'),
    checker: await up('checker.cpp', 'int main() { return 42; }'),
    pkg: await up('package.zip', await zipOf(legacyPackage()), 'application/zip'),
  };
  const v1 = await admin.call(ops.createProblemVersion, {
    params: { problemId: problem.id },
    body: {
      statements: [{ language: 'en', fileId: f.statement }],
      files: [
        { fileId: f.notes, name: 'notes.txt', scope: 'participant' },
        { fileId: f.solution, name: 'solution.cpp', scope: 'manager' },
        { fileId: f.checker, name: 'checker.cpp', scope: 'runner' },
      ],
      package: { fileId: f.pkg, samplesFileId: f.samples },
    },
  });
  return { problemId: problem.id, versionIds: [v1.id], files: f };
}

/**
 * Appends a version with a new English statement; answers the version id and the statement's file
 * id.
 */
export async function newStatement(problemId: string): Promise<{ versionId: string; statement: string }> {
  const statement = (await admin.upload('statement.md', `# ${uniq('newer')}\n`, 'text/markdown')).id;
  const v = await admin.call(ops.createProblemVersion, { params: { problemId }, body: { statements: [{ language: 'en', fileId: statement }] } });
  return { versionId: v.id, statement };
}

/** A plain problem with one statement. */
export async function simpleProblem(): Promise<{ problemId: string; versionId: string }> {
  const slug = uniq('plain');
  const problem = await admin.call(ops.createProblem, { body: { slug, name: `Plain ${slug}`, type: 'standard-io@1' } });
  const { versionId } = await newStatement(problem.id);
  return { problemId: problem.id, versionId };
}

/**
 * A submission row as the judging issue will leave it: its newest attempt's state and outcome.
 * (No submission API exists yet; it comes with the judging issue.)
 */
export async function submitted(
  who: TestUser,
  a: Activity,
  s: Series,
  assignmentId: string,
  versionId: string,
  outcome: { state?: string; score?: number; maxScore?: number; excluded?: boolean; verdict?: string } = {},
): Promise<void> {
  const row = {
    id: randomUUID(),
    activityId: a.id,
    seriesId: s.id,
    seriesProblemId: assignmentId,
    problemVersionId: versionId,
    userId: who.id,
    submittedAt: clock.now().toISOString(),
    state: outcome.state ?? (outcome.score !== undefined ? 'completed' : 'queued'),
    verdict: outcome.verdict ?? null,
    score: outcome.score ?? null,
    maxScore: outcome.maxScore ?? null,
    excluded: outcome.excluded ?? false,
  };
  await j.app.deps.tx.write((q) => q.insert(submissions).values(row));
}

/**
 * Moves time on and lets the scheduler open and close series. Access tokens last an hour of
 * this clock: the administrator signs in again, and each test moves less than an hour after
 * signing its parties in.
 */
export async function passMinutes(minutes: number): Promise<void> {
  clock.advance(minutes * 60);
  await j.app.scheduler.tick(clock.now());
  admin = await j.admin();
}

export const listOf = (c: JudgeClient, a: Activity | string) => c.call(ops.listActivitySeries, { params: { idOrSlug: typeof a === 'string' ? a : a.slug } });
export const problemOf = (c: JudgeClient, a: Activity, slug: string) => c.call(ops.getActivityProblem, { params: { idOrSlug: a.slug, problemSlug: slug } });
export const seriesIn = (list: ParticipantSeries[], s: Series) => list.find((x) => x.id === s.id)!;

/** GET /files/{id} as `c`: the status only. */
export async function fileStatus(c: JudgeClient, fileId: string): Promise<number> {
  return (await raw(`${j.url}/api/v1/files/${fileId}`, { token: c.accessToken! })).status;
}

/**
 * Every read of this problem is 404 to `c`: the list shows no problems of `s`, the detail and the
 * files are hidden.
 */
export async function hiddenFrom(c: JudgeClient, a: Activity, s: Series, slug: string, fileIds: string[]): Promise<void> {
  expect(seriesIn(await listOf(c, a), s).problems).toBeUndefined();
  await refusedWith(problemOf(c, a, slug), 404, 'not_found');
  for (const id of fileIds) expect({ id, status: await fileStatus(c, id) }).toEqual({ id, status: 404 });
}

export async function shownTo(c: JudgeClient, a: Activity, s: Series, slug: string, fileIds: string[]): Promise<void> {
  expect(seriesIn(await listOf(c, a), s).problems?.map((p) => p.slug)).toContain(slug);
  expect((await problemOf(c, a, slug)).slug).toBe(slug);
  for (const id of fileIds) expect({ id, status: await fileStatus(c, id) }).toEqual({ id, status: 200 });
}

/** Starts the server and builds the parties before the calling block, and stops it after. */
export function useParticipantWorld(): void {
  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    admin = await j.admin();
  });
  afterAll(() => j.stop());
}
