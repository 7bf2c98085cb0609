import type { OperationInput, Page, Runner, ops } from '@judge/contract';
import { ApiError, clampPaging, notFound } from '@judge/contract';
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import type { Actor } from '../../auth/permissions.js';
import { RunnerTokens, type RunnerActor } from '../../auth/runner-tokens.js';
import type { Outbox } from '../../db/transactor.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId, sha256Hex, statements } from '../../util.js';
import { currentJobOf } from './current-job.js';
import { EnrolmentCodes, type Enrolment } from './enrolment-codes.js';

type RegisterBody = OperationInput<typeof ops.registerRunner>['body'];
type Registration = { runnerId: string; fingerprint: string; state: RunnerRow['state']; name?: string; tags?: string[] };

interface RunnerRow {
  id: string;
  name: string;
  publicKey: string;
  fingerprint: string;
  state: 'pendingApproval' | 'approved' | 'revoked';
  problemTypes: string;
  tags: string;
  address: string | null;
  version: string | null;
  registeredAt: string;
  approvedAt: string | null;
  revokedAt: string | null;
  revokedReason: string | null;
  lastSeenAt: string | null;
  completedJobs: number;
  languages: string | null;
}

const RUNNER_SELECT = `SELECT id, name, public_key AS publicKey, fingerprint, state, problem_types AS problemTypes, tags, address, version,
  registered_at AS registeredAt, approved_at AS approvedAt, revoked_at AS revokedAt, revoked_reason AS revokedReason,
  last_seen_at AS lastSeenAt, completed_jobs AS completedJobs, languages FROM runners`;

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
  requeueAllOf(runnerId: string, out: Outbox, reason: string): void;
  /** Runners may match other work now: waiting claims look again once the caller's transaction commits. */
  wake(out: Outbox): void;
}

/**
 * Runners (decisions §8): anonymous registration of an Ed25519 key, the challenge-and-signature
 * handshake that yields a token, and what administrators do with runners (approve, revoke, tag,
 * forget). Revoking kills the runner's tokens and requeues its jobs in the same transaction.
 */
export class RunnersService {
  readonly tokens: RunnerTokens;
  readonly codes: EnrolmentCodes;
  private readonly nonces = new Map<string, { fingerprint: string; expiresAt: number }>();
  private readonly q;

  constructor(
    private readonly d: Deps,
    private readonly work: RunnerWork,
  ) {
    this.tokens = new RunnerTokens(d.tx);
    this.codes = new EnrolmentCodes(d);
    this.q = statements(d.sqlite);
  }

  private byId(id: string): RunnerRow | undefined {
    return this.q<[string], RunnerRow>(`${RUNNER_SELECT} WHERE id = ?`).get(id);
  }

  private byFingerprint(fp: string): RunnerRow | undefined {
    return this.q<[string], RunnerRow>(`${RUNNER_SELECT} WHERE fingerprint = ?`).get(fp);
  }

  private view(r: RunnerRow): Runner {
    const now = this.d.clock.now().getTime();
    const current = currentJobOf(this.q, r.id);
    const files = this.q<[string], { name: string; fileId: string; sizeBytes: number; sha256: string }>(
      'SELECT rf.name, rf.file_id AS fileId, f.size_bytes AS sizeBytes, f.sha256 FROM runner_files rf JOIN files f ON f.id = rf.file_id WHERE rf.runner_id = ? ORDER BY rf.name',
    ).all(r.id);
    return compact({
      id: r.id,
      name: r.name,
      state: r.state,
      fingerprint: r.fingerprint,
      problemTypes: JSON.parse(r.problemTypes) as string[],
      tags: JSON.parse(r.tags) as string[],
      address: r.address,
      version: r.version,
      registeredAt: r.registeredAt,
      approvedAt: r.approvedAt,
      revokedAt: r.revokedAt,
      revokedReason: r.revokedReason,
      lastSeenAt: r.lastSeenAt,
      isConnected: !!r.lastSeenAt && Date.parse(r.lastSeenAt) > now - CONNECTED_SECONDS * 1000,
      completedJobs: r.completedJobs,
      languages: r.languages ? (JSON.parse(r.languages) as string[]) : undefined,
      currentJobId: current?.kind === 'submission' ? current.id : undefined,
      currentJob: current,
      files,
    }) as Runner;
  }

  private announce(r: RunnerRow, out: Outbox): void {
    out.emit(event('runnerChanged', { runner: this.view(r) }, { kind: 'permission', key: 'runner:read' }));
  }

  // ---- the handshake ----

  /**
   * Registers a key, or refreshes what a known key says of itself (a runner that restarted). An
   * enrolment code is checked before anything is written, so a refused one leaves no runner behind;
   * it approves a new or waiting key and is spent; a key already approved neither needs nor spends one.
   */
  register(body: RegisterBody, address: string): Registration {
    const key = decodeBase64(body.publicKey);
    if (!key) throw ApiError.of('runner.key.malformed', 'publicKey must be base64 of the raw Ed25519 key', { publicKey: ['not base64'] });
    if (key.length !== nacl.sign.publicKeyLength) {
      throw ApiError.of('runner.key.length', `An Ed25519 public key has ${nacl.sign.publicKeyLength} bytes, not ${key.length}`, { publicKey: ['wrong length'] });
    }
    const fingerprint = sha256Hex(key);
    const types = JSON.stringify([...new Set(body.problemTypes)]);
    return this.d.tx.run((out) => {
      const at = this.d.clock.now();
      const now = iso(at);
      const known = this.byFingerprint(fingerprint);
      if (known?.state === 'revoked') throw ApiError.of('runner.revoked', 'This key was revoked; make a new key to register again');
      // an approved key needs no code: running the enrolment command twice must not fail on the spent code
      const enrolment = body.enrolmentCode === undefined || known?.state === 'approved' ? undefined : this.codes.check(body.enrolmentCode, at);
      if (known) {
        this.q('UPDATE runners SET name = ?, problem_types = ?, version = coalesce(?, version), address = ?, last_seen_at = ? WHERE id = ?').run(
          body.name,
          types,
          body.version ?? null,
          address,
          now,
          known.id,
        );
      } else {
        this.q(
          `INSERT INTO runners (id, name, public_key, fingerprint, state, problem_types, tags, address, version, registered_at, last_seen_at)
           VALUES (?, ?, ?, ?, 'pendingApproval', ?, ?, ?, ?, ?, ?)`,
        ).run(newId(), body.name, key.toString('base64'), fingerprint, types, JSON.stringify([...new Set(body.tags ?? [])]), address, body.version ?? null, now, now);
      }
      const r = this.byFingerprint(fingerprint)!;
      if (enrolment && r.state === 'pendingApproval') return this.enrol(r, enrolment, at, out);
      this.announce(r, out);
      return { runnerId: r.id, fingerprint, state: r.state };
    });
  }

  /** Approves a waiting runner with an enrolment code, giving it the code's name and tags. */
  private enrol(r: RunnerRow, e: Enrolment, at: Date, out: Outbox): Registration {
    this.q("UPDATE runners SET state = 'approved', approved_at = ?, name = coalesce(?, name), tags = ? WHERE id = ?").run(
      iso(at),
      e.name,
      e.tags.length ? JSON.stringify(e.tags) : r.tags,
      r.id,
    );
    this.codes.spend(e, at);
    const enrolled = this.byId(r.id)!;
    this.announce(enrolled, out);
    return { runnerId: enrolled.id, fingerprint: enrolled.fingerprint, state: enrolled.state, name: enrolled.name, tags: JSON.parse(enrolled.tags) as string[] };
  }

  challenge(fingerprint: string): { nonce: string; expiresAt: string } {
    if (!this.byFingerprint(fingerprint)) throw notFound('runner');
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
    const r = this.byFingerprint(body.fingerprint);
    if (!r) throw notFound('runner');
    const sig = decodeBase64(body.signature);
    const valid =
      !!sig && sig.length === nacl.sign.signatureLength && nacl.sign.detached.verify(Buffer.from(body.nonce, 'utf8'), sig, Buffer.from(r.publicKey, 'base64'));
    if (!valid) throw ApiError.of('runner.signature', 'The signature does not verify with the registered key');
    if (r.state !== 'approved') throw ApiError.of('runner.notApproved', r.state === 'revoked' ? 'The runner is revoked' : 'The runner is waiting for an administrator to approve it');
    // what it reports replaces what it reported before; nothing reported (an older runner) is unknown, not none
    const languages = body.languages ? JSON.stringify([...new Set(body.languages)].sort()) : null;
    this.q('UPDATE runners SET last_seen_at = ?, address = ?, languages = ? WHERE id = ?').run(iso(now), address, languages, r.id);
    return await this.tokens.issue(r.id, now);
  }

  async authenticate(header: string | undefined, address: string): Promise<RunnerActor> {
    return await this.tokens.authenticate(header, address, this.d.clock.now());
  }

  heartbeat(runner: RunnerActor, address: string): void {
    this.q('UPDATE runners SET last_seen_at = ?, address = ? WHERE id = ?').run(iso(this.d.clock.now()), address, runner.runnerId);
  }

  /** Attaches an upload of this runner to the runner itself; a newer file under a name replaces the older. */
  attachFile(runner: RunnerActor, fileId: string, name: string): void {
    const own = this.q<[string, string], { id: string }>('SELECT id FROM files WHERE id = ? AND uploaded_by_runner = ?').get(fileId, runner.runnerId);
    if (!own) throw ApiError.of('file.missing', `No file ${fileId} uploaded by this runner`, { fileId: ['unknown'] });
    this.d.tx.run((out) => {
      this.q(
        `INSERT INTO runner_files (runner_id, name, file_id, attached_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (runner_id, name) DO UPDATE SET file_id = excluded.file_id, attached_at = excluded.attached_at`,
      ).run(runner.runnerId, name, fileId, iso(this.d.clock.now()));
      this.announce(this.byId(runner.runnerId)!, out);
    });
  }

  /**
   * Trusts a key without an administrator's approval: the runner `judge up` starts beside the
   * server on the same machine, whose key the server made itself. A revoked key stays revoked.
   */
  trustLocal(publicKey: string, name: string): { runnerId: string; state: RunnerRow['state'] } {
    const key = decodeBase64(publicKey);
    // the key comes from the server's own local runner, never from a request: a bad one is a bug
    if (!key || key.length !== nacl.sign.publicKeyLength) throw new Error('not an Ed25519 public key');
    const fingerprint = sha256Hex(key);
    return this.d.tx.run((out) => {
      const now = iso(this.d.clock.now());
      const known = this.byFingerprint(fingerprint);
      if (!known) {
        this.q(
          `INSERT INTO runners (id, name, public_key, fingerprint, state, problem_types, tags, registered_at, approved_at)
           VALUES (?, ?, ?, ?, 'approved', '[]', '[]', ?, ?)`,
        ).run(newId(), name, key.toString('base64'), fingerprint, now, now);
      } else if (known.state === 'pendingApproval') {
        this.q("UPDATE runners SET state = 'approved', approved_at = ? WHERE id = ?").run(now, known.id);
      }
      const r = this.byFingerprint(fingerprint)!;
      if (!known || known.state !== r.state) this.announce(r, out);
      return { runnerId: r.id, state: r.state };
    });
  }

  /**
   * The local runner's process ended (judge up saw it exit): what that runner holds goes back to
   * the queue now rather than when its lease lapses, counted as a failed delivery: a submission
   * that brings the runner down again and again is given up at the delivery cap.
   */
  requeueLocal(runnerId: string): void {
    this.d.tx.run((out) => this.work.requeueAllOf(runnerId, out, 'the local runner\'s process ended while judging it'));
  }

  // ---- management (decisions §8, extension) ----

  list(actor: Actor, query: { page?: number; pageSize?: number; state?: string; search?: string }): Page<Runner> {
    this.d.permissions.now.require(actor, 'runner:read');
    const { page, pageSize } = clampPaging(query);
    const where: string[] = [];
    const args: unknown[] = [];
    if (query.state) {
      where.push('state = ?');
      args.push(query.state);
    }
    if (query.search) {
      where.push("(name LIKE ? ESCAPE '\\' OR fingerprint LIKE ? ESCAPE '\\' OR address LIKE ? ESCAPE '\\')");
      const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      args.push(like, like, like);
    }
    const filter = where.length ? ` WHERE ${where.join(' AND ')}` : '';
    const total = (this.d.sqlite.prepare(`SELECT count(*) AS n FROM runners${filter}`).get(...args) as { n: number }).n;
    const rows = this.d.sqlite.prepare(`${RUNNER_SELECT}${filter} ORDER BY registered_at DESC, id DESC LIMIT ? OFFSET ?`).all(...args, pageSize, (page - 1) * pageSize) as RunnerRow[];
    return { items: rows.map((r) => this.view(r)), total, page, pageSize };
  }

  get(actor: Actor, id: string): Runner {
    this.d.permissions.now.require(actor, 'runner:read');
    const r = this.byId(id);
    if (!r) throw notFound('runner');
    return this.view(r);
  }

  private managed(actor: Actor, id: string, key: 'runner:approve' | 'runner:revoke' | 'runner:update'): RunnerRow {
    this.d.permissions.now.require(actor, key);
    const r = this.byId(id);
    if (!r) throw notFound('runner');
    return r;
  }

  approve(actor: Actor, id: string): Runner {
    return this.d.tx.run((out) => {
      const r = this.managed(actor, id, 'runner:approve');
      if (r.state === 'revoked') throw ApiError.of('runner.revoked', 'A revoked runner cannot be approved; it must register a new key');
      if (r.state === 'approved') return this.view(r);
      this.q("UPDATE runners SET state = 'approved', approved_at = ? WHERE id = ?").run(iso(this.d.clock.now()), id);
      const updated = this.byId(id)!;
      this.announce(updated, out);
      return this.view(updated);
    });
  }

  revoke(actor: Actor, id: string, reason?: string): Runner {
    return this.d.tx.run((out) => {
      const r = this.managed(actor, id, 'runner:revoke');
      if (r.state === 'revoked') return this.view(r);
      this.q("UPDATE runners SET state = 'revoked', revoked_at = ?, revoked_reason = ? WHERE id = ?").run(iso(this.d.clock.now()), reason || null, id);
      this.q('DELETE FROM runner_tokens WHERE runner_id = ?').run(id);
      this.work.requeueAllOf(id, out, 'the runner was revoked while judging it');
      const updated = this.byId(id)!;
      this.announce(updated, out);
      return this.view(updated);
    });
  }

  setTags(actor: Actor, id: string, tags: string[]): Runner {
    return this.d.tx.run((out) => {
      this.managed(actor, id, 'runner:update');
      this.q('UPDATE runners SET tags = ? WHERE id = ?').run(JSON.stringify([...new Set(tags)]), id);
      const updated = this.byId(id)!;
      this.announce(updated, out);
      // a job that waited for these tags can be claimed now
      this.work.wake(out);
      return this.view(updated);
    });
  }

  delete(actor: Actor, id: string): void {
    this.d.tx.run((out) => {
      const r = this.managed(actor, id, 'runner:revoke');
      if (r.state !== 'revoked') throw ApiError.of('runner.notRevoked', 'Revoke the runner before deleting it');
      this.q('DELETE FROM runners WHERE id = ?').run(id);
      out.emit(event('runnerChanged', { deletedId: id }, { kind: 'permission', key: 'runner:read' }));
    });
  }
}
