import { ApiError, unauthenticated } from '@judge/contract';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { runnerTokens, runners } from '../db/schema.js';
import { prepared } from '../db/storage.js';
import type { Transactor } from '../db/transactor.js';
import { addSeconds, iso, newSecret, sha256Hex } from '../util.js';

/** Who is calling the runner protocol: an approved runner, by its token. */
export interface RunnerActor {
  runnerId: string;
  name: string;
  problemTypes: string[];
  tags: string[];
}

/** Runner tokens last 12 hours (decisions §8, §12). */
export const RUNNER_TOKEN_SECONDS = 12 * 3600;
/** lastSeenAt is written at most this often per runner: every runner call would otherwise be a write. */
const SEEN_WRITE_SECONDS = 10;
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/** The runner behind a token, on every runner call: built once per query builder (storage.ts, prepared()). */
const tokenHolder = prepared((q) =>
  q
    .select({ id: runners.id, name: runners.name, state: runners.state, problemTypes: runners.problemTypes, tags: runners.tags, lastSeenAt: runners.lastSeenAt })
    .from(runnerTokens)
    .innerJoin(runners, eq(runners.id, runnerTokens.runnerId))
    .where(and(eq(runnerTokens.hash, sql.placeholder('hash')), gt(runnerTokens.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare(),
);

/**
 * Issues and checks runner tokens. Only their SHA-256 is stored, so they survive a restart and a
 * stolen database holds no usable token. Every call re-reads the runner's state: revoking bites at once.
 */
export class RunnerTokens {
  constructor(private readonly tx: Transactor) {}

  /** A new token; expired ones go in the same transaction. Nothing is read before writing, so a retry is harmless. */
  issue(runnerId: string, now: Date): Promise<{ token: string; expiresAt: string }> {
    const token = newSecret();
    const expiresAt = iso(addSeconds(now, RUNNER_TOKEN_SECONDS));
    return this.tx.write(async (q) => {
      await q.delete(runnerTokens).where(lte(runnerTokens.expiresAt, iso(now)));
      await q.insert(runnerTokens).values({ hash: sha256Hex(token), runnerId, expiresAt });
      return { token, expiresAt };
    });
  }

  /** The runner behind an `Authorization: Bearer` header; 401 when unknown or expired, 403 when not approved. */
  async authenticate(header: string | undefined, address: string, now: Date): Promise<RunnerActor> {
    const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!m || !TOKEN.test(m[1]!)) throw unauthenticated('Runner calls need Authorization: Bearer <token> from POST /runner/auth/token');
    const t = iso(now);
    const hash = sha256Hex(m[1]!);
    const row = (await this.tx.read((q) => tokenHolder(q, { hash, now: t })))[0];
    if (!row) throw unauthenticated('The runner token is unknown or expired: authenticate again');
    if (row.state !== 'approved') throw ApiError.of('runner.notApproved', `The runner is ${row.state === 'revoked' ? 'revoked' : 'waiting for approval'}`);
    if (!row.lastSeenAt || Date.parse(row.lastSeenAt) <= now.getTime() - SEEN_WRITE_SECONDS * 1000) {
      await this.tx.write(async (q) => {
        await q.update(runners).set({ lastSeenAt: t, address }).where(eq(runners.id, row.id));
      });
    }
    return { runnerId: row.id, name: row.name, problemTypes: row.problemTypes, tags: row.tags };
  }
}
