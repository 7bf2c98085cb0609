import { and, asc, eq, lte } from 'drizzle-orm';
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { randomBytes } from 'node:crypto';
import { ltiLogins, ltiPlatforms } from '../../db/schema.js';
import type { Deps } from '../../services.js';
import { iso, sha256Hex } from '../../util.js';
import { CLAIM, LtiRefusal, readLaunch, type Launch } from './claims.js';
import { LTI_PATHS, type PlatformRow } from './platforms.js';

/** How long a started login waits for the platform's launch. */
const LOGIN_TTL_MS = 10 * 60_000;
/** Leeway for the platform's clock, on exp and iat. */
const CLOCK_TOLERANCE_S = 60;
/** An ID token issued longer ago than this is refused, whatever its exp says. */
const MAX_TOKEN_AGE = '10m';

/** The parameters of a third-party login initiation (query or form). */
export interface LoginRequest {
  iss?: string | undefined;
  login_hint?: string | undefined;
  target_link_uri?: string | undefined;
  lti_message_hint?: string | undefined;
  client_id?: string | undefined;
  lti_deployment_id?: string | undefined;
}

const random = () => randomBytes(32).toString('base64url');

/**
 * The LTI 1.3 launch as the OIDC third-party login it is (decisions §21): the platform asks the
 * judge to start a login, the judge sends the browser to the platform's authorization endpoint with
 * a state and a nonce kept in the database (any server of a cluster may take the launch), and the
 * platform posts back an ID token, verified here against its key set. A state works once.
 */
export class LtiLaunch {
  /** Each platform's key set, fetched and cached by jose (and fetched again for a kid it does not know). */
  private readonly keySets = new Map<string, JWTVerifyGetKey>();

  constructor(private readonly d: Deps) {}

  /** Starts a login: answers the platform's authorization URL to send the browser to. `base`: this judge's origin. */
  async login(r: LoginRequest, base: string): Promise<string> {
    const p = await this.initiatingPlatform(r);
    const state = random();
    const nonce = random();
    const now = this.d.clock.now();
    await this.d.tx.write(async (q) => {
      await q.delete(ltiLogins).where(lte(ltiLogins.expiresAt, iso(now)));
      await q.insert(ltiLogins).values({ stateHash: sha256Hex(state), platformId: p.id, nonce, expiresAt: iso(new Date(now.getTime() + LOGIN_TTL_MS)) });
    });
    const url = new URL(p.authLoginUrl);
    const params: Record<string, string | undefined> = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: p.clientId,
      redirect_uri: `${base}${LTI_PATHS.launch}`,
      login_hint: r.login_hint,
      lti_message_hint: r.lti_message_hint,
      state,
      nonce,
    };
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    return url.href;
  }

  /** The enabled registration the initiation names: its issuer, and its client and deployment when given. */
  private async initiatingPlatform(r: LoginRequest): Promise<PlatformRow> {
    if (!r.iss || !r.login_hint) throw new LtiRefusal('lti.login.unknown', 'A login initiation needs iss and login_hint');
    const rows = await this.d.tx.read((q) =>
      q
        .select()
        .from(ltiPlatforms)
        .where(and(eq(ltiPlatforms.issuer, r.iss!), eq(ltiPlatforms.enabled, true)))
        .orderBy(asc(ltiPlatforms.createdAt), asc(ltiPlatforms.id)),
    );
    const fits = rows.filter((p) => (!r.client_id || p.clientId === r.client_id) && (!r.lti_deployment_id || p.deploymentId === r.lti_deployment_id));
    // without client_id the issuer must name one client: the ID token's audience is checked against it
    if (!fits.length || new Set(fits.map((p) => p.clientId)).size > 1) throw new LtiRefusal('lti.login.unknown', 'No enabled platform has this issuer, client and deployment');
    return fits[0]!;
  }

  /** Verifies the platform's form post; answers the launch to act on. */
  async verify(idToken: string | undefined, state: string | undefined): Promise<Launch> {
    const now = this.d.clock.now();
    // taken at once: a state (and with it its nonce) works once, whatever follows
    const login = state
      ? await this.d.tx.write(async (q) => (await q.delete(ltiLogins).where(eq(ltiLogins.stateHash, sha256Hex(state))).returning())[0])
      : undefined;
    if (!login || login.expiresAt <= iso(now) || !idToken) throw new LtiRefusal('lti.launch.state', 'The launch was not started here, was used already, or took longer than ten minutes');
    const started = (await this.d.tx.read((q) => q.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, login.platformId)).limit(1)))[0];
    if (!started) throw new LtiRefusal('lti.launch.state', 'The platform of this launch is gone');
    const claims = await this.verified(started, idToken, now);
    if (claims.nonce !== login.nonce) throw new LtiRefusal('lti.launch.nonce', 'The ID token does not carry the nonce of this launch');
    const platform = await this.deployment(started, claims[CLAIM.deployment]);
    if (!platform.enabled) throw new LtiRefusal('lti.platform.disabled', 'This platform is switched off');
    return readLaunch(platform, claims);
  }

  /** Signature (RS256, the platform's key set), issuer, audience and azp, exp and iat. */
  private async verified(p: PlatformRow, idToken: string, now: Date): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(idToken, this.keySetOf(p), {
        issuer: p.issuer,
        audience: p.clientId,
        algorithms: ['RS256'],
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_S,
        maxTokenAge: MAX_TOKEN_AGE,
        requiredClaims: ['exp', 'iat', 'nonce'],
      });
      // several audiences: the token must say it was issued for us (OIDC Core 3.1.3.7)
      const several = Array.isArray(payload.aud) && payload.aud.length > 1;
      if ((several || payload.azp !== undefined) && payload.azp !== p.clientId) throw new Error('azp is not our client id');
      return payload;
    } catch (e) {
      // the reason goes to the log only: the browser learns the code
      this.d.log.warn({ platformId: p.id, reason: (e as Error).message }, 'an LTI ID token failed its checks');
      throw new LtiRefusal('lti.launch.token', 'The ID token did not verify');
    }
  }

  /** The registration of the token's deployment among those of the login's issuer and client. */
  private async deployment(started: PlatformRow, deploymentId: unknown): Promise<PlatformRow> {
    if (started.deploymentId === deploymentId) return started;
    const rows = await this.d.tx.read((q) =>
      q
        .select()
        .from(ltiPlatforms)
        .where(and(eq(ltiPlatforms.issuer, started.issuer), eq(ltiPlatforms.clientId, started.clientId))),
    );
    const found = rows.find((p) => p.deploymentId === deploymentId);
    if (!found) throw new LtiRefusal('lti.launch.deployment', 'The launch names a deployment not registered here');
    return found;
  }

  private keySetOf(p: PlatformRow): JWTVerifyGetKey {
    let set = this.keySets.get(p.keySetUrl);
    if (!set) this.keySets.set(p.keySetUrl, (set = createRemoteJWKSet(new URL(p.keySetUrl), { timeoutDuration: 10_000 })));
    return set;
  }
}
