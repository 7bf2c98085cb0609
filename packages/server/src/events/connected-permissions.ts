import type { UserPermissions } from '../auth/permissions.js';

/** What the hub asks of `Permissions` (auth/permissions.ts): one user's answers, several users', and whether they may have changed. */
export interface PermissionSource {
  of(userId: string): Promise<UserPermissions>;
  ofUsers(userIds: Iterable<string>): Promise<Map<string, UserPermissions>>;
  /** Changes whenever what `of` answers may have changed (a write touched grants, roles or users). */
  readonly generation: number;
}

/** One user's permissions as loaded, with the source's generation when the load began. */
export interface LoadedPermissions {
  permissions: UserPermissions;
  generation: number;
}

/**
 * The permissions of the users with an open socket, held so that the hub can decide each event's
 * audience within one turn: loaded when a socket authenticates, and reloaded for every connected
 * user once the source's generation moved past what any of them reflects. The hub asks `stale`
 * before each dispatch and awaits `reload()` only then, so a revocation committed before an event
 * was published is applied to that event.
 */
export class ConnectedPermissions {
  private readonly byUser = new Map<string, LoadedPermissions>();
  /** The oldest generation a held answer reflects; only compared for equality with the source's. */
  private oldest: number;
  /** Changes whenever a held answer is replaced: what is kept from them elsewhere (StaffAudiences) compares it. */
  version = 0;
  /** Set when a reload failed: no held answer is given until one succeeds, since any may be revoked. */
  private withheld = false;

  constructor(private readonly source: PermissionSource) {
    this.oldest = source.generation;
  }

  /**
   * Loads one user's permissions, for a socket about to open. The generation is read before the
   * load begins: a change committed while it runs makes the answer stale, never current.
   */
  async load(userId: string): Promise<LoadedPermissions> {
    const generation = this.source.generation;
    return { permissions: await this.source.of(userId), generation };
  }

  /** Holds what `load` answered for a user whose socket opened. */
  hold(userId: string, loaded: LoadedPermissions): void {
    const first = this.byUser.size === 0;
    this.byUser.set(userId, loaded);
    this.oldest = first ? loaded.generation : Math.min(this.oldest, loaded.generation);
    this.version++;
  }

  /** The user closed their last socket. */
  forget(userId: string): void {
    this.byUser.delete(userId);
  }

  clear(): void {
    this.byUser.clear();
  }

  get(userId: string): UserPermissions | undefined {
    return this.withheld ? undefined : this.byUser.get(userId)?.permissions;
  }

  /** A reload failed: answer nobody until the next one succeeds (they stay stale, so the next dispatch tries again). */
  withhold(): void {
    this.withheld = true;
    this.version++;
  }

  /** Whether a held answer may be out of date: permissions changed since it was loaded. */
  get stale(): boolean {
    return this.byUser.size > 0 && this.oldest !== this.source.generation;
  }

  /**
   * Loads every connected user's permissions again. A user who connected meanwhile keeps what their
   * own load answered, and the oldest generation counts theirs, so a load older than this one is
   * reloaded at the next dispatch.
   */
  async reload(): Promise<void> {
    const generation = this.source.generation;
    const fresh = await this.source.ofUsers([...this.byUser.keys()]);
    let oldest = generation;
    for (const [userId, held] of this.byUser) {
      const p = fresh.get(userId);
      // a user who connected again during the reload holds a load of their own: keep the newer one
      if (p && held.generation <= generation) this.byUser.set(userId, { permissions: p, generation });
      else oldest = Math.min(oldest, held.generation);
    }
    this.oldest = oldest;
    this.withheld = false;
    this.version++;
  }
}
