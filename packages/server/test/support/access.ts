import { afterAll, beforeAll, expect } from 'vitest';
import { BUILT_IN_ROLES, PERMISSION_KEYS, ops, type Grant, type Role } from '@judge/contract';
import { ApiProblem, type JudgeClient } from '@judge/sdk';
import { refusedWith } from '../expect.js';
import { TestJudge, type TestUser } from '../harness.js';

/**
 * What the tests of roles, grants and permissions share: one server with its administrator and the
 * built-in roles, refusals that must leave roles and grants exactly as they were, and shorthands
 * for the calls.
 */

export const PARTICIPANT_KEYS = [...BUILT_IN_ROLES.participant.permissions];
export const inCatalogueOrder = (keys: readonly string[]) => [...keys].sort((a, b) => PERMISSION_KEYS.indexOf(a as never) - PERMISSION_KEYS.indexOf(b as never));
export const NOT_A_UUID = 'not-a-uuid';

let seq = 0;
export const uniq = (prefix: string) => `${prefix}${++seq}`;

export const problem = refusedWith;

export let j: TestJudge;
export let admin: JudgeClient;
export let builtIn: Record<'participant' | 'manager' | 'administrator', Role>;

/** Every row of roles and grants, so a refusal is shown to change nothing at all. */
export const snapshot = async () => JSON.stringify([await j.rows('roles'), await j.rows('grants')]);

/**
 * The call must fail with this status and code, and leave roles and grants exactly as they were.
 */
export async function refused(call: () => Promise<unknown>, status: number, code: string): Promise<ApiProblem> {
  const before = await snapshot();
  const counts = [(await j.count('roles')), (await j.count('grants'))];
  const e = await problem(call(), status, code);
  expect([(await j.count('roles')), (await j.count('grants'))]).toEqual(counts);
  expect(await snapshot()).toBe(before);
  return e;
}

export async function account(prefix = 'user'): Promise<{ u: TestUser; c: JudgeClient }> {
  const u = await j.user(uniq(prefix));
  return { u, c: await j.signIn(u) };
}

export async function createRole(body: { name: string; permissions: string[]; activityId?: string; description?: string }, as: JudgeClient = admin): Promise<Role> {
  return as.call(ops.createRole, { body });
}

export const grant = (body: { userId: string; roleId: string; activityId?: string; overrideSystem?: boolean }, as: JudgeClient = admin): Promise<Grant> =>
  as.call(ops.createGrant, { body });

export const mine = (c: JudgeClient, activityId?: string) => c.call(ops.myPermissions, { query: activityId ? { activityId } : {} });

export const grantsOf = (q: { userId?: string; activityId?: string; page?: number; pageSize?: number }, as: JudgeClient = admin) => as.call(ops.listGrants, { query: q });

export async function rolesNow(activityId?: string): Promise<Role[]> {
  return admin.call(ops.listRoles, { query: activityId ? { activityId } : {} });
}

/** Starts the server and reads the built-in roles before the calling block, and stops it after. */
export function useAccessServer(): void {
  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    const roles = await rolesNow();
    builtIn = Object.fromEntries(roles.filter((r) => r.builtInKey).map((r) => [r.builtInKey, r])) as typeof builtIn;
  });
  afterAll(() => j.stop());
}
