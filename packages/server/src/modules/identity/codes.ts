import { randomInt } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { accountCodes } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { iso, sha256Hex } from '../../util.js';

export type CodePurpose = 'confirm' | 'reset';

/** How long a mailed code works: an hour to reset a password, two days to confirm an address. */
export const CODE_LIFETIME_MS: Record<CodePurpose, number> = { reset: 3_600_000, confirm: 48 * 3_600_000 };

/** Crockford's base 32: no I, L, O or U, so a code read from paper or a phone is typed right. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/**
 * A new code: 16 symbols of base 32 (80 bits) in groups of four, e.g. `K7QF-2M9X-RT4P-8HWB`, short
 * enough to type from a phone and far beyond guessing within its hour under the per-address limits.
 */
export function newCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let s = '';
    for (let i = 0; i < GROUP_LENGTH; i++) s += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(s);
  }
  return groups.join('-');
}

/** What was typed or followed, as stored: case, spaces and dashes do not matter, and O/I/L read as 0/1/1. */
function normalise(code: string): string {
  return code
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
}

/** What is stored of a code: the SHA-256 of its normal form (80 random bits need no slow hash). */
export const hashOf = (code: string) => sha256Hex(normalise(code));

/**
 * Issues a code for an account and spends the ones of the same purpose issued before, so only the
 * newest mail works. `newEmail`: the address a confirmation is mailed to.
 */
export async function issueCode(q: Q, userId: string, purpose: CodePurpose, now: Date, newEmail?: string): Promise<{ code: string; expiresAt: string }> {
  await spendCodes(q, userId, purpose, now);
  const code = newCode();
  const expiresAt = iso(new Date(now.getTime() + CODE_LIFETIME_MS[purpose]));
  await q.insert(accountCodes).values({ hash: hashOf(code), userId, purpose, newEmail: newEmail ?? null, createdAt: iso(now), expiresAt });
  return { code, expiresAt };
}

async function liveCode(q: Q, userId: string, purpose: CodePurpose, code: string, now: Date) {
  const rows = await q
    .select()
    .from(accountCodes)
    .where(and(eq(accountCodes.hash, hashOf(code)), eq(accountCodes.userId, userId), eq(accountCodes.purpose, purpose), isNull(accountCodes.usedAt), gt(accountCodes.expiresAt, iso(now))))
    .limit(1);
  return rows[0];
}

/** Whether a code would be taken now, without spending it (checked before costly work such as hashing). */
export async function codeHolds(q: Q, userId: string, purpose: CodePurpose, code: string, now: Date): Promise<boolean> {
  return !!(await liveCode(q, userId, purpose, code, now));
}

/**
 * Takes a code that is this account's, of this purpose, unspent and unexpired, and spends it with
 * every other of its purpose; false when there is none (a wrong code changes nothing). A
 * confirmation must name the address it was mailed to (`address`: the account's, or the new one).
 */
export async function takeCode(q: Q, userId: string, purpose: CodePurpose, code: string, now: Date, address?: string): Promise<boolean> {
  const row = await liveCode(q, userId, purpose, code, now);
  if (!row || (row.newEmail ?? '').toLowerCase() !== (address ?? '').trim().toLowerCase()) return false;
  await spendCodes(q, userId, purpose, now);
  return true;
}

/** Spends every unspent code of this purpose (a new one was issued, one was used, the password changed). */
export async function spendCodes(q: Q, userId: string, purpose: CodePurpose, now: Date): Promise<void> {
  await q
    .update(accountCodes)
    .set({ usedAt: iso(now) })
    .where(and(eq(accountCodes.userId, userId), eq(accountCodes.purpose, purpose), isNull(accountCodes.usedAt)));
}
