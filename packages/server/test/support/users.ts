import { afterAll, beforeAll, expect } from 'vitest';
import { ops, type ManagedUser } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { refusedWith, sendJson } from '../expect.js';
import { TestJudge, raw, type TestUser } from '../harness.js';

/**
 * What the user administration tests share: one server with its administrator, logins no other test
 * uses, the stored records that prove a refusal changed nothing, and users holding chosen
 * permissions.
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export let j: TestJudge;
export let admin: JudgeClient;
export let adminId: string;
let seq = 0;
/** A login no other test uses. */
export const fresh = (stem: string) => `${stem}-${++seq}`;

export const url = (path: string) => `${j.url}/api/v1${path}`;

export const refused = refusedWith;
export const send = (method: string, path: string, token: string | undefined, body?: unknown) => sendJson(j.url, method, path, token, body);

/** The stored record, to prove a refused request changed nothing. */
export async function userRow(id: string): Promise<Record<string, unknown>> {
  return (await j.query('SELECT * FROM users WHERE id = ?', id))[0]!;
}

export async function sql(statement: string, ...args: unknown[]): Promise<void> {
  await j.query(statement, ...args);
}

/** What a sign-in answers: 200, or the 401 detail (Failed, LockedOut, ...). */
export async function loginResult(login: string, password: string): Promise<string> {
  const res = await raw(url('/identity/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: login, password }) });
  if (res.status === 200) return 'ok';
  expect(res.status).toBe(401);
  return res.body.detail as string;
}

/** The status a bearer token gets on an authenticated read. */
export async function tokenStatus(c: JudgeClient): Promise<number> {
  const res = c.accessToken
    ? await raw(url('/account'), { token: c.accessToken })
    : await raw(url('/account'), { headers: { cookie: `judge_session=${c.cookie}` } });
  return res.status;
}

async function createRole(name: string, permissions: string[]) {
  return admin.call(ops.createRole, { body: { name, permissions } });
}

/** A user who holds exactly the given keys system-wide, through a custom role. */
export async function holderOf(stem: string, permissions: string[]): Promise<{ user: TestUser; client: JudgeClient }> {
  const roleName = fresh(`role-${stem}`);
  await createRole(roleName, permissions);
  const user = await j.user(fresh(stem));
  await j.grant(user.id, roleName);
  return { user, client: await j.signIn(user) };
}

export async function managed(id: string): Promise<ManagedUser> {
  const username = (await userRow(id)).username as string;
  const page = await admin.call(ops.listManagedUsers, { query: { search: username, includeBlocked: 'true', pageSize: 200 } });
  const found = page.items.find((u) => u.id === id);
  if (!found) throw new Error(`user ${id} not listed`);
  return found;
}

/**
 * Starts the server and signs the administrator in before the calling file's tests, and stops it
 * after them.
 */
export function useUsersServer(): void {
  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    adminId = (await admin.call(ops.getAccount)).userId;
  });
  afterAll(() => j.stop());
}
