import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, BUILT_IN_ROLES, notFound, unauthenticated, type AccountDeletionRequest, type DeletionRequestReceipt } from '@judge/contract';
import { and, asc, desc, eq, isNull, lte } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { accountDeletionRequests, grants, identityProviders, roles, userIdentities, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { addSeconds, compact, iso, newId } from '../../util.js';
import type { BlobStore } from '../files/index.js';
import { displayName } from '../users/index.js';
import { anonymiseAccount, removeOrphanBlobs } from './anonymise.js';
import { lastAdministrator } from './deletion.js';

type RequestRow = typeof accountDeletionRequests.$inferSelect;

/** How many due requests one sweep carries out at most: each is a write of its own. */
const SWEEP_BATCH = 50;
const LISTED = 500;
const PARTICIPANT = new Set<string>(BUILT_IN_ROLES.participant.permissions);

/** Equal strings, in time that does not tell how much of the secret a guess got right. */
function sameSecret(given: string, stored: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(given), h(stored));
}

/**
 * Whether the account holds system-wide permissions beyond a participant's (an administrator, a
 * manager everywhere): such an account is never emptied without an administrator looking at it, as
 * a forged or mistaken request would otherwise take the installation's staff away.
 */
async function holdsSystemPermissions(q: Q, userId: string): Promise<boolean> {
  const held = await q
    .select({ permissions: roles.permissions })
    .from(grants)
    .innerJoin(roles, eq(roles.id, grants.roleId))
    .where(and(eq(grants.userId, userId), isNull(grants.activityId)));
  return held.some((r) => r.permissions.some((k) => !PARTICIPANT.has(k)));
}

/**
 * Account deletion requests (decisions §4, "Deletion channel"): an identity provider's back channel
 * asks for the account of one of its subjects to go; the request waits `auth.providerDeletionHours`
 * (for an administrator to halt it), then the sweeper anonymises the account as its owner's deletion
 * does (anonymise.ts).
 */
export class DeletionRequests {
  constructor(
    private readonly d: Deps,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * The back channel's request. One refusal for an unknown provider, a channel that is off, a
   * missing secret and a wrong one, so that a caller learns nothing from which; the log says which,
   * never the secret. A subject with no account here is answered alike and nothing is recorded.
   */
  async receive(slug: string, authorization: string | undefined, body: { subject: string; requestId: string }, from: string): Promise<DeletionRequestReceipt> {
    const given = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '';
    const p = await this.d.tx.read(async (q) => (await q.select().from(identityProviders).where(eq(identityProviders.slug, slug)))[0]);
    const reason = !p ? 'unknown provider' : !p.deletionChannelEnabled ? 'deletion channel off' : !p.deletionSecret ? 'no deletion secret set' : !sameSecret(given, p.deletionSecret) ? 'wrong secret' : undefined;
    if (reason || !p) {
      this.d.log.warn({ provider: slug, reason, ip: from }, 'provider deletion request refused');
      throw unauthenticated('The deletion channel does not accept this request');
    }
    const now = this.d.clock.now();
    const dueAt = iso(addSeconds(now, this.d.config.auth.providerDeletionHours * 3600));
    const answer = await this.d.tx.write(async (q) => {
      const same = await q
        .select()
        .from(accountDeletionRequests)
        .where(and(eq(accountDeletionRequests.providerId, p.id), eq(accountDeletionRequests.requestId, body.requestId)));
      if (same[0]) return { row: same[0], fresh: false };
      const link = (await q.select({ userId: userIdentities.userId }).from(userIdentities).where(and(eq(userIdentities.providerId, p.id), eq(userIdentities.subject, body.subject))))[0];
      if (!link) return undefined;
      const row: RequestRow = {
        id: newId(),
        userId: link.userId,
        providerId: p.id,
        requestId: body.requestId,
        channel: 'provider',
        state: 'pending',
        requestedAt: iso(now),
        dueAt,
        doneAt: null,
        haltedBy: null,
        note: null,
      };
      await q.insert(accountDeletionRequests).values(row);
      return { row, fresh: true };
    });
    if (!answer) {
      this.d.log.info({ provider: slug, requestId: body.requestId }, 'provider deletion request for a subject with no account here: nothing recorded');
      return { id: newId(), state: 'pending', dueAt };
    }
    if (answer.fresh) this.d.log.info({ provider: slug, requestId: body.requestId, requestRow: answer.row.id, userId: answer.row.userId, dueAt }, 'provider deletion request recorded');
    return { id: answer.row.id, state: answer.row.state, dueAt: answer.row.dueAt };
  }

  async list(actor: Actor): Promise<AccountDeletionRequest[]> {
    await this.d.permissions.require(actor, 'user:update');
    return this.d.tx.read(async (q) => {
      const rows = await this.selectViews(q).orderBy(desc(accountDeletionRequests.requestedAt), desc(accountDeletionRequests.id)).limit(LISTED);
      return rows.map(toView);
    });
  }

  /** An administrator stops a request that has not been carried out: the account stays as it is. */
  async halt(actor: Actor, id: string): Promise<AccountDeletionRequest> {
    await this.d.permissions.require(actor, 'user:update');
    const now = this.d.clock.now();
    const view = await this.d.tx.write(async (q) => {
      const r = await this.find(q, id);
      if (r.state !== 'pending' && r.state !== 'attention') throw ApiError.of('deletion.notPending', `This request is ${r.state}: only a pending one (or one waiting for an administrator) can be halted`);
      await q.update(accountDeletionRequests).set({ state: 'halted', haltedBy: actor.userId, doneAt: iso(now) }).where(eq(accountDeletionRequests.id, id));
      return this.view(q, id);
    });
    this.d.log.info({ requestRow: id, userId: actor.userId }, 'account deletion request halted');
    return view;
  }

  /** An administrator carries out a request that waits for one (`attention`): the account had system permissions. */
  async carryOut(actor: Actor, id: string): Promise<AccountDeletionRequest> {
    await this.d.permissions.require(actor, 'system:administrator');
    const r = await this.d.tx.read((q) => this.find(q, id));
    if (r.state !== 'attention') throw ApiError.of('deletion.notAttention', `This request is ${r.state}: only one waiting for an administrator is carried out by hand`);
    await this.carry(id, this.d.clock.now(), actor.userId);
    return this.d.tx.read((q) => this.view(q, id));
  }

  /** The sweeper's pass: every pending request due at `now` is carried out; answers how many were looked at. */
  async sweep(now: Date): Promise<number> {
    const due = await this.d.tx.read((q) =>
      q
        .select({ id: accountDeletionRequests.id })
        .from(accountDeletionRequests)
        .where(and(eq(accountDeletionRequests.state, 'pending'), lte(accountDeletionRequests.dueAt, iso(now))))
        .orderBy(asc(accountDeletionRequests.dueAt))
        .limit(SWEEP_BATCH),
    );
    for (const { id } of due) {
      try {
        await this.carry(id, now);
      } catch (err) {
        // one account that cannot be emptied must not hold up the others
        this.d.log.error({ err, requestRow: id }, 'an account deletion request could not be carried out');
      }
    }
    return due.length;
  }

  /**
   * Carries out one request in one write, its state read again there (an administrator may have
   * halted it since). By the sweeper (`by` absent), an account with system permissions is left for
   * an administrator (`attention`); by an administrator, only the last administrator is kept.
   */
  private async carry(id: string, now: Date, by?: string): Promise<void> {
    const done = await this.d.tx.write(async (q, out) => {
      const r = await this.find(q, id);
      if (r.state !== (by ? 'attention' : 'pending')) return undefined;
      const u = r.userId ? (await q.select().from(users).where(eq(users.id, r.userId)))[0] : undefined;
      const finish = (state: 'completed' | 'attention', note: string | null) =>
        q.update(accountDeletionRequests).set({ state, note, doneAt: state === 'completed' ? iso(now) : null }).where(eq(accountDeletionRequests.id, id));
      if (!u) {
        await finish('completed', 'The account was gone already');
        return { state: 'completed' as const, orphans: [] };
      }
      if (by && (await lastAdministrator(q, u.id))) throw ApiError.of('account.lastAdministrator', 'This is the only administrator: make another one first, or the installation has nobody to run it');
      if (!by && (await holdsSystemPermissions(q, u.id))) {
        await finish('attention', 'The account holds system permissions: an administrator decides');
        return { state: 'attention' as const, orphans: [] };
      }
      const orphans = await anonymiseAccount(this.d, q, out, u, 'Deleted at the request of its identity provider', now);
      await finish('completed', null);
      return { state: 'completed' as const, orphans, userId: u.id };
    });
    if (!done) return;
    await removeOrphanBlobs(this.d, this.blobs, done.orphans);
    if (done.state === 'attention') this.d.log.warn({ requestRow: id }, 'account deletion request needs an administrator: the account holds system permissions');
    else this.d.log.info({ requestRow: id, userId: done.userId, by }, 'account deleted at the request of its identity provider');
  }

  private async find(q: Q, id: string): Promise<RequestRow> {
    const r = (await q.select().from(accountDeletionRequests).where(eq(accountDeletionRequests.id, id)))[0];
    if (!r) throw notFound('deletion request');
    return r;
  }

  private selectViews(q: Q) {
    return q
      .select({ r: accountDeletionRequests, username: users.username, firstName: users.firstName, lastName: users.lastName, providerSlug: identityProviders.slug })
      .from(accountDeletionRequests)
      .leftJoin(users, eq(users.id, accountDeletionRequests.userId))
      .leftJoin(identityProviders, eq(identityProviders.id, accountDeletionRequests.providerId));
  }

  private async view(q: Q, id: string): Promise<AccountDeletionRequest> {
    const row = (await this.selectViews(q).where(eq(accountDeletionRequests.id, id)))[0];
    if (!row) throw notFound('deletion request');
    return toView(row);
  }
}

type ViewRow = { r: RequestRow; username: string | null; firstName: string | null; lastName: string | null; providerSlug: string | null };

function toView({ r, username, firstName, lastName, providerSlug }: ViewRow): AccountDeletionRequest {
  return compact({
    id: r.id,
    channel: r.channel,
    state: r.state,
    userId: r.userId,
    username,
    displayName: username === null ? null : displayName({ username, firstName, lastName }),
    providerSlug,
    requestId: r.requestId,
    requestedAt: r.requestedAt,
    dueAt: r.dueAt,
    doneAt: r.doneAt,
    haltedByUserId: r.haltedBy,
    note: r.note,
  }) as AccountDeletionRequest;
}
