import { describe, expect, it } from 'vitest';
import type { UserPermissions } from '../src/auth/permissions.js';
import { ConnectedPermissions, type PermissionSource } from '../src/events/connected-permissions.js';

/**
 * The socket hub's held permissions (events/connected-permissions.ts): an answer is never taken as
 * current when a change was committed while it was being read, and a failed reload answers nobody.
 */

/** A source whose answers say which generation they were read at, and whose reads finish when told. */
function source() {
  const waiting: (() => void)[] = [];
  let failing = false;
  const s = {
    generation: 0,
    read: (userId: string, at: number): UserPermissions => ({ userId, isAdministrator: () => at > 0 }) as unknown as UserPermissions,
    async of(userId: string) {
      await new Promise<void>((r) => waiting.push(r));
      if (failing) throw new Error('read failed');
      return s.read(userId, s.generation);
    },
    async ofUsers(ids: Iterable<string>) {
      await new Promise<void>((r) => waiting.push(r));
      if (failing) throw new Error('read failed');
      return new Map([...ids].map((id) => [id, s.read(id, s.generation)]));
    },
    /** Finishes the oldest read under way. */
    finishOldest: () => waiting.shift()!(),
    /** Finishes the reads begun so far. */
    finish: async () => {
      for (const r of waiting.splice(0)) r();
      await new Promise((r) => setImmediate(r));
    },
    fail: (v: boolean) => (failing = v),
  };
  return s satisfies PermissionSource & object;
}

describe('the permissions the socket hub holds', () => {
  it('counts a change committed while a user was loaded as not applied: stale until reloaded', async () => {
    const s = source();
    const held = new ConnectedPermissions(s);
    const loading = held.load('u');
    s.generation = 1; // a grant changed while the read ran
    await s.finish();
    held.hold('u', await loading);
    expect(held.stale).toBe(true);
    const reload = held.reload();
    await s.finish();
    await reload;
    expect(held.stale).toBe(false);
    expect(held.get('u')!.isAdministrator()).toBe(true);
  });

  it('stays stale when a user loaded before a reload began is held during it', async () => {
    const s = source();
    const held = new ConnectedPermissions(s);
    const first = held.load('a');
    await s.finish();
    held.hold('a', await first);
    const late = held.load('b'); // begun at generation 0
    s.generation = 1;
    const reload = held.reload(); // begun at generation 1, reads only 'a'
    s.finishOldest();
    held.hold('b', await late); // while the reload still waits for its read
    await s.finish();
    await reload;
    expect(held.get('a')!.isAdministrator()).toBe(true);
    expect(held.stale).toBe(true);
  });

  it('answers nobody after a failed reload, and again once one succeeds', async () => {
    const s = source();
    const held = new ConnectedPermissions(s);
    const loading = held.load('u');
    await s.finish();
    held.hold('u', await loading);
    s.generation = 1;
    s.fail(true);
    const failed = held.reload().then(
      () => 'reloaded',
      (e: Error) => e.message,
    );
    await s.finish();
    expect(await failed).toBe('read failed');
    held.withhold();
    expect(held.get('u')).toBeUndefined();
    expect(held.stale).toBe(true);
    s.fail(false);
    const retry = held.reload();
    await s.finish();
    await retry;
    expect(held.get('u')!.isAdministrator()).toBe(true);
    expect(held.stale).toBe(false);
  });
});
