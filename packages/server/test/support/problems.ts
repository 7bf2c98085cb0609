import { afterAll, beforeAll, expect } from 'vitest';
import { ops } from '@judge/contract';
import type { ApiProblem, JudgeClient } from '@judge/sdk';
import { files, problemShares, problemVersionFiles, problemVersions, problems, seriesProblems } from '../../src/db/schema.js';
import { refusedWith, sendJson } from '../expect.js';
import { ManualClock, TestJudge, type TestUser } from '../harness.js';
import { tableSnapshot } from './db-snapshot.js';

/**
 * What the problem-library tests share: one server, users in each relation to a problem (a plain
 * user, the owner, a user it is shared with, a reader of every problem through a custom role, the
 * administrator), and refusals that must leave the tables as they were.
 */

let seq = 0;
export const uniq = (prefix: string) => `${prefix}${++seq}`;

export let j: TestJudge;
export const clock = new ManualClock();
export let admin: JudgeClient;
/** Holds the built-in manager role system-wide: every problem key but delete and read:all. */
export let author: { u: TestUser; c: JudgeClient };
export let colleague: { u: TestUser; c: JudgeClient };
/** No grants at all. */
export let plain: { u: TestUser; c: JudgeClient };
/** A custom role with problem:read:all only. */
export let librarian: { u: TestUser; c: JudgeClient };
/** A custom role with problem:read:all and problem:update. */
export let editor: { u: TestUser; c: JudgeClient };
/** A custom role with problem:read:own, problem:create, problem:update and problem:delete. */
export let remover: { u: TestUser; c: JudgeClient };

export const snapshot = () => tableSnapshot(j, [problems, problemShares, problemVersions, problemVersionFiles, files, seriesProblems]);

/** The call must fail with this status and code and change no problem, share, version or file. */
export async function refused(call: Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
  // the call is under way already: its refusal, if it comes while the snapshot is read, is handled (refusedWith looks at it)
  call.catch(() => undefined);
  const before = await snapshot();
  const e = await refusedWith(call, status, code);
  expect(await snapshot()).toBe(before);
  return e;
}

async function account(prefix: string, role?: string, extra: { firstName?: string; lastName?: string } = {}) {
  const u = await j.user(uniq(prefix), extra);
  if (role) await j.grant(u.id, role);
  return { u, c: await j.signIn(u) };
}

export async function cookieAccount(prefix: string, role?: string) {
  const u = await j.user(uniq(prefix));
  if (role) await j.grant(u.id, role);
  const c = await j.signIn(u, 'cookie');
  return { u, c };
}

export const create = (c: JudgeClient, body: { slug?: string; name?: string; type?: string; external?: boolean } = {}) =>
  c.call(ops.createProblem, { body: { slug: body.slug ?? uniq('prob-'), name: body.name ?? 'A problem', type: body.type ?? 'standard-io@1', ...(body.external !== undefined ? { external: body.external } : {}) } });
export const get = (c: JudgeClient, id: string) => c.call(ops.getProblem, { params: { id } });
export const list = (c: JudgeClient, query: { page?: number; pageSize?: number; search?: string; mineOnly?: 'true' | 'false'; sharedOnly?: 'true' | 'false'; includeArchived?: 'true' | 'false' }) =>
  c.call(ops.listProblems, { query: query as never });
export const share = (c: JudgeClient, id: string, visibility: 'private' | 'shared' | 'instance', sharedWith?: string[]) =>
  c.call(ops.setProblemVisibility, { params: { id }, body: { visibility, ...(sharedWith ? { sharedWith } : {}) } });
export const statementVersion = async (c: JudgeClient, problemId: string, text = '# Statement') => {
  const f = await c.upload('statement.md', text, 'text/markdown');
  return c.call(ops.createProblemVersion, { params: { problemId }, body: { statements: [{ fileId: f.id }] } });
};
export const send = (method: string, path: string, c: JudgeClient, body?: unknown) => sendJson(j.url, method, path, c.accessToken, body);

/** Starts the server and makes the users before the calling block, and stops it after. */
export function useProblemLibrary(): void {
  beforeAll(async () => {
    j = await TestJudge.start({ clock });
    admin = await j.admin();
    await admin.call(ops.createRole, { body: { name: 'Librarian', permissions: ['problem:read:all'] } });
    await admin.call(ops.createRole, { body: { name: 'Problem editor', permissions: ['problem:read:all', 'problem:update'] } });
    await admin.call(ops.createRole, { body: { name: 'Remover', permissions: ['problem:read:own', 'problem:create', 'problem:update', 'problem:delete'] } });
    author = await account('author', 'manager', { firstName: 'Ada', lastName: 'Lovelace' });
    colleague = await account('colleague', 'manager');
    plain = await account('plain');
    librarian = await account('librarian', 'Librarian');
    editor = await account('editor', 'Problem editor');
    remover = await account('remover', 'Remover');
  });
  afterAll(() => j.stop());
}
