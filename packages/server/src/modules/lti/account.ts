import { and, eq } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import { ltiIdentities, ltiPlatforms, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { iso, newId } from '../../util.js';
import { announceUser, findUserById, freeUsername, loginStem, usernameKey, type UserRow } from '../users/index.js';
import type { Launch } from './claims.js';

/** Logins are at most 64 long; room is left for freeUsername's number. */
const LOGIN_ROOM = 56;

const claimText = (claims: JWTPayload, name: string): string | undefined => {
  const v = claims[name];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};

/**
 * The login an identity authority's user gets: NAMESPACE-name, the name from the platform's
 * usernameClaim (an address gives its local part), else from sub, numbered when taken.
 */
export function loginFor(namespace: string, claims: JWTPayload, usernameClaim: string): string {
  const wanted = claimText(claims, usernameClaim);
  const room = LOGIN_ROOM - namespace.length - 1;
  const stems = [wanted?.includes('@') ? wanted.split('@')[0]! : wanted, claimText(claims, 'sub')].map((v) => loginStem(v ?? '').slice(0, room));
  return `${namespace}-${stems.find((s) => s.length >= 2) ?? 'user'}`;
}

/**
 * The account a launch signs in (decisions §21): the one linked to the launch's sub on any
 * registration of the same issuer (a sub names one person across an issuer's deployments); else,
 * when the platform is an identity authority, a new account linked now; else none.
 */
export async function accountFor(q: Q, out: Outbox, L: Launch, now: Date): Promise<UserRow | undefined> {
  const [link] = await q
    .select({ userId: ltiIdentities.userId })
    .from(ltiIdentities)
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiIdentities.platformId))
    .where(and(eq(ltiPlatforms.issuer, L.platform.issuer), eq(ltiIdentities.subject, L.sub)))
    .limit(1);
  if (link) return findUserById(q, link.userId);
  const p = L.platform;
  if (!p.isIdentityAuthority || !p.identityNamespace) return undefined;
  const username = await freeUsername(q, loginFor(p.identityNamespace, L.claims, p.usernameClaim));
  const name = (k: string) => claimText(L.claims, k)?.slice(0, 100) ?? null;
  const [user] = await q
    .insert(users)
    .values({
      id: newId(),
      username,
      usernameKey: usernameKey(username),
      firstName: name('given_name'),
      lastName: name('family_name'),
      isLocal: false,
      origin: 'self',
      approvedAt: iso(now),
      createdAt: iso(now),
    })
    .returning();
  await q.insert(ltiIdentities).values({ platformId: p.id, subject: L.sub, userId: user!.id, linkedAt: iso(now) });
  await announceUser(q, user!, out);
  return user!;
}
