import { ApiError } from '@judge/contract';
import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import * as oidc from 'openid-client';
import type { ClientInfo, IssuedSession } from '../../auth/sessions.js';
import { grants, identityProviders, oidcLogins, roles, userIdentities, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { iso, newId, sha256Hex } from '../../util.js';
import { admitSignIn, type InstanceService } from '../instance/index.js';
import { emailKey, findUserById, freeUsername, loginStem, usernameKey, type UserRow } from '../users/index.js';
import { announceUser } from '../users/index.js';
import { callbackPath } from './service.js';

type ProviderRow = typeof identityProviders.$inferSelect;
type Claims = Record<string, unknown>;

/** How long a started sign-in waits for the provider to send the browser back. */
const LOGIN_TTL_MS = 10 * 60_000;
/** How long a provider's discovery document and keys are trusted before they are read again. */
const DISCOVERY_TTL_MS = 10 * 60_000;

/** A refusal the callback turns into a redirect to the sign-in page with its code. */
export class ProviderRefusal extends Error {
  constructor(
    readonly code: 'provider.ticket.missing' | 'provider.refused' | 'provider.unmapped' | 'provider.subject.missing' | 'provider.disabled',
    message: string,
  ) {
    super(message);
  }
}

/** Only a path of this site: never another origin, never `//host`. */
export function localPath(returnUrl: string | undefined): string {
  return returnUrl && /^\/(?![/\\])/.test(returnUrl) ? returnUrl.slice(0, 1000) : '/';
}

/** The values of a claim at a dotted path (`realm_access.roles`), as strings. */
function claimValues(claims: Claims, path: string | null): string[] {
  if (!path) return [];
  let cur: unknown = claims;
  for (const k of path.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  if (typeof cur === 'string') return [cur];
  return Array.isArray(cur) ? cur.filter((v): v is string => typeof v === 'string') : [];
}

/** The start of a login from what the provider says: its preferred username, else the address's local part. */
function loginFrom(claims: Claims, slug: string): string {
  const wanted = [claims.preferred_username, typeof claims.email === 'string' ? claims.email.split('@')[0] : undefined].find((v): v is string => typeof v === 'string' && !!v.trim());
  const stem = loginStem(wanted ?? '');
  return stem.length >= 2 ? stem : `${slug}-user`;
}

/**
 * Signing in through an OpenID Connect provider (decisions §4): authorization code with PKCE, state
 * and nonce; the ID token's signature is checked against the provider's keys even though it came
 * straight from the token endpoint. The first sign-in links an account (one with the same
 * address, when the provider says the address is verified) or creates one; every sign-in rewrites
 * the system roles the provider's mapping rules give.
 */
export class ProviderSignIn {
  private readonly known = new Map<string, { config: oidc.Configuration; keys: JWTVerifyGetKey; at: number; fingerprint: string }>();

  constructor(
    private readonly d: Deps,
    private readonly instance: InstanceService,
  ) {}

  /** Starts a sign-in: answers the provider's authorization URL to send the browser to. */
  async challenge(slug: string, site: string, returnUrl: string | undefined, remember: boolean): Promise<string> {
    const p = await this.enabled(slug);
    const config = (await this.configOf(p)).config;
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const redirectUri = `${site}${callbackPath(p.slug)}`;
    const now = this.d.clock.now();
    await this.d.tx.write(async (q) => {
      await q.delete(oidcLogins).where(lte(oidcLogins.expiresAt, iso(now)));
      await q.insert(oidcLogins).values({ stateHash: sha256Hex(state), providerId: p.id, codeVerifier, nonce, redirectUri, returnUrl: localPath(returnUrl), remember, expiresAt: iso(new Date(now.getTime() + LOGIN_TTL_MS)) });
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: p.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return url.href;
  }

  /** Finishes a sign-in the provider sent back (`query`: its parameters); answers the session and where to go. */
  async callback(slug: string, query: URLSearchParams, client: ClientInfo): Promise<{ issued: IssuedSession; remember: boolean; returnUrl: string }> {
    const p = await this.enabled(slug);
    const state = query.get('state');
    const now = this.d.clock.now();
    // taken at once: a state works once, whatever follows
    const login = state
      ? await this.d.tx.write(async (q) => {
          const [row] = await q.delete(oidcLogins).where(and(eq(oidcLogins.stateHash, sha256Hex(state)), eq(oidcLogins.providerId, p.id))).returning();
          return row;
        })
      : undefined;
    if (!login || login.expiresAt <= iso(now)) throw new ProviderRefusal('provider.ticket.missing', 'The sign-in was not started here, or took longer than ten minutes: start it again');
    if (query.get('error')) throw new ProviderRefusal('provider.refused', `The provider refused: ${query.get('error_description') ?? query.get('error')}`);
    const { config, keys } = await this.configOf(p);
    const current = new URL(login.redirectUri);
    for (const [k, v] of query) current.searchParams.append(k, v);
    let claims: Claims;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: login.codeVerifier, expectedState: state!, expectedNonce: login.nonce, idTokenExpected: true });
      const issuer = config.serverMetadata().issuer;
      ({ payload: claims } = await jwtVerify(tokens.id_token!, keys, { issuer, audience: p.clientId }));
      // many providers put the scopes' claims (address, groups) in the userinfo answer only
      if (config.serverMetadata().userinfo_endpoint && tokens.access_token && typeof claims.sub === 'string') {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      }
    } catch (e) {
      this.d.log.warn({ provider: p.slug, reason: (e as Error).message }, 'a sign-in through an identity provider failed');
      throw new ProviderRefusal('provider.refused', 'The provider did not confirm the sign-in');
    }
    if (typeof claims.sub !== 'string' || !claims.sub) throw new ProviderRefusal('provider.subject.missing', 'The provider named no account (sub)');
    const roleNames = this.mappedRoles(p, claims);
    const issued = await this.d.tx.write(async (q, out) => {
      const user = await this.accountFor(q, out, p, claims, now);
      if (user.blockedAt || (user.expiresAt && user.expiresAt <= iso(now))) throw new ProviderRefusal('provider.refused', 'This account may not sign in');
      await this.rewriteRoles(q, out, user.id, p.id, roleNames, now);
      // maintenance: only administrators sign in while the judge is closed (read with this write's roles)
      await admitSignIn(this.instance.maintenance, this.d.permissions, user.id, q);
      await q.update(users).set({ lastSeenAt: iso(now) }).where(eq(users.id, user.id));
      return { userId: user.id, session: await this.d.sessions.open(q, user.id, login.remember ? 'cookie' : 'sessionCookie', client, now, out) };
    });
    this.d.log.info({ provider: p.slug, userId: issued.userId }, 'signed in through an identity provider');
    return { issued: issued.session, remember: login.remember, returnUrl: login.returnUrl };
  }

  private async enabled(slug: string): Promise<ProviderRow> {
    const [p] = await this.d.tx.read((q) => q.select().from(identityProviders).where(eq(identityProviders.slug, slug)).limit(1));
    if (!p || !p.enabled) throw ApiError.of('not_found', `No identity provider ${slug} to sign in with`);
    return p;
  }

  /** The provider's discovery document and keys, read again after DISCOVERY_TTL_MS or when its settings change. */
  private async configOf(p: ProviderRow) {
    const fingerprint = `${p.issuer}\n${p.clientId}\n${sha256Hex(p.clientSecret ?? '')}`;
    const kept = this.known.get(p.id);
    if (kept && kept.fingerprint === fingerprint && Date.now() - kept.at < DISCOVERY_TTL_MS) return kept;
    // http only for a provider on this machine (the issuer check when it was registered)
    const insecure = new URL(p.issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
    const config = await oidc.discovery(new URL(p.issuer), p.clientId, p.clientSecret ?? undefined, p.clientSecret ? undefined : oidc.None(), insecure);
    const jwksUri = config.serverMetadata().jwks_uri;
    if (!jwksUri) throw new ProviderRefusal('provider.refused', 'The provider publishes no keys (jwks_uri)');
    const entry = { config, keys: createRemoteJWKSet(new URL(jwksUri)), at: Date.now(), fingerprint };
    this.known.set(p.id, entry);
    return entry;
  }

  /** The role names the provider's rules give for these claims; refused under `deny` when none match. */
  private mappedRoles(p: ProviderRow, claims: Claims): string[] {
    const values = claimValues(claims, p.claimPath);
    const matched = [...new Set(p.mappingRules.filter((r) => values.includes(r.claimValue)).map((r) => r.templateName))];
    if (matched.length) return matched;
    if (p.unmappedBehavior === 'defaultTemplate' && p.defaultTemplateName) return [p.defaultTemplateName];
    throw new ProviderRefusal('provider.unmapped', `${p.displayName} does not say this account may use the judge`);
  }

  /** The linked account, else one with the provider's verified address (linked now), else a new one. */
  private async accountFor(q: Q, out: Parameters<typeof announceUser>[2], p: ProviderRow, claims: Claims, now: Date): Promise<UserRow> {
    const sub = claims.sub as string;
    const [link] = await q.select().from(userIdentities).where(and(eq(userIdentities.providerId, p.id), eq(userIdentities.subject, sub))).limit(1);
    if (link) return (await findUserById(q, link.userId))!;
    const email = typeof claims.email === 'string' && claims.email.includes('@') ? claims.email.trim() : undefined;
    const verified = claims.email_verified === true;
    let user = email && verified ? (await q.select().from(users).where(eq(users.emailKey, emailKey(email)!)).limit(1))[0] : undefined;
    if (!user) {
      const username = await freeUsername(q, loginFrom(claims, p.slug));
      const addressFree = email && !(await q.select({ id: users.id }).from(users).where(eq(users.emailKey, emailKey(email)!)).limit(1))[0];
      [user] = await q
        .insert(users)
        .values({
          id: newId(),
          username,
          usernameKey: usernameKey(username),
          email: addressFree ? email : null,
          emailKey: addressFree ? emailKey(email) : null,
          emailConfirmed: !!addressFree && verified,
          firstName: typeof claims.given_name === 'string' ? claims.given_name.slice(0, 100) : null,
          lastName: typeof claims.family_name === 'string' ? claims.family_name.slice(0, 100) : null,
          isLocal: false,
          origin: 'self',
          approvedAt: iso(now),
          createdAt: iso(now),
        })
        .returning();
      await announceUser(q, user!, out);
    }
    await q.insert(userIdentities).values({ providerId: p.id, subject: sub, userId: user!.id, linkedAt: iso(now) });
    this.d.log.info({ provider: p.slug, userId: user!.id }, 'account linked to an identity provider');
    return user!;
  }

  /** The system grants this provider gave the account become exactly `names` (a role held by hand stays as it is). */
  private async rewriteRoles(q: Q, out: Parameters<typeof announceUser>[2], userId: string, providerId: string, names: string[], now: Date): Promise<void> {
    const wanted = names.length ? await q.select({ id: roles.id }).from(roles).where(and(inArray(roles.name, names), isNull(roles.activityId))) : [];
    const held = await q.select().from(grants).where(and(eq(grants.userId, userId), isNull(grants.activityId)));
    const wantedIds = new Set(wanted.map((r) => r.id));
    const stale = held.filter((g) => g.sourceProviderId === providerId && !wantedIds.has(g.roleId)).map((g) => g.id);
    if (stale.length) await q.delete(grants).where(inArray(grants.id, stale));
    const fresh = [...wantedIds].filter((id) => !held.some((g) => g.roleId === id));
    for (const roleId of fresh) await q.insert(grants).values({ id: newId(), userId, roleId, activityId: null, createdAt: iso(now), sourceProviderId: providerId });
    if (stale.length || fresh.length) out.touchPermissions();
  }
}
