import type { CreatedEnrolmentCode, EnrolmentCode, OperationInput, ops } from '@judge/contract';
import { ApiError, notFound } from '@judge/contract';
import { randomBytes } from 'node:crypto';
import { desc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { runnerEnrolmentCodes as codes, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { addSeconds, compact, iso, newId, sha256Hex } from '../../util.js';

type CreateBody = OperationInput<typeof ops.createRunnerEnrolmentCode>['body'];

/** What a valid code gives the runner that enrols with it. */
export interface Enrolment {
  id: string;
  name: string | null;
  tags: string[];
}

/** Codes as administrators see them, with their maker's login. */
function codesWhere(q: Q, where: SQL) {
  return q
    .select({
      id: codes.id,
      name: codes.name,
      tags: codes.tags,
      uses: codes.uses,
      used: codes.used,
      createdAt: codes.createdAt,
      expiresAt: codes.expiresAt,
      lastUsedAt: codes.lastUsedAt,
      createdBy: codes.createdBy,
      createdByName: users.username,
    })
    .from(codes)
    .leftJoin(users, eq(users.id, codes.createdBy))
    .where(where);
}

/** Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand has no look-alikes. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP = 5;
/** Expired codes are kept this long, so that using one says "expired" rather than "unknown". */
const KEEP_EXPIRED_SECONDS = 7 * 24 * 3600;

/** 100 random bits in four groups of five, e.g. 7KQ2M-XR4TB-9HWZC-0PD3N. */
function newCode(): string {
  const bytes = randomBytes(GROUPS * GROUP);
  // 256 is a multiple of 32, so every letter is equally likely
  const letters = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]!).join('');
  return letters.match(new RegExp(`.{${GROUP}}`, 'g'))!.join('-');
}

/** The code as hashed: case, spaces and dashes do not matter to a person typing it. */
export function codeHash(code: string): string {
  return sha256Hex(code.toUpperCase().replace(/[\s-]/g, ''));
}

/**
 * Enrolment codes (extension): an administrator makes one for the lab machines being set up, and a
 * runner registering with it is approved at once, so nobody has to compare fingerprints machine by
 * machine. Only the code's SHA-256 is stored; it expires and has a number of uses.
 */
export class EnrolmentCodes {
  constructor(private readonly d: Deps) {}

  /**
   * Makes a code; codes expired for a week go at the same time. One SERIALIZABLE write (and the
   * unique index on the code's hash) keeps it safe on PostgreSQL.
   */
  async create(actor: Actor, body: CreateBody): Promise<CreatedEnrolmentCode> {
    await this.d.permissions.require(actor, 'runner:approve');
    const now = this.d.clock.now();
    const code = newCode();
    const id = newId();
    const row = await this.d.tx.write(async (q) => {
      await q.delete(codes).where(lte(codes.expiresAt, iso(addSeconds(now, -KEEP_EXPIRED_SECONDS))));
      await q.insert(codes).values({
        id,
        codeHash: codeHash(code),
        name: body.name ?? null,
        tags: [...new Set(body.tags ?? [])],
        uses: body.uses ?? 1,
        used: 0,
        createdAt: iso(now),
        expiresAt: iso(addSeconds(now, body.expiresInSeconds ?? 3600)),
        createdBy: actor.userId,
      });
      return (await codesWhere(q, eq(codes.id, id)).limit(1))[0]!;
    });
    return { ...(compact(row) as EnrolmentCode), code };
  }

  /** The codes that have not expired, used up or not: what an administrator may still withdraw. */
  async list(actor: Actor): Promise<{ items: EnrolmentCode[] }> {
    await this.d.permissions.require(actor, 'runner:approve');
    const rows = await this.d.tx.read((q) => codesWhere(q, gt(codes.expiresAt, iso(this.d.clock.now()))).orderBy(desc(codes.createdAt), desc(codes.id)));
    return { items: rows.map((r) => compact(r) as EnrolmentCode) };
  }

  async revoke(actor: Actor, id: string): Promise<void> {
    await this.d.permissions.require(actor, 'runner:approve');
    const gone = await this.d.tx.write((q) => q.delete(codes).where(eq(codes.id, id)).returning({ id: codes.id }));
    if (!gone.length) throw notFound('enrolment code');
  }

  /** The code's enrolment, or the refusal that says why it cannot be used (403 runner.enrolmentCode); in the caller's transaction. */
  async check(q: Q, code: string, now: Date): Promise<Enrolment> {
    const [r] = await q
      .select({ id: codes.id, name: codes.name, tags: codes.tags, uses: codes.uses, used: codes.used, expiresAt: codes.expiresAt })
      .from(codes)
      .where(eq(codes.codeHash, codeHash(code)))
      .limit(1);
    if (!r) throw ApiError.of('runner.enrolmentCode', 'The enrolment code is unknown or was withdrawn: ask an administrator for a new one (judgectl runners add)');
    if (Date.parse(r.expiresAt) <= now.getTime()) throw ApiError.of('runner.enrolmentCode', `The enrolment code expired at ${r.expiresAt}: ask an administrator for a new one`);
    if (r.used >= r.uses) throw ApiError.of('runner.enrolmentCode', `The enrolment code was already used${r.uses > 1 ? ` ${r.uses} times` : ''}: ask an administrator for a new one`);
    return { id: r.id, name: r.name, tags: r.tags };
  }

  /** Counts one use of a code `check` accepted, in the caller's transaction. */
  async spend(q: Q, e: Enrolment, now: Date): Promise<void> {
    await q.update(codes).set({ used: sql`${codes.used} + 1`, lastUsedAt: iso(now) }).where(eq(codes.id, e.id));
  }
}
