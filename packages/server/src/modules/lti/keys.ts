import type { LtiKeyRotation } from '@judge/contract';
import { asc, desc, isNull, lte } from 'drizzle-orm';
import { exportJWK, exportPKCS8, generateKeyPair, importPKCS8, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../auth/permissions.js';
import { ltiKeys } from '../../db/schema.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId } from '../../util.js';

/** How long a retired key stays published: a platform that cached the key set meanwhile still verifies with it. */
export const RETIRED_KEY_GRACE_MS = 24 * 3600_000;

type KeyRow = typeof ltiKeys.$inferSelect;

/** A fresh RS256 pair as stored: the private key as PKCS8 PEM, the public one as a JWK carrying its kid. */
async function freshKey(now: Date): Promise<KeyRow> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const kid = newId();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey: await exportPKCS8(privateKey), publicJwk: jwk, createdAt: iso(now), retiredAt: null };
}

/**
 * The tool's key set (decisions §21): RSA pairs kept in the database, so that every server of a
 * cluster signs with and publishes the same keys. The first is made when first needed; a rotation
 * retires the current one, which stays published for RETIRED_KEY_GRACE_MS. Private keys never
 * leave this class (nor reach the log).
 */
export class ToolKeys {
  /** Imported private keys by kid: importing costs more than a read. */
  private readonly imported = new Map<string, Promise<CryptoKey>>();

  constructor(private readonly d: Deps) {}

  /** The key that signs now, made on first need. */
  private async current(): Promise<KeyRow> {
    const found = await this.d.tx.read((q) => q.select().from(ltiKeys).where(isNull(ltiKeys.retiredAt)).orderBy(desc(ltiKeys.createdAt)).limit(1));
    if (found[0]) return found[0];
    // made before the write (slow work stays out of transactions); another server's may win the race
    const made = await freshKey(this.d.clock.now());
    return this.d.tx.write(async (q) => {
      const [other] = await q.select().from(ltiKeys).where(isNull(ltiKeys.retiredAt)).orderBy(desc(ltiKeys.createdAt)).limit(1);
      if (other) return other;
      await q.insert(ltiKeys).values(made);
      this.d.log.info({ kid: made.kid }, 'LTI tool key made');
      return made;
    });
  }

  /** GET /lti/jwks.json: the current key and those retired within the grace period. */
  async publicSet(): Promise<{ keys: Record<string, unknown>[] }> {
    await this.current();
    const since = iso(new Date(this.d.clock.now().getTime() - RETIRED_KEY_GRACE_MS));
    const rows = await this.d.tx.read((q) => q.select({ jwk: ltiKeys.publicJwk, retiredAt: ltiKeys.retiredAt }).from(ltiKeys).orderBy(desc(ltiKeys.createdAt)));
    return { keys: rows.filter((r) => r.retiredAt === null || r.retiredAt > since).map((r) => r.jwk) };
  }

  /** POST /lti/keys/rotate: a new current key; the old one retires, and keys past the grace period go. */
  async rotate(actor: Actor): Promise<LtiKeyRotation> {
    await this.d.permissions.require(actor, 'provider:manage');
    const now = this.d.clock.now();
    const made = await freshKey(now);
    const published = await this.d.tx.write(async (q) => {
      await q.update(ltiKeys).set({ retiredAt: iso(now) }).where(isNull(ltiKeys.retiredAt));
      await q.delete(ltiKeys).where(lte(ltiKeys.retiredAt, iso(new Date(now.getTime() - RETIRED_KEY_GRACE_MS))));
      await q.insert(ltiKeys).values(made);
      return q.select({ kid: ltiKeys.kid, retiredAt: ltiKeys.retiredAt }).from(ltiKeys).orderBy(asc(ltiKeys.createdAt));
    });
    this.d.log.info({ kid: made.kid, by: actor.userId }, 'LTI tool key rotated');
    return { kid: made.kid, createdAt: made.createdAt, published: published.map((p) => compact(p)) as LtiKeyRotation['published'] };
  }

  /** A JWT signed with the current key (RS256, its kid in the header). */
  async sign(claims: JWTPayload, lifetimeSeconds: number): Promise<string> {
    const key = await this.current();
    let imported = this.imported.get(key.kid);
    if (!imported) this.imported.set(key.kid, (imported = importPKCS8(key.privateKey, 'RS256')));
    const now = Math.floor(this.d.clock.now().getTime() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + lifetimeSeconds)
      .setJti(randomUUID())
      .sign(await imported);
  }
}
