import { ApiError, notFound, type LtiPlatform, type LtiRegistration } from '@judge/contract';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { ltiIdentities, ltiPlacements, ltiPlatforms, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId } from '../../util.js';

export type PlatformRow = typeof ltiPlatforms.$inferSelect;

export interface PlatformInput {
  displayName: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  keySetUrl: string;
  authTokenUrl: string;
  authLoginUrl: string;
  isIdentityAuthority?: boolean | undefined;
  identityNamespace?: string | undefined;
  usernameClaim?: string | undefined;
  enabled?: boolean | undefined;
}

const DEFAULT_USERNAME_CLAIM = 'email';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether tokens and scores may travel to a URL: https, or http on this machine (trying a
 * platform out, and the tests' simulated LMS); anywhere else they would cross the network in the clear.
 */
export function secureUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
  } catch {
    return false;
  }
}

/** The paths a platform is told about (the registration): under the public URL, else the request's origin. */
export const LTI_PATHS = { login: '/api/v1/lti/login', launch: '/api/v1/lti/launch', keySet: '/api/v1/lti/jwks.json' } as const;

/** What a link's custom parameters may say (decisions §21); the registration lists them. */
export const CUSTOM_PARAMETERS = ['activity=ACTIVITY-SLUG', 'problem=PROBLEM-SLUG'];

function toPlatform(p: PlatformRow): LtiPlatform {
  return compact({
    id: p.id,
    displayName: p.displayName,
    issuer: p.issuer,
    clientId: p.clientId,
    deploymentId: p.deploymentId,
    keySetUrl: p.keySetUrl,
    authTokenUrl: p.authTokenUrl,
    authLoginUrl: p.authLoginUrl,
    isIdentityAuthority: p.isIdentityAuthority,
    identityNamespace: p.identityNamespace,
    usernameClaim: p.usernameClaim,
    enabled: p.enabled,
    createdAt: p.createdAt,
  }) as LtiPlatform;
}

export async function platformRow(q: Q, id: string): Promise<PlatformRow> {
  const [row] = await q.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, id)).limit(1);
  if (!row) throw notFound('LTI platform');
  return row;
}

/**
 * The LMSs registered as LTI 1.3 platforms (decisions §21), managed with provider:manage. The
 * duplicate check reads and inserts in one write: SQLite's one writer, PostgreSQL's SERIALIZABLE
 * (retried), and the unique (issuer, client, deployment) index behind both.
 */
export class LtiPlatformsService {
  constructor(private readonly d: Deps) {}

  async list(actor: Actor): Promise<LtiPlatform[]> {
    await this.d.permissions.require(actor, 'provider:manage');
    const rows = await this.d.tx.read((q) => q.select().from(ltiPlatforms).orderBy(asc(ltiPlatforms.displayName), asc(ltiPlatforms.id)));
    return rows.map(toPlatform);
  }

  async get(actor: Actor, id: string): Promise<LtiPlatform> {
    await this.d.permissions.require(actor, 'provider:manage');
    return toPlatform(await this.d.tx.read((q) => platformRow(q, id)));
  }

  async create(actor: Actor, body: PlatformInput): Promise<LtiPlatform> {
    await this.d.permissions.require(actor, 'provider:manage');
    const fields = checked(body);
    return this.d.tx.write(async (q) => {
      await refuseDuplicate(q, fields, undefined);
      const [row] = await q
        .insert(ltiPlatforms)
        .values({ id: newId(), ...fields, createdAt: iso(this.d.clock.now()) })
        .returning();
      // never the URLs' query strings nor anything the platform sends: only what names the registration
      this.d.log.info({ platformId: row!.id, issuer: row!.issuer, clientId: row!.clientId, by: actor.userId }, 'LTI platform added');
      return toPlatform(row!);
    });
  }

  async update(actor: Actor, id: string, body: PlatformInput): Promise<LtiPlatform> {
    await this.d.permissions.require(actor, 'provider:manage');
    const fields = checked(body);
    return this.d.tx.write(async (q) => {
      await platformRow(q, id);
      await refuseDuplicate(q, fields, id);
      const [row] = await q.update(ltiPlatforms).set(fields).where(eq(ltiPlatforms.id, id)).returning();
      this.d.log.info({ platformId: id, issuer: row!.issuer, clientId: row!.clientId, enabled: row!.enabled, by: actor.userId }, 'LTI platform changed');
      return toPlatform(row!);
    });
  }

  /** Refused while accounts are linked or links placed (lti.platform.inUse): disabling keeps who is who. */
  async remove(actor: Actor, id: string): Promise<void> {
    await this.d.permissions.require(actor, 'provider:manage');
    await this.d.tx.write(async (q) => {
      const row = await platformRow(q, id);
      const [linked] = await q.select({ n: count() }).from(ltiIdentities).where(eq(ltiIdentities.platformId, id));
      const [placed] = await q.select({ n: count() }).from(ltiPlacements).where(eq(ltiPlacements.platformId, id));
      if (linked!.n || placed!.n) {
        throw ApiError.of('lti.platform.inUse', `${row.displayName} has ${linked!.n} linked account(s) and ${placed!.n} placed link(s): disable it instead (enabled: false)`);
      }
      await q.delete(ltiPlatforms).where(eq(ltiPlatforms.id, id));
      this.d.log.info({ platformId: id, by: actor.userId }, 'LTI platform removed');
    });
  }

  /** `base`: the public URL's origin, else the request's. */
  async registration(actor: Actor, id: string, base: string): Promise<LtiRegistration> {
    await this.d.permissions.require(actor, 'provider:manage');
    await this.d.tx.read((q) => platformRow(q, id));
    return {
      toolUrl: `${base}/`,
      loginUrl: `${base}${LTI_PATHS.login}`,
      redirectUri: `${base}${LTI_PATHS.launch}`,
      keySetUrl: `${base}${LTI_PATHS.keySet}`,
      customParameters: CUSTOM_PARAMETERS,
    };
  }

  /** Links an account to the platform's `subject`; the unique (platform, subject) index decides a race. */
  async link(actor: Actor, id: string, subject: string, userId: string): Promise<void> {
    await this.d.permissions.require(actor, 'provider:manage');
    await this.d.tx.write(async (q) => {
      await platformRow(q, id);
      const [user] = await q.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
      if (!user) throw notFound('user');
      const [held] = await q
        .select({ userId: ltiIdentities.userId })
        .from(ltiIdentities)
        .where(and(eq(ltiIdentities.platformId, id), eq(ltiIdentities.subject, subject)))
        .limit(1);
      if (held && held.userId !== userId) throw ApiError.of('lti.link.taken', 'That user of the platform is linked to another account already');
      if (held) return;
      await q.insert(ltiIdentities).values({ platformId: id, subject, userId, linkedAt: iso(this.d.clock.now()) });
      this.d.log.info({ platformId: id, userId, by: actor.userId }, 'account linked to an LTI platform');
    });
  }
}

/** The stored fields of a request, refused as the operation documents. */
function checked(b: PlatformInput) {
  const insecure = (['issuer', 'keySetUrl', 'authTokenUrl', 'authLoginUrl'] as const).filter((k) => !secureUrl(b[k]));
  if (insecure.length) {
    throw ApiError.of('lti.platform.url.insecure', 'Platform URLs must be https (http only for a platform on this machine)', Object.fromEntries(insecure.map((k) => [k, ['must be https']])));
  }
  const authority = b.isIdentityAuthority ?? false;
  if (authority && !b.identityNamespace) {
    throw ApiError.of('lti.platform.identityNamespace.required', 'A platform that makes accounts needs the namespace their logins start with', { identityNamespace: ['required'] });
  }
  return {
    displayName: b.displayName,
    issuer: b.issuer.trim(),
    clientId: b.clientId,
    deploymentId: b.deploymentId,
    keySetUrl: b.keySetUrl,
    authTokenUrl: b.authTokenUrl,
    authLoginUrl: b.authLoginUrl,
    isIdentityAuthority: authority,
    identityNamespace: b.identityNamespace ?? null,
    usernameClaim: b.usernameClaim || DEFAULT_USERNAME_CLAIM,
    enabled: b.enabled ?? true,
  };
}

async function refuseDuplicate(q: Q, f: { issuer: string; clientId: string; deploymentId: string }, exceptId: string | undefined): Promise<void> {
  const [taken] = await q
    .select({ id: ltiPlatforms.id })
    .from(ltiPlatforms)
    .where(and(eq(ltiPlatforms.issuer, f.issuer), eq(ltiPlatforms.clientId, f.clientId), eq(ltiPlatforms.deploymentId, f.deploymentId)))
    .limit(1);
  if (taken && taken.id !== exceptId) throw ApiError.of('lti.platform.duplicate', 'Another platform has this issuer, client id and deployment id');
}
