import { ApiError, notFound, type ExternalContent, type Redirects, type Health, type InstanceSettings, type LocalRunnerHealth, type SystemMessageType, type TestMailResult } from '@judge/contract';
import { asc, count, eq } from 'drizzle-orm';
import { isPermission, type Actor } from '../../auth/permissions.js';
import { attempts, files, identityProviders, instanceSettings, users } from '../../db/schema.js';
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
import { Stored } from './stored.js';
import { themeCss, themeOf } from './theme.js';
import { AccessKeys } from './access-keys.js';
import { InstanceBranding, shownType } from './branding.js';
import { InstanceDocuments, type StoreBytes } from './documents.js';
import type { Bytes } from './instance-files.js';
import { createHash } from 'node:crypto';

export type InstanceUpdate = Partial<
  Pick<
    Stored,
    | 'name'
    | 'localRegistrationEnabled'
    | 'requireEmail'
    | 'requireConfirmedEmail'
    | 'requireApproval'
    | 'showLogo'
    | 'showLocalSignIn'
    | 'accountDeletionEnabled'
    | 'allowRenameStaffAccounts'
    | 'allowRenameSelfRegistered'
    | 'keepSignedInByDefault'
    | 'requireTwoFactorFor'
    | 'signInRedirectProvider'
    | 'registerRedirectProvider'
  >
>;

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

  readonly documents: InstanceDocuments;
  readonly accessKeys: AccessKeys;
  readonly branding: InstanceBranding;

  /** `files`: where the files the instance shows are checked and read, and templates stored. */
  constructor(
    private readonly d: Deps,
    files: { blobs: Bytes; store: StoreBytes },
  ) {
    this.maintenance = new Maintenance(d);
    const announce = (q: Q, out: Outbox) => this.announce(q, out);
    this.documents = new InstanceDocuments(d, files.blobs, (actor, f) => files.store(actor, f), announce);
    this.accessKeys = new AccessKeys(d, announce);
    this.branding = new InstanceBranding(d, files.blobs, (actor, edit) => this.change(actor, edit));
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
    const stored = await this.settings(q);
    const { externalContentHosts: _administrators, signInRedirectProvider, registerRedirectProvider, logo, logoTranslations, theme: _theme, fonts: _fonts, ...s } = stored;
    const providers = await this.providers(q);
    const enabled = (slug: string | undefined) => (slug && providers.some((p) => p.slug === slug) ? slug : undefined);
    const signIn = enabled(signInRedirectProvider);
    const register = enabled(registerRedirectProvider);
    return {
      ...s,
      documents: await this.documents.inForce(q),
      ...(logo ? { logo } : {}),
      logoTranslations,
      providers,
      ...(signIn ? { signInRedirectProvider: signIn } : {}),
      ...(register ? { registerRedirectProvider: register } : {}),
      theme: themeOf(stored),
    };
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
    const list = [...new Set(hosts)].sort();
    await this.change(actor, async (s) => ({ ...s, externalContentHosts: list }));
    this.d.log.info({ hosts: list.length, by: actor.userId }, 'external-content list changed');
    return { enabled: list.length > 0, hosts: list };
  }

  /**
   * Replaces the settings document in a write of its own (read and replaced whole: SERIALIZABLE,
   * retried, on PostgreSQL) after the caller's instance:update is checked; every signed-in page
   * hears of it, and every server forgets what it kept.
   */
  async change(actor: Actor, edit: (s: Stored, q: Q, out: Outbox) => Promise<Stored>): Promise<InstanceSettings> {
    await this.d.permissions.require(actor, 'instance:update');
    return this.d.tx.write(async (q, out) => {
      const next = await edit(await this.settings(q), q, out);
      await this.store(q, out, next);
      const view = await this.view(q);
      out.emit(event('instanceChanged', { instance: view }, { kind: 'signedIn' }));
      return view;
    });
  }

  private async store(q: Q, out: Outbox, next: Stored): Promise<void> {
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
  }

  /** Another server changed the switches (cluster/cache-notes.ts): the next read takes them from the row. */
  forgetSettings(): void {
    this.written++;
    this.last = undefined;
    this.shownProviders = undefined;
    this.documents.forget();
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

  /** The switches, the name, the rule for two-factor sign-in and the redirects. */
  async update(actor: Actor, patch: InstanceUpdate): Promise<InstanceSettings> {
    return this.change(actor, async (before, q, out) => {
      const next: Stored = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      if (patch.requireTwoFactorFor) {
        next.requireTwoFactorFor = [...new Set(patch.requireTwoFactorFor)].sort();
        await this.keepCallerKeys(q, actor, next.requireTwoFactorFor);
        if (next.requireTwoFactorFor.join() !== before.requireTwoFactorFor.join()) out.touchPermissions();
      }
      for (const key of ['signInRedirectProvider', 'registerRedirectProvider'] as const) {
        const slug = patch[key];
        if (slug === undefined) continue;
        if (slug === '') delete next[key];
        else await this.requireProvider(q, key, slug);
      }
      return next;
    });
  }

  /** A redirect names a provider that exists (enabled or not: the pages follow it only while it is enabled). */
  private async requireProvider(q: Q, key: string, slug: string): Promise<void> {
    const [p] = await q.select({ id: identityProviders.id }).from(identityProviders).where(eq(identityProviders.slug, slug)).limit(1);
    if (!p) throw ApiError.of('redirect.provider.unknown', `No identity provider has the slug ${slug}`, { [key]: ['no identity provider has this slug'] });
  }

  /** Where the sign-in and registration pages send to, with each provider's state (GET /instance/redirects). */
  async redirects(actor: Actor): Promise<Redirects> {
    await this.d.permissions.require(actor, 'instance:update');
    const s = await this.settings();
    const all = await this.d.tx.read((q) => q.select({ slug: identityProviders.slug, displayName: identityProviders.displayName, enabled: identityProviders.enabled }).from(identityProviders));
    const target = (slug: string | undefined) => {
      if (!slug) return undefined;
      const p = all.find((x) => x.slug === slug);
      return { slug, displayName: p?.displayName ?? slug, state: !p ? ('missing' as const) : p.enabled ? ('active' as const) : ('disabled' as const) };
    };
    const signIn = target(s.signInRedirectProvider);
    const register = target(s.registerRedirectProvider);
    return { ...(signIn ? { signIn } : {}), ...(register ? { register } : {}) };
  }

  /**
   * A file the instance shows everybody, with the type it is served with: a logo, a font, the
   * theme's stylesheet, or a document's (any revision, or a template); otherwise 404.
   */
  async publicFile(fileId: string): Promise<{ sha256: string; sizeBytes: number; name: string; mimeType: string }> {
    const [f] = await this.d.tx.read((q) => q.select().from(files).where(eq(files.id, fileId)).limit(1));
    if (!f) throw notFound('file');
    const type = shownType(await this.settings(), fileId) ?? ((await this.documents.shows(fileId)) ? await this.documents.servedType(f) : undefined);
    if (!type) throw notFound('file');
    return { sha256: f.sha256, sizeBytes: f.sizeBytes, name: f.name, mimeType: type };
  }

  /** Whether everybody may read a file (the files module lets any signed-in user read it too). */
  async showsFile(fileId: string): Promise<boolean> {
    return shownType(await this.settings(), fileId) !== undefined || this.documents.shows(fileId);
  }

  /** GET /instance/theme.css, with the hash its ETag carries. */
  async themeStylesheet(): Promise<{ css: string; etag: string }> {
    const css = themeCss(await this.settings());
    return { css, etag: `"${createHash('sha256').update(css).digest('hex').slice(0, 32)}"` };
  }
}
