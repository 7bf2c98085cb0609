import { count, eq, or } from 'drizzle-orm';
import type { ManagedUser } from '@judge/contract';
import type { Q } from '../../db/storage.js';
import { grants, users } from '../../db/schema.js';
import { compact } from '../../util.js';

export type UserRow = typeof users.$inferSelect;

export const usernameKey = (u: string): string => u.toLowerCase();
export const emailKey = (e: string | null | undefined): string | null => (e ? e.trim().toLowerCase() : null);

/** Asked on most requests: one row by primary key. */
export async function findUserById(q: Q, id: string): Promise<UserRow | undefined> {
  return (await q.select().from(users).where(eq(users.id, id)).limit(1))[0];
}

/** A login name or an email address, compared without regard to case (both keys are stored lowercased). */
export async function findUserByLogin(q: Q, login: string): Promise<UserRow | undefined> {
  const key = login.trim().toLowerCase();
  const rows = await q.select().from(users).where(or(eq(users.usernameKey, key), eq(users.emailKey, key)));
  // a login named like another account's address: the login wins, as it always did
  return rows.find((u) => u.usernameKey === key) ?? rows[0];
}

/** Text made into the username alphabet (letters, digits, `.`, `-`, `_`; accents dropped), at most 48 long: the start of a login made for someone. */
export function loginStem(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]/g, '')
    .replace(/^[._-]+/, '')
    .slice(0, 48);
}

/** `stem` itself when no account has it, else the first of stem2, stem3 … that is free. */
export async function freeUsername(q: Q, stem: string): Promise<string> {
  if (!(await usernameTaken(q, stem))) return stem;
  for (let i = 2; ; i++) if (!(await usernameTaken(q, `${stem}${i}`))) return `${stem}${i}`;
}

export async function usernameTaken(q: Q, username: string, exceptId?: string): Promise<boolean> {
  const row = (await q.select({ id: users.id }).from(users).where(eq(users.usernameKey, usernameKey(username))).limit(1))[0];
  return !!row && row.id !== exceptId;
}

export async function emailTaken(q: Q, email: string, exceptId?: string): Promise<boolean> {
  const row = (await q.select({ id: users.id }).from(users).where(eq(users.emailKey, emailKey(email)!)).limit(1))[0];
  return !!row && row.id !== exceptId;
}

export async function grantCount(q: Q, userId: string): Promise<number> {
  return (await q.select({ n: count() }).from(grants).where(eq(grants.userId, userId)))[0]?.n ?? 0;
}

export function displayName(u: Pick<UserRow, 'firstName' | 'lastName' | 'username'>): string {
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ');
  return full || u.username;
}

export function toManagedUser(u: UserRow, grantsHeld: number): ManagedUser {
  return compact({
    id: u.id,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    emailConfirmed: u.emailConfirmed,
    approvedAt: u.approvedAt,
    note: u.note,
    tags: u.tags,
    isTemporary: u.isTemporary,
    expiresAt: u.expiresAt,
    blockedAt: u.blockedAt,
    blockedReason: u.blockedReason,
    createdAt: u.createdAt,
    lastSeenAt: u.lastSeenAt,
    twoFactorEnabled: u.twoFactorEnabled,
    grantCount: grantsHeld,
  }) as ManagedUser;
}
