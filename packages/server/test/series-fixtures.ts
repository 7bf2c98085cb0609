import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { ops, type Activity, type OperationInput, type Problem, type ProblemVersion } from '@judge/contract';
import type { ApiProblem, EventStream, Frame, JudgeClient } from '@judge/sdk';
import { activities, grants, problemVersions, problems, series, seriesProblems, submissions } from '../src/db/schema.js';
import { refusedWith, sendJson } from './expect.js';
import type { ManualClock, Party, TestJudge, TestUser } from './harness.js';
import { tableSnapshot } from './support/db-snapshot.js';
import { barrier } from './support/socket.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * What the series, assignment and scheduler tests share: parties, activities and problems made
 * through the API, submissions written straight to the database (the judging issue brings their
 * API), proofs that a refusal changed nothing, and a barrier that proves which events arrived.
 */

export type { Party };
type ActivityBody = OperationInput<typeof ops.createActivity>['body'];

export const T0 = '2026-11-22T08:00:00.000Z';
export { UNKNOWN_UUID } from './support/ids.js';
export const MINUTE = 60_000;

/** An instant `minutes` from `base`, in the server's form. */
export const at = (minutes: number, base = T0) => new Date(Date.parse(base) + minutes * MINUTE).toISOString();

/**
 * Every table a series or assignment operation may touch, so a refusal is shown to change nothing.
 */
const TABLES = [activities, series, seriesProblems, problems, problemVersions, submissions, grants];

/** Keys a problem author needs system-wide: problems are not kept in an activity. */
const AUTHOR_KEYS = ['problem:create', 'problem:read:own', 'problem:update', 'problem:share', 'problem:archive'];

export class World {
  private seq = 0;

  constructor(
    readonly j: TestJudge,
    readonly admin: JudgeClient,
    readonly clock: ManualClock,
  ) {}

  static async create(j: TestJudge, clock: ManualClock): Promise<World> {
    const admin = await j.admin();
    await admin.call(ops.createRole, { body: { name: 'Author', permissions: AUTHOR_KEYS } });
    return new World(j, admin, clock);
  }

  uniq(prefix: string): string {
    return `${prefix}-${++this.seq}`;
  }

  /**
   * A signed-in account; `author` may create problems, `how: 'cookie'` may open the event socket.
   */
  async party(prefix: string, opts: { author?: boolean; how?: 'bearer' | 'cookie' } = {}): Promise<Party> {
    const u = await this.j.user(this.uniq(prefix));
    if (opts.author) await this.j.grant(u.id, 'Author');
    return { u, c: await this.j.signIn(u, opts.how ?? 'bearer') };
  }

  /**
   * A published activity (closed to joining unless the body says otherwise), made by the
   * administrator.
   */
  activity(body: Partial<ActivityBody> = {}): Promise<Activity> {
    return this.admin.call(ops.createActivity, {
      body: { slug: this.uniq('act'), name: 'An activity', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', ...body },
    });
  }

  published(id: string, published: boolean): Promise<Activity> {
    return this.admin.call(ops.setActivityPublished, { params: { id }, body: { published } });
  }

  archived(id: string, archived: boolean): Promise<Activity> {
    return this.admin.call(ops.setActivityArchived, { params: { idOrSlug: id }, body: { archived } });
  }

  /** A problem of `owner` with a first version (a statement, or a package when asked). */
  async problem(owner: JudgeClient, opts: { package?: boolean; slug?: string; name?: string } = {}): Promise<{ problem: Problem; version: ProblemVersion }> {
    const slug = opts.slug ?? this.uniq('prob');
    const problem = await owner.call(ops.createProblem, { body: { slug, name: opts.name ?? `Problem ${slug}`, type: 'standard-io@1' } });
    const version = await this.version(owner, problem.id, opts);
    return { problem, version };
  }

  /** Appends a version: a new statement, with a package when asked. */
  async version(owner: JudgeClient, problemId: string, opts: { package?: boolean } = {}): Promise<ProblemVersion> {
    const statement = await owner.upload('statement.md', `# Statement ${this.uniq('v')}\n`, 'text/markdown');
    const body: OperationInput<typeof ops.createProblemVersion>['body'] = { statements: [{ fileId: statement.id }] };
    if (opts.package) body.package = { fileId: (await owner.upload('package.zip', await zipOf(legacyPackage()), 'application/zip')).id };
    return owner.call(ops.createProblemVersion, { params: { problemId }, body });
  }

  /**
   * A submission row (there is no submission API yet): enough for the "has submissions" refusals
   * and counts.
   */
  async submit(a: { activityId: string; seriesId: string; assignmentId: string; versionId: string; userId: string }): Promise<void> {
    await this.j.app.deps.tx.write((q) =>
      q.insert(submissions).values({
        id: randomUUID(),
        activityId: a.activityId,
        seriesId: a.seriesId,
        seriesProblemId: a.assignmentId,
        problemVersionId: a.versionId,
        userId: a.userId,
        submittedAt: this.clock.now().toISOString(),
      }),
    );
  }

  snapshot(): Promise<string> {
    return tableSnapshot(this.j, TABLES);
  }

  /**
   * The call must fail with this status and code and leave every table it could touch as it was.
   */
  async refused(call: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
    // the call is under way already: its refusal, if it comes while the snapshot is read, is handled (refusedWith looks at it)
    call.catch(() => undefined);
    const before = await this.snapshot();
    const e = await refusedWith(call, status, code);
    expect(await this.snapshot()).toBe(before);
    return e;
  }

  /**
   * A raw request (malformed on purpose) that must be refused with problem+json and change nothing.
   */
  async refusedRaw(c: JudgeClient, method: string, path: string, body: unknown, status: number, code: string): Promise<{ errors?: Record<string, string[]> }> {
    const before = await this.snapshot();
    const res = await sendJson(this.j.url, method, path, c.accessToken, body);
    expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
    expect(await this.snapshot()).toBe(before);
    return res.body as { errors?: Record<string, string[]> };
  }


  /**
   * Proves (non-)delivery: writes the instance settings, which every signed-in session is told, and
   * waits until each stream has that frame. Frames travel in order on one connection, so whatever
   * an earlier write sent a stream is in front of it; returns those earlier frames (pings left
   * out).
   */
  barrier(streams: EventStream[]): Promise<Frame[][]> {
    return barrier(this.admin, streams);
  }
}

/** Signs the user in again with a cookie, as a browser tab would, and opens its event socket. */
export async function listen(j: TestJudge, u: Pick<TestUser, 'username' | 'password'>): Promise<EventStream> {
  const s = (await j.signIn(u, 'cookie')).events();
  await s.opened;
  return s;
}

/** The frames of one type, as `{type, data}` for exact comparison. */
export const only = (frames: Frame[], type: string) => frames.filter((f) => f.type === type).map((f) => f.data);
