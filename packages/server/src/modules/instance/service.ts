import { ApiError, type ExternalContent, type Health, type InstanceSettings, type LocalRunnerHealth, type SystemMessageType, type TestMailResult } from '@judge/contract';
import { asc, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { isPermission, type Actor } from '../../auth/permissions.js';
import { attempts, identityProviders, instanceSettings, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { event } from '../../events/bus.js';
import { MailFailed } from '../../mail/mailer.js';
import { testMessage } from '../../mail/messages.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import { readRunnerCensus } from '../runners/index.js';
import { clusterHealth, type ClusterReport } from './cluster-health.js';
import { Maintenance } from './maintenance.js';

/** The switches stored today; documents, logos, theme and providers arrive with their own issues. */
const Stored = z.object({
  name: z.string().default('Judge'),
  localRegistrationEnabled: z.boolean().default(false),
  requireEmail: z.boolean().default(false),
  requireConfirmedEmail: z.boolean().default(false),
  requireApproval: z.boolean().default(false),
  externalJudgingEnabled: z.boolean().default(false),
  seriesRestrictionsEnabled: z.boolean().default(false),
  showLogo: z.boolean().default(true),
  showLocalSignIn: z.boolean().default(true),
  showHero: z.boolean().default(true),
  accountDeletionEnabled: z.boolean().default(false),
  // a class's accounts keep the logins and names their teacher gave them (account module)
  allowRenameStaffAccounts: z.boolean().default(false),
  allowRenameSelfRegistered: z.boolean().default(false),
  // a lab PC is shared: the next class must not start signed in as the last student
  keepSignedInByDefault: z.boolean().default(false),
  // permissions held only with two-factor sign-in on (auth/permissions.ts withholds them until then)
  requireTwoFactorFor: z.array(z.string()).default([]),
  // the hosts POST /files/fetch may download from, normalised and sorted (contract ExternalHost);
  // administrators' alone: never in the settings everybody reads (view)
  externalContentHosts: z.array(z.string()).default([]),
});
type Stored = z.infer<typeof Stored>;
export type InstanceUpdate = Partial<Pick<Stored, 'name' | 'localRegistrationEnabled' | 'requireEmail' | 'requireConfirmedEmail' | 'requireApproval' | 'showLogo' | 'showLocalSignIn' | 'accountDeletionEnabled' | 'allowRenameStaffAccounts' | 'allowRenameSelfRegistered' | 'keepSignedInByDefault' | 'requireTwoFactorFor'>>;

const ROW = 1;
const NO_KEYS: ReadonlySet<string> = new Set();

export class InstanceService {
  private localRunner: (() => LocalRunnerHealth) | undefined;
  private cluster: (() => Promise<ClusterReport>) | undefined;
  readonly maintenance: Maintenance;
  /** The switches as last read or written. */
  private last: { parsed: Stored } | undefined;
  /** Counts committed updates (see settings). */
  private written = 0;
  /** The enabled identity providers as last read (see providers). */
  private shownProviders: { slug: string; displayName: string }[] | undefined;

  constructor(private readonly d: Deps) {
    this.maintenance = new Maintenance(d);
  }

  /** `judge up` tells where the state of its local runner is read (health shows it). */
  watchLocalRunner(state: () => LocalRunnerHealth): void {
    this.localRunner = state;
  }

  /** The app tells where this server's part in the cluster is read, once its node has started (health shows it). */
  watchCluster(report: () => Promise<ClusterReport>): void {
    this.cluster = report;
  }

  /**
   * Liveness, the server's clock (clients align contest clocks to it), the local runner when this
   * server supervises one, whether anything can be judged (the runners and the queue), and the
   * cluster: this server and the servers alive beside it (cluster-health.ts says who sees what).
   */
  async health(version: string, actor?: Actor): Promise<Health> {
    const level = this.maintenance.level;
    const now = this.d.clock.now();
    const [{ census, queue }, report, administrator] = await Promise.all([
      this.d.tx.read(async (q) => ({ census: await readRunnerCensus(q, now.getTime()), queue: await this.queue(q) })),
      this.clusterReport(),
      actor ? this.d.permissions.isAdministrator(actor.userId) : false,
    ]);
    const { connected, approved, pendingApproval } = census;
    return {
      status: 'ok',
      version,
      ...(level !== 'open' ? { maintenance: level } : {}),
      serverTime: iso(now),
      ...(this.localRunner ? { localRunner: this.localRunner() } : {}),
      runners: { connected, approved, pendingApproval },
      queue,
      ...clusterHealth(report, this.d.tx.engineName, now, administrator),
      ...(administrator ? { mail: { transport: this.d.mail.transport, pending: this.d.outgoing.pending, failures: this.d.outgoing.failures() } } : {}),
    };
  }

  /** The app starts the cluster node before it listens, so a request always finds it. */
  private clusterReport(): Promise<ClusterReport> {
    if (!this.cluster) throw new Error('health was asked before the cluster node started');
    return this.cluster();
  }

  /** Attempts waiting for a runner and held by one (the partial queue index answers the first). */
  queue(q?: Q): Promise<{ queued: number; running: number }> {
    return this.d.tx.read(async (q) => {
      const inState = async (state: string) => (await q.select({ n: count() }).from(attempts).where(eq(attempts.state, state)))[0]?.n ?? 0;
      return { queued: await inState('queued'), running: await inState('running') };
    }, q);
  }

  /** An administrator's broadcast to every signed-in session; nothing is stored. */
  async broadcast(actor: Actor, type: SystemMessageType, message: string): Promise<void> {
    await this.d.permissions.require(actor, 'system:administrator');
    await this.d.tx.write(async (_q, out) => out.emit(event('systemMessage', { type, message }, { kind: 'signedIn' })));
    this.d.log.info({ type, by: actor.userId }, 'system message sent');
  }

  /**
   * Sends the administrator's test message at once, the way the judge's other mail goes; a refusal
   * or an unreachable SMTP server answers 502 mail.failed with the reason (no secret in it).
   * `site`: the address the request came to, named in the message when no publicUrl is set.
   */
  async testMail(actor: Actor, to: string, site: string): Promise<TestMailResult> {
    await this.d.permissions.require(actor, 'system:administrator');
    const { name } = await this.settings();
    try {
      const sent = await this.d.mail.send(testMessage(to, name, this.d.config.publicUrl || site));
      return { from: this.d.mail.from, ...sent };
    } catch (e) {
      if (e instanceof MailFailed) throw ApiError.of('mail.failed', `The test message was not sent: ${e.message}`);
      throw e;
    }
  }

  /**
   * The stored switches, with defaults for what was never set. Every GET /account asks, so outside a
   * transaction they come from memory, read once and replaced by `update` after it commits (the only
   * writer of the row). Inside a transaction (pass its `q`) they are read from the row.
   */
  async settings(q?: Q): Promise<Stored> {
    if (!q && this.last) return { ...this.last.parsed };
    const generation = this.written;
    const read = async (r: Q) => (await r.select({ settings: instanceSettings.settings }).from(instanceSettings).where(eq(instanceSettings.id, ROW)).limit(1))[0]?.settings;
    const parsed = Stored.parse((await this.d.tx.read(read, q)) ?? {});
    // a read that began before an update committed must not put back what it replaced
    if (!q && generation === this.written) this.last = { parsed };
    return { ...parsed };
  }

  async view(q?: Q): Promise<InstanceSettings> {
    const { externalContentHosts: _administrators, ...s } = await this.settings(q);
    return { ...s, documents: [], logoTranslations: [], providers: await this.providers(q) };
  }

  /**
   * The sign-in page's buttons: the enabled identity providers, by name. Every page load asks
   * (GET /instance), so outside a transaction they come from memory like the switches, forgotten
   * with them when a provider changes (`announce`).
   */
  private async providers(q?: Q): Promise<{ slug: string; displayName: string }[]> {
    if (!q && this.shownProviders) return this.shownProviders;
    const generation = this.written;
    const list = await this.d.tx.read(
      (r) => r.select({ slug: identityProviders.slug, displayName: identityProviders.displayName }).from(identityProviders).where(eq(identityProviders.enabled, true)).orderBy(asc(identityProviders.displayName)),
      q,
    );
    if (!q && generation === this.written) this.shownProviders = list;
    return list;
  }

  /**
   * Inside the write that changed what the instance shows (a provider added, renamed, disabled):
   * every signed-in page is told, and every server forgets what it kept (a settings note).
   */
  async announce(q: Q, out: Outbox): Promise<void> {
    out.emit(event('instanceChanged', { instance: await this.view(q) }, { kind: 'signedIn' }));
    out.note({ what: 'settings' });
    out.then(() => this.forgetSettings());
  }

  /** The hosts POST /files/fetch may download from (the files module asks before each fetch). */
  async externalHosts(): Promise<readonly string[]> {
    return (await this.settings()).externalContentHosts;
  }

  /**
   * The external-content list. Reading it takes instance:update too: the catalogue has no key for
   * reading the instance's administrative settings, and the key that changes the list is the
   * closest (it tells which hosts the server contacts for users, which only whoever runs it needs).
   */
  async externalContent(actor: Actor): Promise<ExternalContent> {
    await this.d.permissions.require(actor, 'instance:update');
    const hosts = await this.externalHosts();
    return { enabled: hosts.length > 0, hosts: [...hosts] };
  }

  /** Replaces the list (the contract's schema lowercased, checked, deduplicated and sorted it). */
  async setExternalContent(actor: Actor, hosts: string[]): Promise<ExternalContent> {
    await this.d.permissions.require(actor, 'instance:update');
    const list = [...new Set(hosts)].sort();
    await this.d.tx.write(async (q, out) => {
      const next = { ...(await this.settings(q)), externalContentHosts: list };
      const now = iso(this.d.clock.now());
      await q
        .insert(instanceSettings)
        .values({ id: ROW, settings: next, updatedAt: now })
        .onConflictDoUpdate({ target: instanceSettings.id, set: { settings: next, updatedAt: now } });
      out.then(() => {
        this.written++;
        this.last = { parsed: Stored.parse(next) };
      });
      out.note({ what: 'settings' });
    });
    this.d.log.info({ hosts: list.length, by: actor.userId }, 'external-content list changed');
    return { enabled: list.length > 0, hosts: list };
  }

  /** Another server changed the switches (cluster/cache-notes.ts): the next read takes them from the row. */
  forgetSettings(): void {
    this.written++;
    this.last = undefined;
    this.shownProviders = undefined;
  }

  /**
   * An administrator without two-factor sign-in who requires it for a permission they hold would
   * take that permission from themselves (perhaps the one to undo it): refused, they enable it first.
   */
  private async keepCallerKeys(q: Q, actor: Actor, required: string[]): Promise<void> {
    const [me] = await q.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, actor.userId)).limit(1);
    if (me?.on) return;
    const mine = await this.d.permissions.of(actor.userId, q);
    const lost = required.filter((k) => isPermission(k) && mine.holdsAnywhere(k));
    if (lost.length) throw ApiError.of('instance.twoFactor.enableFirst', `Turn on two-factor sign-in for your own account first: you hold ${lost.join(', ')}, which the rule would take from you`);
  }

  /** Whether the rule withholds anything from this account: the keys it names, unless two-factor sign-in is on. */
  async twoFactorWithheld(userId: string, q: Q): Promise<ReadonlySet<string>> {
    // from memory when there (a load after every invalidation would otherwise cost a read more); an
    // update replaces it in the same synchronous step that invalidates the permissions (transactor.ts)
    const { requireTwoFactorFor } = this.last ? this.last.parsed : await this.settings(q);
    if (!requireTwoFactorFor.length) return NO_KEYS;
    const [u] = await q.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, userId)).limit(1);
    return u?.on ? NO_KEYS : new Set(requireTwoFactorFor);
  }

  /** The document is read and replaced whole in one transaction (SERIALIZABLE, retried, on PostgreSQL). */
  async update(actor: Actor, patch: InstanceUpdate): Promise<InstanceSettings> {
    await this.d.permissions.require(actor, 'instance:update');
    return this.d.tx.write(async (q, out) => {
      const before = await this.settings(q);
      const next = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      if (patch.requireTwoFactorFor) {
        next.requireTwoFactorFor = [...new Set(patch.requireTwoFactorFor)].sort();
        await this.keepCallerKeys(q, actor, next.requireTwoFactorFor);
        if (next.requireTwoFactorFor.join() !== before.requireTwoFactorFor.join()) out.touchPermissions();
      }
      const now = iso(this.d.clock.now());
      await q
        .insert(instanceSettings)
        .values({ id: ROW, settings: next, updatedAt: now })
        .onConflictDoUpdate({ target: instanceSettings.id, set: { settings: next, updatedAt: now } });
      const view = await this.view(q);
      out.then(() => {
        this.written++;
        this.last = { parsed: Stored.parse(next) };
      });
      out.note({ what: 'settings' });
      out.emit(event('instanceChanged', { instance: view }, { kind: 'signedIn' }));
      return view;
    });
  }
}
