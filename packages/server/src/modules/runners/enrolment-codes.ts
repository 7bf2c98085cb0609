import type { CreatedEnrolmentCode, EnrolmentCode, OperationInput, ops } from '@judge/contract';
import { ApiError, notFound } from '@judge/contract';
import { randomBytes } from 'node:crypto';
import type { Actor } from '../../auth/permissions.js';
import type { Deps } from '../../services.js';
import { addSeconds, compact, iso, newId, sha256Hex, statements } from '../../util.js';

type CreateBody = OperationInput<typeof ops.createRunnerEnrolmentCode>['body'];

interface CodeRow {
  id: string;
  name: string | null;
  tags: string;
  uses: number;
  used: number;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  createdBy: string | null;
  createdByName: string | null;
}

/** What a valid code gives the runner that enrols with it. */
export interface Enrolment {
  id: string;
  name: string | null;
  tags: string[];
}

const CODE_SELECT = `SELECT c.id, c.name, c.tags, c.uses, c.used, c.created_at AS createdAt, c.expires_at AS expiresAt, c.last_used_at AS lastUsedAt,
  c.created_by AS createdBy, u.username AS createdByName FROM runner_enrolment_codes c LEFT JOIN users u ON u.id = c.created_by`;

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
  private readonly q;

  constructor(private readonly d: Deps) {
    this.q = statements(d.sqlite);
  }

  private view(r: CodeRow): EnrolmentCode {
    return compact({ ...r, tags: JSON.parse(r.tags) as string[] }) as EnrolmentCode;
  }

  create(actor: Actor, body: CreateBody): CreatedEnrolmentCode {
    this.d.permissions.now.require(actor, 'runner:approve');
    const now = this.d.clock.now();
    const code = newCode();
    const id = newId();
    this.d.tx.run(() => {
      this.q('DELETE FROM runner_enrolment_codes WHERE expires_at <= ?').run(iso(addSeconds(now, -KEEP_EXPIRED_SECONDS)));
      this.q(
        `INSERT INTO runner_enrolment_codes (id, code_hash, name, tags, uses, used, created_at, expires_at, created_by)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)`,
      ).run(id, codeHash(code), body.name ?? null, JSON.stringify([...new Set(body.tags ?? [])]), body.uses ?? 1, iso(now), iso(addSeconds(now, body.expiresInSeconds ?? 3600)), actor.userId);
    });
    return { ...this.view(this.q<[string], CodeRow>(`${CODE_SELECT} WHERE c.id = ?`).get(id)!), code };
  }

  /** The codes that have not expired, used up or not: what an administrator may still withdraw. */
  list(actor: Actor): { items: EnrolmentCode[] } {
    this.d.permissions.now.require(actor, 'runner:approve');
    const rows = this.q<[string], CodeRow>(`${CODE_SELECT} WHERE c.expires_at > ? ORDER BY c.created_at DESC, c.id DESC`).all(iso(this.d.clock.now()));
    return { items: rows.map((r) => this.view(r)) };
  }

  revoke(actor: Actor, id: string): void {
    this.d.permissions.now.require(actor, 'runner:approve');
    if (this.q('DELETE FROM runner_enrolment_codes WHERE id = ?').run(id).changes === 0) throw notFound('enrolment code');
  }

  /** The code's enrolment, or the refusal that says why it cannot be used (403 runner.enrolmentCode). */
  check(code: string, now: Date): Enrolment {
    const r = this.q<[string], { id: string; name: string | null; tags: string; uses: number; used: number; expiresAt: string }>(
      'SELECT id, name, tags, uses, used, expires_at AS expiresAt FROM runner_enrolment_codes WHERE code_hash = ?',
    ).get(codeHash(code));
    if (!r) throw ApiError.of('runner.enrolmentCode', 'The enrolment code is unknown or was withdrawn: ask an administrator for a new one (judgectl runners add)');
    if (Date.parse(r.expiresAt) <= now.getTime()) throw ApiError.of('runner.enrolmentCode', `The enrolment code expired at ${r.expiresAt}: ask an administrator for a new one`);
    if (r.used >= r.uses) throw ApiError.of('runner.enrolmentCode', `The enrolment code was already used${r.uses > 1 ? ` ${r.uses} times` : ''}: ask an administrator for a new one`);
    return { id: r.id, name: r.name, tags: JSON.parse(r.tags) as string[] };
  }

  /** Counts one use of a code `check` accepted, in the caller's transaction. */
  spend(e: Enrolment, now: Date): void {
    this.q('UPDATE runner_enrolment_codes SET used = used + 1, last_used_at = ? WHERE id = ?').run(iso(now), e.id);
  }
}
