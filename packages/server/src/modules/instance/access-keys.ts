import { notFound, type AccessKeyEntry } from '@judge/contract';
import { asc, eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { instanceAccessKeys } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';

/**
 * The key each access key is read with: the feature that uses it. The UVa archive browser reads its
 * own with the key that imports from outside; every other value stays with administrators.
 */
const READ_WITH: Record<string, 'problem:import:external'> = { uvaexplorer: 'problem:import:external' };

/**
 * Named secrets of the instance (an archive's API key, a licence): written by whoever may change the
 * instance, listed by name, read one at a time through `value`. Values are never logged, never in a
 * list and never in an event.
 */
export class AccessKeys {
  constructor(
    private readonly d: Deps,
    private readonly announce: (q: Q, out: Outbox) => Promise<void>,
  ) {}

  async list(actor: Actor): Promise<AccessKeyEntry[]> {
    await this.d.permissions.require(actor, 'instance:update');
    return this.d.tx.read((q) => this.entries(q));
  }

  private async entries(q: Q): Promise<AccessKeyEntry[]> {
    const rows = await q.select({ name: instanceAccessKeys.name, updatedAt: instanceAccessKeys.updatedAt, expiresAt: instanceAccessKeys.expiresAt }).from(instanceAccessKeys).orderBy(asc(instanceAccessKeys.name));
    return rows.map((r) => ({ name: r.name, updatedAt: r.updatedAt, ...(r.expiresAt ? { expiresAt: r.expiresAt } : {}) }));
  }

  /** Stores or replaces a key; an empty value removes it. */
  async set(actor: Actor, name: string, value: string, expiresAt: string | null | undefined): Promise<AccessKeyEntry[]> {
    await this.d.permissions.require(actor, 'instance:update');
    const list = await this.d.tx.write(async (q, out) => {
      if (value === '') await q.delete(instanceAccessKeys).where(eq(instanceAccessKeys.name, name));
      else {
        const row = { value, expiresAt: expiresAt ?? null, updatedAt: iso(this.d.clock.now()), updatedBy: actor.userId };
        await q
          .insert(instanceAccessKeys)
          .values({ name, ...row })
          .onConflictDoUpdate({ target: instanceAccessKeys.name, set: row });
      }
      // the settings every page reads do not change, but the instance did: its pages hear it
      await this.announce(q, out);
      return this.entries(q);
    });
    this.d.log.info({ name, removed: value === '', by: actor.userId }, 'access key changed');
    return list;
  }

  /** The value, with the permission of the feature that uses the key; unknown and expired keys are 404. */
  async value(actor: Actor, name: string): Promise<{ name: string; value: string; expiresAt?: string }> {
    await this.d.permissions.require(actor, READ_WITH[name] ?? 'system:administrator');
    const [row] = await this.d.tx.read((q) => q.select().from(instanceAccessKeys).where(eq(instanceAccessKeys.name, name)).limit(1));
    if (!row || (row.expiresAt && row.expiresAt <= iso(this.d.clock.now()))) throw notFound('access key');
    this.d.log.info({ name, by: actor.userId }, 'access key read');
    return { name: row.name, value: row.value, ...(row.expiresAt ? { expiresAt: row.expiresAt } : {}) };
  }
}
