import { and, eq, sql } from 'drizzle-orm';
import type { ManagedUser } from '@judge/contract';
import type { Db } from '../../db/database.js';
import { grants, users } from '../../db/schema.js';
import { compact } from '../../util.js';

export type UserRow = typeof users.$inferSelect;

export const usernameKey = (u: string): string => u.toLowerCase();
export const emailKey = (e: string | null | undefined): string | null => (e ? e.trim().toLowerCase() : null);

const byIdStatements = new WeakMap<Db, { get(p: { id: string }): UserRow | undefined }>();

/** Asked on most requests, so prepared once per database rather than built and prepared each call. */
export function findUserById(db: Db, id: string): UserRow | undefined {
  let st = byIdStatements.get(db);
  if (!st) byIdStatements.set(db, (st = db.select().from(users).where(eq(users.id, sql.placeholder('id'))).prepare()));
  return st.get({ id });
}

/** A login name or an email address, compared without regard to case. */
export function findUserByLogin(db: Db, login: string): UserRow | undefined {
  const key = login.trim().toLowerCase();
  return db.select().from(users).where(eq(users.usernameKey, key)).get() ?? db.select().from(users).where(eq(users.emailKey, key)).get();
}

export function usernameTaken(db: Db, username: string, exceptId?: string): boolean {
  const row = db.select({ id: users.id }).from(users).where(eq(users.usernameKey, usernameKey(username))).get();
  return !!row && row.id !== exceptId;
}

export function emailTaken(db: Db, email: string, exceptId?: string): boolean {
  const row = db.select({ id: users.id }).from(users).where(eq(users.emailKey, emailKey(email)!)).get();
  return !!row && row.id !== exceptId;
}

export function grantCount(db: Db, userId: string): number {
  return db.select({ n: sql<number>`count(*)` }).from(grants).where(and(eq(grants.userId, userId))).get()?.n ?? 0;
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
    grantCount: grantsHeld,
  }) as ManagedUser;
}
