import type Database from 'better-sqlite3';
import { PERMISSIONS, PERMISSION_KEYS, forbidden, isPermission, type Permission } from '@judge/contract';

/** Who is calling: a signed-in user through one session. */
export interface Actor {
  userId: string;
  sessionId: string;
  via: 'bearer' | 'cookie';
}

interface HeldGrant {
  activityId: string | null;
  overrideSystem: boolean;
  keys: ReadonlySet<string>;
}

const ALL: ReadonlySet<string> = new Set(PERMISSION_KEYS);

/**
 * Effective permissions (decisions §5). REST checks and socket audiences both ask this resolver,
 * so what a session is told always matches what it could read.
 */
export class PermissionResolver {
  private readonly cache = new Map<string, HeldGrant[]>();
  /**
   * Each user's effective keys by activity ('' system-wide), made once until the next invalidate():
   * the socket hub asks about every connected user for each event, REST several times a request.
   */
  private readonly effectiveCache = new Map<string, Map<string, ReadonlySet<string>>>();
  private readonly grantsOfUser: Database.Statement<[string], { activity_id: string | null; override_system: number; permissions: string }>;

  constructor(sqlite: Database.Database) {
    this.grantsOfUser = sqlite.prepare(
      'SELECT g.activity_id, g.override_system, r.permissions FROM grants g JOIN roles r ON r.id = g.role_id WHERE g.user_id = ?',
    );
  }

  /** Forget what is cached; called after any write to grants, roles or users. */
  invalidate(): void {
    this.cache.clear();
    this.effectiveCache.clear();
    this.invalidations++;
  }

  private invalidations = 0;

  /** Changes whenever what the resolver answers may have changed: answers kept elsewhere compare it. */
  get generation(): number {
    return this.invalidations;
  }

  private grants(userId: string): HeldGrant[] {
    let held = this.cache.get(userId);
    if (!held) {
      held = this.grantsOfUser.all(userId).map((r) => ({
        activityId: r.activity_id,
        overrideSystem: r.override_system === 1,
        keys: new Set(JSON.parse(r.permissions) as string[]),
      }));
      this.cache.set(userId, held);
    }
    return held;
  }

  /** The keys a user holds in an activity, or system-wide when `activityId` is absent. */
  effective(userId: string, activityId?: string | null): ReadonlySet<string> {
    let mine = this.effectiveCache.get(userId);
    if (!mine) this.effectiveCache.set(userId, (mine = new Map()));
    const key = activityId ?? '';
    let keys = mine.get(key);
    if (!keys) mine.set(key, (keys = this.computeEffective(userId, activityId)));
    return keys;
  }

  private computeEffective(userId: string, activityId?: string | null): ReadonlySet<string> {
    const held = this.grants(userId);
    const own = activityId ? held.find((g) => g.activityId === activityId) : undefined;
    if (own?.overrideSystem) return own.keys;
    const system = held.filter((g) => g.activityId === null);
    if (system.some((g) => g.keys.has('system:administrator'))) return ALL;
    const out = new Set<string>();
    for (const g of system) for (const k of g.keys) out.add(k);
    if (own) for (const k of own.keys) out.add(k);
    return out;
  }

  /** System-scoped keys are asked of system grants only, whatever activity the call is about. */
  has(userId: string, key: Permission, activityId?: string | null): boolean {
    const scoped = PERMISSIONS[key].scope === 'system' ? null : (activityId ?? null);
    return this.effective(userId, scoped).has(key);
  }

  require(actor: Actor, key: Permission, activityId?: string | null): void {
    if (!this.has(actor.userId, key, activityId)) throw forbidden(key);
  }

  isAdministrator(userId: string): boolean {
    return this.effective(userId, null).has('system:administrator');
  }

  /** Holds `key` system-wide or in at least one activity (override rules do not narrow this). */
  holdsAnywhere(userId: string, key: Permission): boolean {
    if (this.has(userId, key)) return true;
    return this.grants(userId).some((g) => g.activityId !== null && this.effective(userId, g.activityId).has(key));
  }

  /** Activity ids where the user holds a grant (the memberships). */
  memberships(userId: string): string[] {
    return this.grants(userId).flatMap((g) => (g.activityId ? [g.activityId] : []));
  }
}

export { isPermission };
