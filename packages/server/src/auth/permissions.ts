import { ApiError, PERMISSIONS, PERMISSION_KEYS, forbidden, isPermission, type Permission } from '@judge/contract';
import { eq, sql } from 'drizzle-orm';
import { grants, roles } from '../db/schema.js';
import { prepared, type Q } from '../db/storage.js';
import type { Transactor } from '../db/transactor.js';

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

type GrantRow = { activityId: string | null; overrideSystem: boolean; permissions: string[] };

const ALL: ReadonlySet<string> = new Set(PERMISSION_KEYS);

const NONE: ReadonlySet<string> = new Set();

/** Keys a policy withholds from a user's grants, kept for the refusal to say why (see Permissions.withhold). */
const withheldOf = new WeakMap<HeldGrant[], ReadonlySet<string>>();

function held(rows: GrantRow[], withheld: ReadonlySet<string> = NONE): HeldGrant[] {
  const out = rows.map((r) => ({ activityId: r.activityId, overrideSystem: r.overrideSystem, keys: new Set(r.permissions.filter((k) => !withheld.has(k))) }));
  if (withheld.size) withheldOf.set(out, withheld);
  return out;
}

function refusal(grantsHeld: HeldGrant[], key: Permission) {
  if (!withheldOf.get(grantsHeld)?.has(key)) return forbidden(key);
  return ApiError.of('forbidden', `This needs the permission ${key}, which this installation gives only to accounts with two-factor sign-in: turn it on in your account first`);
}

/**
 * Which keys to withhold from a user's grants (the instance's two-factor rule), asked inside the
 * read that loads the grants, with its `q`.
 */
export type PermissionPolicy = (userId: string, q: Q) => Promise<ReadonlySet<string>>;

const GRANT_COLUMNS = { activityId: grants.activityId, overrideSystem: grants.overrideSystem, permissions: roles.permissions };

/**
 * A user's grants with their roles' keys: the one query behind every permission answer, read on a
 * request whose user's grants are not cached; built once per `q` (storage.ts, prepared()).
 */
const grantsOf = prepared((q) => q.select(GRANT_COLUMNS).from(grants).innerJoin(roles, eq(roles.id, grants.roleId)).where(eq(grants.userId, sql.placeholder('userId'))).prepare());
const readGrants = (q: Q, userId: string): Promise<GrantRow[]> => grantsOf(q, { userId });

/**
 * Each held-grants list's effective keys by activity ('' system-wide), made once: the socket hub asks
 * about every connected user for each event, REST several times a request. A user's list is replaced
 * when the cache is invalidated, so what is kept here goes with it.
 */
const effectiveKept = new WeakMap<HeldGrant[], Map<string, ReadonlySet<string>>>();

function effectiveIn(grantsHeld: HeldGrant[], activityId?: string | null): ReadonlySet<string> {
  let kept = effectiveKept.get(grantsHeld);
  if (!kept) effectiveKept.set(grantsHeld, (kept = new Map()));
  const key = activityId ?? '';
  let keys = kept.get(key);
  if (!keys) kept.set(key, (keys = computeEffective(grantsHeld, activityId)));
  return keys;
}

function computeEffective(grantsHeld: HeldGrant[], activityId?: string | null): ReadonlySet<string> {
  const own = activityId ? grantsHeld.find((g) => g.activityId === activityId) : undefined;
  if (own?.overrideSystem) return own.keys;
  const system = grantsHeld.filter((g) => g.activityId === null);
  if (system.some((g) => g.keys.has('system:administrator'))) return ALL;
  const out = new Set<string>();
  for (const g of system) for (const k of g.keys) out.add(k);
  if (own) for (const k of own.keys) out.add(k);
  return out;
}

/** System-scoped keys are asked of system grants only, whatever activity the call is about. */
function hasIn(grantsHeld: HeldGrant[], key: Permission, activityId?: string | null): boolean {
  const scoped = PERMISSIONS[key].scope === 'system' ? null : (activityId ?? null);
  return effectiveIn(grantsHeld, scoped).has(key);
}

/** Holds `key` system-wide or in at least one activity (override rules do not narrow this). */
function holdsAnywhereIn(grantsHeld: HeldGrant[], key: Permission): boolean {
  if (hasIn(grantsHeld, key)) return true;
  return grantsHeld.some((g) => g.activityId !== null && effectiveIn(grantsHeld, g.activityId).has(key));
}

const membershipsIn = (grantsHeld: HeldGrant[]): string[] => grantsHeld.flatMap((g) => (g.activityId ? [g.activityId] : []));

/** What one user may do, answered from grants already loaded (see Permissions.of). */
export interface UserPermissions {
  readonly userId: string;
  effective(activityId?: string | null): ReadonlySet<string>;
  has(key: Permission, activityId?: string | null): boolean;
  /** Throws the refusal naming `key` when the user lacks it. */
  require(key: Permission, activityId?: string | null): void;
  isAdministrator(): boolean;
  holdsAnywhere(key: Permission): boolean;
  memberships(): string[];
}

function viewOf(userId: string, grantsHeld: HeldGrant[]): UserPermissions {
  return {
    userId,
    effective: (activityId) => effectiveIn(grantsHeld, activityId),
    has: (key, activityId) => hasIn(grantsHeld, key, activityId),
    require: (key, activityId) => {
      if (!hasIn(grantsHeld, key, activityId)) throw refusal(grantsHeld, key);
    },
    isAdministrator: () => effectiveIn(grantsHeld, null).has('system:administrator'),
    holdsAnywhere: (key) => holdsAnywhereIn(grantsHeld, key),
    memberships: () => membershipsIn(grantsHeld),
  };
}

/**
 * Effective permissions (decisions §5). REST checks and socket audiences both ask this resolver,
 * so what a session is told always matches what it could read. Each user's grants are cached until
 * a write touches grants, roles or accounts: a cached answer costs no query and no wait beyond the
 * promise. Inside a transaction, pass its `q`: the grants are then read in it (on SQLite a read of
 * its own would wait for the open write, which waits for this answer).
 */
export class Permissions {
  private readonly cache = new Map<string, HeldGrant[]>();
  /** Bumped by every invalidation, so that a read begun before it never fills the cache with what it replaced. */
  private invalidations = 0;

  private policy: PermissionPolicy | undefined;

  constructor(private readonly tx: Transactor) {}

  /**
   * Set once at start: keys to withhold from a user's grants while they hold them (the instance's
   * "two-factor sign-in required for" rule). Whatever the policy reads must invalidate this cache
   * when it changes (the writes call `out.touchPermissions()`).
   */
  withhold(policy: PermissionPolicy): void {
    this.policy = policy;
    this.invalidate();
  }

  /** Changes whenever what the resolver answers may have changed: answers kept elsewhere compare it. */
  get generation(): number {
    return this.invalidations;
  }

  /** Forget what is cached; called after any write to grants, roles or users. */
  invalidate(): void {
    this.cache.clear();
    this.invalidations++;
  }

  private grants(userId: string, q?: Q): HeldGrant[] | Promise<HeldGrant[]> {
    return this.cache.get(userId) ?? this.load(userId, q);
  }

  private async load(userId: string, q?: Q): Promise<HeldGrant[]> {
    const generation = this.invalidations;
    const policy = this.policy;
    const h = await this.tx.read(async (r) => held(await readGrants(r, userId), policy ? await policy(userId, r) : NONE), q);
    if (generation === this.invalidations) this.cache.set(userId, h);
    return h;
  }

  /** The keys a user holds in an activity, or system-wide when `activityId` is absent. */
  async effective(userId: string, activityId?: string | null, q?: Q): Promise<ReadonlySet<string>> {
    return effectiveIn(await this.grants(userId, q), activityId);
  }

  async has(userId: string, key: Permission, activityId?: string | null, q?: Q): Promise<boolean> {
    return hasIn(await this.grants(userId, q), key, activityId);
  }

  async require(actor: Actor, key: Permission, activityId?: string | null, q?: Q): Promise<void> {
    const g = await this.grants(actor.userId, q);
    if (!hasIn(g, key, activityId)) throw refusal(g, key);
  }

  async isAdministrator(userId: string, q?: Q): Promise<boolean> {
    return effectiveIn(await this.grants(userId, q), null).has('system:administrator');
  }

  async holdsAnywhere(userId: string, key: Permission, q?: Q): Promise<boolean> {
    return holdsAnywhereIn(await this.grants(userId, q), key);
  }

  /**
   * One user's permissions, loaded once (or taken from the cache) and then asked synchronously: for
   * code that asks several questions about one user, or asks inside a `filter`.
   */
  async of(userId: string, q?: Q): Promise<UserPermissions> {
    return viewOf(userId, await this.grants(userId, q));
  }

  /** `of()` for several users at once: the audiences of a message or a staff list. */
  async ofUsers(userIds: Iterable<string>, q?: Q): Promise<Map<string, UserPermissions>> {
    const out = new Map<string, UserPermissions>();
    for (const userId of new Set(userIds)) out.set(userId, viewOf(userId, await this.grants(userId, q)));
    return out;
  }

  /** Activity ids where the user holds a grant (the memberships). */
  async memberships(userId: string, q?: Q): Promise<string[]> {
    return membershipsIn(await this.grants(userId, q));
  }
}

export { isPermission };
