import type { Health, InstanceSettings, LocalRunnerHealth, SystemMessageType } from '@judge/contract';
import { count, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import { attempts, instanceSettings } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import { readRunnerCensus } from '../runners/index.js';
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
});
type Stored = z.infer<typeof Stored>;
export type InstanceUpdate = Partial<Pick<Stored, 'name' | 'localRegistrationEnabled' | 'requireEmail' | 'requireConfirmedEmail' | 'requireApproval' | 'showLogo' | 'showLocalSignIn' | 'accountDeletionEnabled' | 'allowRenameStaffAccounts' | 'allowRenameSelfRegistered' | 'keepSignedInByDefault'>>;

const ROW = 1;

export class InstanceService {
  private localRunner: (() => LocalRunnerHealth) | undefined;
  readonly maintenance: Maintenance;
  /** The switches as last read or written. */
  private last: { parsed: Stored } | undefined;
  /** Counts committed updates (see settings). */
  private written = 0;

  constructor(private readonly d: Deps) {
    this.maintenance = new Maintenance(d);
  }

  /** `judge up` tells where the state of its local runner is read (health shows it). */
  watchLocalRunner(state: () => LocalRunnerHealth): void {
    this.localRunner = state;
  }

  /**
   * Liveness, the server's clock (clients align contest clocks to it), the local runner when this
   * server supervises one, and whether anything can be judged: the runners and the queue.
   */
  async health(version: string): Promise<Health> {
    const level = this.maintenance.level;
    const now = this.d.clock.now();
    const { census, queue } = await this.d.tx.read(async (q) => ({ census: await readRunnerCensus(q, now.getTime()), queue: await this.queue() }));
    const { connected, approved, pendingApproval } = census;
    return {
      status: 'ok',
      version,
      ...(level !== 'open' ? { maintenance: level } : {}),
      serverTime: iso(now),
      ...(this.localRunner ? { localRunner: this.localRunner() } : {}),
      runners: { connected, approved, pendingApproval },
      queue,
    };
  }

  /** Attempts waiting for a runner and held by one (the partial queue index answers the first). */
  queue(): Promise<{ queued: number; running: number }> {
    return this.d.tx.read(async (q) => {
      const inState = async (state: string) => (await q.select({ n: count() }).from(attempts).where(eq(attempts.state, state)))[0]?.n ?? 0;
      return { queued: await inState('queued'), running: await inState('running') };
    });
  }

  /** An administrator's broadcast to every signed-in session; nothing is stored. */
  async broadcast(actor: Actor, type: SystemMessageType, message: string): Promise<void> {
    await this.d.permissions.require(actor, 'system:administrator');
    await this.d.tx.write(async (_q, out) => out.emit(event('systemMessage', { type, message }, { kind: 'signedIn' })));
    this.d.log.info({ type, by: actor.userId }, 'system message sent');
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
    const parsed = Stored.parse((await (q ? read(q) : this.d.tx.read(read))) ?? {});
    // a read that began before an update committed must not put back what it replaced
    if (!q && generation === this.written) this.last = { parsed };
    return { ...parsed };
  }

  async view(q?: Q): Promise<InstanceSettings> {
    const s = await this.settings(q);
    return { ...s, documents: [], logoTranslations: [], providers: [] };
  }

  /** Another server changed the switches (cluster/cache-notes.ts): the next read takes them from the row. */
  forgetSettings(): void {
    this.written++;
    this.last = undefined;
  }

  /** The document is read and replaced whole in one transaction (SERIALIZABLE, retried, on PostgreSQL). */
  async update(actor: Actor, patch: InstanceUpdate): Promise<InstanceSettings> {
    await this.d.permissions.require(actor, 'instance:update');
    return this.d.tx.write(async (q, out) => {
      const next = { ...(await this.settings(q)), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
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
