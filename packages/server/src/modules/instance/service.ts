import type { Health, InstanceSettings, LocalRunnerHealth, SystemMessageType } from '@judge/contract';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import { instanceSettings } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import { runnerCensus } from '../runners/index.js';
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
  private readonly storedText: Database.Statement<[number], { settings: string }>;
  /** The last stored document read and its parse: every GET /account reads the switches. */
  private last: { text: string | undefined; parsed: Stored } | undefined;

  constructor(private readonly d: Deps) {
    this.maintenance = new Maintenance(d);
    this.storedText = d.sqlite.prepare<[number], { settings: string }>('SELECT settings FROM instance_settings WHERE id = ?');
  }

  /** `judge up` tells where the state of its local runner is read (health shows it). */
  watchLocalRunner(state: () => LocalRunnerHealth): void {
    this.localRunner = state;
  }

  /**
   * Liveness, the server's clock (clients align contest clocks to it), the local runner when this
   * server supervises one, and whether anything can be judged: the runners and the queue.
   */
  health(version: string): Health {
    const level = this.maintenance.level;
    const now = this.d.clock.now();
    const { connected, approved, pendingApproval } = runnerCensus(this.d.sqlite, now.getTime());
    return {
      status: 'ok',
      version,
      ...(level !== 'open' ? { maintenance: level } : {}),
      serverTime: iso(now),
      ...(this.localRunner ? { localRunner: this.localRunner() } : {}),
      runners: { connected, approved, pendingApproval },
      queue: this.queue(),
    };
  }

  /** Attempts waiting for a runner and held by one (the partial queue index answers the first). */
  queue(): { queued: number; running: number } {
    const count = (state: string) => (this.d.sqlite.prepare('SELECT count(*) AS n FROM attempts WHERE state = ?').get(state) as { n: number }).n;
    return { queued: count('queued'), running: count('running') };
  }

  /** An administrator's broadcast to every signed-in session; nothing is stored. */
  broadcast(actor: Actor, type: SystemMessageType, message: string): void {
    this.d.permissions.require(actor, 'system:administrator');
    this.d.tx.run((out) => out.emit(event('systemMessage', { type, message }, { kind: 'signedIn' })));
    this.d.log.info({ type, by: actor.userId }, 'system message sent');
  }

  /** The stored switches, with defaults for what was never set. */
  settings(): Stored {
    // read as text each time (so a change by any path is seen), parsed again only when it changed
    const text = this.storedText.get(ROW)?.settings;
    if (this.last && this.last.text === text) return { ...this.last.parsed };
    const parsed = Stored.parse(text === undefined ? {} : JSON.parse(text));
    this.last = { text, parsed };
    return { ...parsed };
  }

  view(): InstanceSettings {
    const s = this.settings();
    return { ...s, documents: [], logoTranslations: [], providers: [] };
  }

  update(actor: Actor, patch: InstanceUpdate): InstanceSettings {
    this.d.permissions.require(actor, 'instance:update');
    return this.d.tx.run((out) => {
      const next = { ...this.settings(), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      const now = iso(this.d.clock.now());
      this.d.db
        .insert(instanceSettings)
        .values({ id: ROW, settings: next, updatedAt: now })
        .onConflictDoUpdate({ target: instanceSettings.id, set: { settings: next, updatedAt: now } })
        .run();
      const view = this.view();
      out.emit(event('instanceChanged', { instance: view }, { kind: 'signedIn' }));
      return view;
    });
  }
}
