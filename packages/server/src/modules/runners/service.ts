import type { OperationInput, Page, Runner, ops } from '@judge/contract';
import { ApiError, clampPaging, notFound } from '@judge/contract';
import { and, asc, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import type { Actor } from '../../auth/permissions.js';
import { RunnerTokens, type RunnerActor } from '../../auth/runner-tokens.js';
import { files, runnerFiles, runners, runnerTokens } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId, sha256Hex } from '../../util.js';
import { currentJobOf } from './current-job.js';
import { EnrolmentCodes, type Enrolment } from './enrolment-codes.js';

type RegisterBody = OperationInput<typeof ops.registerRunner>['body'];
type Registration = { runnerId: string; fingerprint: string; state: RunnerState; name?: string; tags?: string[] };
type RunnerState = 'pendingApproval' | 'approved' | 'revoked';

type RunnerRow = typeof runners.$inferSelect;

async function runnerWhere(q: Q, where: SQL): Promise<RunnerRow | undefined> {
  return (await q.select().from(runners).where(where).limit(1))[0];
}

/** Nonces live 2 minutes (decisions §8) and in memory only: a restart just makes runners ask again. */
const NONCE_SECONDS = 120;
/** A runner seen this recently counts as connected. */
export const CONNECTED_SECONDS = 120;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(s: string): Buffer | null {
  return s.length % 4 === 0 && BASE64.test(s) ? Buffer.from(s, 'base64') : null;
}

/**
 * What a runner's state means for the work it holds or could claim. Judging answers it (app.ts wires
 * it in), so that runner management does not reach into jobs and trials.
 */
export interface RunnerWork {
  /**
   * The runner was revoked or its process ended: everything it holds comes back as a failed
   * delivery (`reason` says why), queued again or given up at the delivery cap, in the caller's transaction.
   */
  requeueAllOf(q: Q, runnerId: string, out: Outbox, reason: string): Promise<void>;
  /** Runners may match other work now: waiting claims look again once the caller's transaction commits. */
  wake(out: Outbox): void;
}

/**
 * Runners (decisions §8): anonymous registration of an Ed25519 key, the challenge-and-signature
 * handshake that yields a token, and what administrators do with runners (approve, revoke, tag,
 * forget). Revoking kills the runner's tokens and requeues its jobs in the same transaction.
 *
 * What keeps it safe on PostgreSQL: every check-then-write (registration, the enrolment code's
 * uses, approval, revocation, tags, deletion) reads and writes in one SERIALIZABLE transaction,
 * retried by the engine when a concurrent one changed what it read; a key registered twice at
 * once is also refused by the unique index on the fingerprint.
 */
export class RunnersService {
  readonly tokens: RunnerTokens;
  readonly codes: EnrolmentCodes;
  private readonly nonces = new Map<string, { fingerprint: string; expiresAt: number }>();

  constructor(
    private readonly d: Deps,
    private readonly work: RunnerWork,
  ) {
    this.tokens = new RunnerTokens(d.tx);
    this.codes = new EnrolmentCodes(d);
  }

  private async view(q: Q, r: RunnerRow): Promise<Runner> {
    const now = this.d.clock.now().getTime();
    const current = await currentJobOf(q, r.id);
    const attached = await q
      .select({ name: runnerFiles.name, fileId: runnerFiles.fileId, sizeBytes: files.sizeBytes, sha256: files.sha256 })
      .from(runnerFiles)
      .innerJoin(files, eq(files.id, runnerFiles.fileId))
      .where(eq(runnerFiles.runnerId, r.id))
      .orderBy(asc(runnerFiles.name));
    return compact({
      id: r.id,
      name: r.name,
      state: r.state as RunnerState,
      fingerprint: r.fingerprint,
      problemTypes: r.problemTypes,
      tags: r.tags,
      address: r.address,
      version: r.version,
      registeredAt: r.registeredAt,
      approvedAt: r.approvedAt,
      revokedAt: r.revokedAt,
      revokedReason: r.revokedReason,
      lastSeenAt: r.lastSeenAt,
      isConnected: !!r.lastSeenAt && Date.parse(r.lastSeenAt) > now - CONNECTED_SECONDS * 1000,
      completedJobs: r.completedJobs,
      languages: r.languages ?? undefined,
      currentJobId: current?.kind === 'submission' ? current.id : undefined,
      currentJob: current,
      files: attached,
    }) as Runner;
  }

  private async announce(q: Q, r: RunnerRow, out: Outbox): Promise<void> {
    out.emit(event('runnerChanged', { runner: await this.view(q, r) }, { kind: 'permission', key: 'runner:read' }));
  }

  // ---- the handshake ----

  /**
   * Registers a key, or refreshes what a known key says of itself (a runner that restarted). An
   * enrolment code is checked before anything is written, so a refused one leaves no runner behind;
   * it approves a new or waiting key and is spent; a key already approved neither needs nor spends one.
   */
  register(body: RegisterBody, address: string): Promise<Registration> {
    const key = decodeBase64(body.publicKey);
    if (!key) throw ApiError.of('runner.key.malformed', 'publicKey must be base64 of the raw Ed25519 key', { publicKey: ['not base64'] });
    if (key.length !== nacl.sign.publicKeyLength) {
      throw ApiError.of('runner.key.length', `An Ed25519 public key has ${nacl.sign.publicKeyLength} bytes, not ${key.length}`, { publicKey: ['wrong length'] });
    }
    const fingerprint = sha256Hex(key);
    const types = [...new Set(body.problemTypes)];
    return this.d.tx.write(async (q, out) => {
      const at = this.d.clock.now();
      const now = iso(at);
      const known = await runnerWhere(q, eq(runners.fingerprint, fingerprint));
      if (known?.state === 'revoked') throw ApiError.of('runner.revoked', 'This key was revoked; make a new key to register again');
      // an approved key needs no code: running the enrolment command twice must not fail on the spent code
      const enrolment = body.enrolmentCode === undefined || known?.state === 'approved' ? undefined : await this.codes.check(q, body.enrolmentCode, at);
      if (known) {
        await q
          .update(runners)
          .set({ name: body.name, problemTypes: types, ...(body.version != null ? { version: body.version } : {}), address, lastSeenAt: now })
          .where(eq(runners.id, known.id));
      } else {
        await q.insert(runners).values({
          id: newId(),
          name: body.name,
          publicKey: key.toString('base64'),
          fingerprint,
          state: 'pendingApproval',
          problemTypes: types,
          tags: [...new Set(body.tags ?? [])],
          address,
          version: body.version ?? null,
          registeredAt: now,
          lastSeenAt: now,
        });
      }
      const r = (await runnerWhere(q, eq(runners.fingerprint, fingerprint)))!;
      if (enrolment && r.state === 'pendingApproval') return this.enrol(q, r, enrolment, at, out);
      await this.announce(q, r, out);
      return { runnerId: r.id, fingerprint, state: r.state as RunnerState };
    });
  }

  /** Approves a waiting runner with an enrolment code, giving it the code's name and tags. */
  private async enrol(q: Q, r: RunnerRow, e: Enrolment, at: Date, out: Outbox): Promise<Registration> {
    await q
      .update(runners)
      .set({ state: 'approved', approvedAt: iso(at), ...(e.name !== null ? { name: e.name } : {}), tags: e.tags.length ? e.tags : r.tags })
      .where(eq(runners.id, r.id));
    await this.codes.spend(q, e, at);
    const enrolled = (await runnerWhere(q, eq(runners.id, r.id)))!;
    await this.announce(q, enrolled, out);
    return { runnerId: enrolled.id, fingerprint: enrolled.fingerprint, state: enrolled.state as RunnerState, name: enrolled.name, tags: enrolled.tags };
  }

  async challenge(fingerprint: string): Promise<{ nonce: string; expiresAt: string }> {
    const known = await this.d.tx.read((q) => q.select({ id: runners.id }).from(runners).where(eq(runners.fingerprint, fingerprint)).limit(1));
    if (!known.length) throw notFound('runner');
    const now = this.d.clock.now().getTime();
    for (const [n, v] of this.nonces) if (v.expiresAt <= now) this.nonces.delete(n);
    const nonce = randomBytes(32).toString('base64');
    const expiresAt = now + NONCE_SECONDS * 1000;
    this.nonces.set(nonce, { fingerprint, expiresAt });
    return { nonce, expiresAt: new Date(expiresAt).toISOString() };
  }

  /**
   * A token for a signed nonce. The nonce is spent by any attempt. The signature is checked before
   * the approval, so only the key's holder learns whether the runner is approved.
   */
  async token(body: { fingerprint: string; nonce: string; signature: string; languages?: string[] | undefined }, address: string): Promise<{ token: string; expiresAt: string }> {
    const issued = this.nonces.get(body.nonce);
    this.nonces.delete(body.nonce);
    const now = this.d.clock.now();
    if (!issued) throw ApiError.of('runner.nonce.unknown', 'The nonce is unknown or already used: ask for a new challenge');
    if (issued.expiresAt <= now.getTime()) throw ApiError.of('runner.nonce.expired', 'The nonce expired: ask for a new challenge');
    if (issued.fingerprint !== body.fingerprint) throw ApiError.of('runner.nonce.mismatch', 'The nonce was issued to another key');
    const r = await this.d.tx.read((q) => runnerWhere(q, eq(runners.fingerprint, body.fingerprint)));
    if (!r) throw notFound('runner');
    const sig = decodeBase64(body.signature);
    const valid =
      !!sig && sig.length === nacl.sign.signatureLength && nacl.sign.detached.verify(Buffer.from(body.nonce, 'utf8'), sig, Buffer.from(r.publicKey, 'base64'));
    if (!valid) throw ApiError.of('runner.signature', 'The signature does not verify with the registered key');
    if (r.state !== 'approved') throw ApiError.of('runner.notApproved', r.state === 'revoked' ? 'The runner is revoked' : 'The runner is waiting for an administrator to approve it');
    // what it reports replaces what it reported before; nothing reported (an older runner) is unknown, not none
    const languages = body.languages ? [...new Set(body.languages)].sort() : null;
    await this.d.tx.write((q) => q.update(runners).set({ lastSeenAt: iso(now), address, languages }).where(eq(runners.id, r.id)));
    return this.tokens.issue(r.id, now);
  }

  async authenticate(header: string | undefined, address: string): Promise<RunnerActor> {
    return await this.tokens.authenticate(header, address, this.d.clock.now());
  }

  async heartbeat(runner: RunnerActor, address: string): Promise<void> {
    await this.d.tx.write((q) => q.update(runners).set({ lastSeenAt: iso(this.d.clock.now()), address }).where(eq(runners.id, runner.runnerId)));
  }

  /** Attaches an upload of this runner to the runner itself; a newer file under a name replaces the older. */
  async attachFile(runner: RunnerActor, fileId: string, name: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const own = await q.select({ id: files.id }).from(files).where(and(eq(files.id, fileId), eq(files.uploadedByRunner, runner.runnerId))).limit(1);
      if (!own.length) throw ApiError.of('file.missing', `No file ${fileId} uploaded by this runner`, { fileId: ['unknown'] });
      const attachedAt = iso(this.d.clock.now());
      await q
        .insert(runnerFiles)
        .values({ runnerId: runner.runnerId, name, fileId, attachedAt })
        .onConflictDoUpdate({ target: [runnerFiles.runnerId, runnerFiles.name], set: { fileId, attachedAt } });
      await this.announce(q, (await runnerWhere(q, eq(runners.id, runner.runnerId)))!, out);
    });
  }

  /**
   * Trusts a key without an administrator's approval: the runner `judge up` starts beside the
   * server on the same machine, whose key the server made itself. A revoked key stays revoked.
   */
  trustLocal(publicKey: string, name: string): Promise<{ runnerId: string; state: RunnerState }> {
    const key = decodeBase64(publicKey);
    // the key comes from the server's own local runner, never from a request: a bad one is a bug
    if (!key || key.length !== nacl.sign.publicKeyLength) throw new Error('not an Ed25519 public key');
    const fingerprint = sha256Hex(key);
    return this.d.tx.write(async (q, out) => {
      const now = iso(this.d.clock.now());
      const known = await runnerWhere(q, eq(runners.fingerprint, fingerprint));
      if (!known) {
        await q.insert(runners).values({
          id: newId(),
          name,
          publicKey: key.toString('base64'),
          fingerprint,
          state: 'approved',
          problemTypes: [],
          tags: [],
          registeredAt: now,
          approvedAt: now,
        });
      } else if (known.state === 'pendingApproval') {
        await q.update(runners).set({ state: 'approved', approvedAt: now }).where(eq(runners.id, known.id));
      }
      const r = (await runnerWhere(q, eq(runners.fingerprint, fingerprint)))!;
      if (!known || known.state !== r.state) await this.announce(q, r, out);
      return { runnerId: r.id, state: r.state as RunnerState };
    });
  }

  /**
   * The local runner's process ended (judge up saw it exit): what that runner holds goes back to
   * the queue now rather than when its lease lapses, counted as a failed delivery: a submission
   * that brings the runner down again and again is given up at the delivery cap.
   */
  async requeueLocal(runnerId: string): Promise<void> {
    await this.d.tx.write((q, out) => this.work.requeueAllOf(q, runnerId, out, "the local runner's process ended while judging it"));
  }

  // ---- management (decisions §8, extension) ----

  async list(actor: Actor, query: { page?: number; pageSize?: number; state?: string; search?: string }): Promise<Page<Runner>> {
    await this.d.permissions.require(actor, 'runner:read');
    const { page, pageSize } = clampPaging(query);
    const filters: SQL[] = [];
    if (query.state) filters.push(eq(runners.state, query.state));
    if (query.search) {
      // case-insensitive on both engines: both sides lowered (SQLite's LIKE folds ASCII, PostgreSQL's folds nothing)
      const like = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const matches = (column: typeof runners.name | typeof runners.fingerprint | typeof runners.address) => sql`lower(${column}) like ${like} escape '\\'`;
      filters.push(or(matches(runners.name), matches(runners.fingerprint), matches(runners.address))!);
    }
    const where = filters.length ? and(...filters) : undefined;
    return this.d.tx.read(async (q) => {
      const [total] = await q.select({ n: count() }).from(runners).where(where);
      const rows = await q
        .select()
        .from(runners)
        .where(where)
        .orderBy(desc(runners.registeredAt), desc(runners.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      const items: Runner[] = [];
      for (const r of rows) items.push(await this.view(q, r));
      return { items, total: total!.n, page, pageSize };
    });
  }

  async get(actor: Actor, id: string): Promise<Runner> {
    await this.d.permissions.require(actor, 'runner:read');
    return this.d.tx.read(async (q) => {
      const r = await runnerWhere(q, eq(runners.id, id));
      if (!r) throw notFound('runner');
      return this.view(q, r);
    });
  }

  private async managed(q: Q, actor: Actor, id: string, key: 'runner:approve' | 'runner:revoke' | 'runner:update'): Promise<RunnerRow> {
    await this.d.permissions.require(actor, key, null, q);
    const r = await runnerWhere(q, eq(runners.id, id));
    if (!r) throw notFound('runner');
    return r;
  }

  approve(actor: Actor, id: string): Promise<Runner> {
    return this.d.tx.write(async (q, out) => {
      const r = await this.managed(q, actor, id, 'runner:approve');
      if (r.state === 'revoked') throw ApiError.of('runner.revoked', 'A revoked runner cannot be approved; it must register a new key');
      if (r.state === 'approved') return this.view(q, r);
      await q.update(runners).set({ state: 'approved', approvedAt: iso(this.d.clock.now()) }).where(eq(runners.id, id));
      return this.changed(q, id, out);
    });
  }

  revoke(actor: Actor, id: string, reason?: string): Promise<Runner> {
    return this.d.tx.write(async (q, out) => {
      const r = await this.managed(q, actor, id, 'runner:revoke');
      if (r.state === 'revoked') return this.view(q, r);
      await q.update(runners).set({ state: 'revoked', revokedAt: iso(this.d.clock.now()), revokedReason: reason || null }).where(eq(runners.id, id));
      await q.delete(runnerTokens).where(eq(runnerTokens.runnerId, id));
      await this.work.requeueAllOf(q, id, out, 'the runner was revoked while judging it');
      return this.changed(q, id, out);
    });
  }

  setTags(actor: Actor, id: string, tags: string[]): Promise<Runner> {
    return this.d.tx.write(async (q, out) => {
      await this.managed(q, actor, id, 'runner:update');
      await q.update(runners).set({ tags: [...new Set(tags)] }).where(eq(runners.id, id));
      // a job that waited for these tags can be claimed now
      this.work.wake(out);
      return this.changed(q, id, out);
    });
  }

  /** The runner as it is now, announced to those who watch the runners. */
  private async changed(q: Q, id: string, out: Outbox): Promise<Runner> {
    const updated = (await runnerWhere(q, eq(runners.id, id)))!;
    const view = await this.view(q, updated);
    out.emit(event('runnerChanged', { runner: view }, { kind: 'permission', key: 'runner:read' }));
    return view;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const r = await this.managed(q, actor, id, 'runner:revoke');
      if (r.state !== 'revoked') throw ApiError.of('runner.notRevoked', 'Revoke the runner before deleting it');
      await q.delete(runners).where(eq(runners.id, id));
      out.emit(event('runnerChanged', { deletedId: id }, { kind: 'permission', key: 'runner:read' }));
    });
  }
}
