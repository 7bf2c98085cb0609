import { notFound, validation, type IssuedCredentials } from '@judge/contract';
import { like } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { generatePassword, iso, newId } from '../../util.js';
import { grantBuiltInRole } from '../access/index.js';
import { findActivity, requireNotArchived } from '../policy/index.js';
import { announceUser, usernameKey } from '../users/index.js';

/** How long temporary accounts sign in when no `expiresAt` is given. */
const DEFAULT_DAYS = 7;

export interface TemporaryUsersInput {
  prefix: string;
  count: number;
  expiresAt?: string | undefined;
  activityId?: string | undefined;
}

/**
 * The logins `prefix` + a number, numbered on from the highest taken and zero-padded to one width
 * (guest01 … guest30), so a second batch continues where the first ended and none is taken.
 */
async function freeLogins(q: Q, prefix: string, count: number): Promise<string[]> {
  const stem = usernameKey(prefix);
  const escaped = stem.replace(/[\\%_]/g, (c) => `\\${c}`);
  const taken = await q.select({ key: users.usernameKey }).from(users).where(like(users.usernameKey, `${escaped}%`));
  let highest = 0;
  for (const { key } of taken) {
    const rest = key.slice(stem.length);
    if (/^\d+$/.test(rest)) highest = Math.max(highest, Number(rest));
  }
  const width = Math.max(2, String(highest + count).length);
  return Array.from({ length: count }, (_, i) => `${prefix}${String(highest + i + 1).padStart(width, '0')}`);
}

/**
 * Temporary accounts (the interface's `POST /users/temporary`): for an event's guests or a
 * one-day contest, made in one go with generated passwords shown once. They stop signing in at
 * `expiresAt` (NotAllowed, decisions §4) and the retention worker removes them 30 days later
 * unless they submitted. With an activity they are enrolled there as participants, and a manager
 * of that activity may make them (the built-in manager holds `user:create:temporary` there).
 */
export class TemporaryUsersService {
  constructor(private readonly d: Deps) {}

  async create(actor: Actor, input: TemporaryUsersInput): Promise<IssuedCredentials[]> {
    const now = this.d.clock.now();
    const expiresAt = input.expiresAt ?? iso(new Date(now.getTime() + DEFAULT_DAYS * 86_400_000));
    if (expiresAt <= iso(now)) throw validation('expiresAt', 'must be in the future');
    if (input.activityId) {
      const a = await this.d.tx.read((q) => findActivity(q, input.activityId!));
      if (!a) throw notFound('activity');
      await this.d.permissions.require(actor, 'user:create:temporary', a.id);
    } else {
      await this.d.permissions.require(actor, 'user:create:temporary');
    }
    const passwords = Array.from({ length: input.count }, () => generatePassword());
    // hashed before the write (Argon2id takes a while each): the write holds SQLite's lock only to insert
    const hashes = await Promise.all(passwords.map((p) => this.d.hasher.hash(p)));
    // PostgreSQL: SERIALIZABLE (retried) with the unique login key: a batch racing another for the
    // same numbers fails and is retried, numbering on from what the other committed
    return this.d.tx.write(async (q, out) => {
      let activityId: string | undefined;
      if (input.activityId) {
        const a = await findActivity(q, input.activityId);
        if (!a) throw notFound('activity');
        requireNotArchived(a);
        activityId = a.id;
      }
      const logins = await freeLogins(q, input.prefix, input.count);
      const created = iso(now);
      const issued: IssuedCredentials[] = [];
      for (const [i, username] of logins.entries()) {
        const [row] = await q
          .insert(users)
          .values({ id: newId(), username, usernameKey: usernameKey(username), passwordHash: hashes[i]!, isTemporary: true, expiresAt, origin: 'staff', approvedAt: created, createdAt: created })
          .returning();
        if (activityId) await grantBuiltInRole(q, this.d, row!.id, 'participant', activityId, out);
        await announceUser(q, row!, out);
        issued.push({ userId: row!.id, username, password: passwords[i]! });
      }
      this.d.log.info({ by: actor.userId, count: issued.length, prefix: input.prefix, activityId }, 'temporary accounts created');
      return issued;
    });
  }
}
