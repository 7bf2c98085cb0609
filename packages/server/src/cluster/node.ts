import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { PostgresEngine } from '../db/postgres-engine.js';
import type { Engine } from '../db/storage.js';
import type { Transactor } from '../db/transactor.js';
import type { EventBus } from '../events/bus.js';
import { iso, type Clock } from '../util.js';
import { IntervalWorker } from '../workers/interval.js';
import { EventLogReader, pruneEventLog, type WorkKind } from './event-log.js';
import { Leadership } from './leader.js';
import { clusterView, pruneServers, ServerPresence, withSelf, type ClusterView } from './servers.js';

/** Event log rows are kept this long by default: past it no hub is that far behind. */
export const DEFAULT_EVENT_RETENTION_HOURS = 24;

export interface ClusterNodeOptions {
  engine: Engine;
  tx: Transactor;
  bus: EventBus;
  clock: Clock;
  log: Logger;
  version: string;
  /** This server's id in the `servers` table and the cluster view (deps.serverId); a new one when absent. */
  serverId?: string;
  /** What only the leader runs: started when this server leads, stopped at once when it stops. */
  workers: { start(): void; stop(): void };
  /** Work was queued on any server of the cluster: wake this server's long polls. */
  onWork?: (kind: WorkKind) => void;
  eventRetentionHours?: number;
  /** Test settings: how often the reader polls and a follower tries to lead (ms). */
  pollMs?: number;
  leaderRetryMs?: number;
}

/** Deletes old event log rows and the rows of servers gone for a day; the leader runs it hourly. */
export class ClusterRetention extends IntervalWorker<Promise<{ events: number; servers: number }>, { clock: Clock; log: Logger }> {
  constructor(
    private readonly tx: Transactor,
    d: { clock: Clock; log: Logger },
    private readonly keepHours: number,
  ) {
    super(d, 'cluster retention');
  }

  override start(intervalMs = 3_600_000): void {
    super.start(intervalMs);
  }

  async tick(now: Date): Promise<{ events: number; servers: number }> {
    return { events: await pruneEventLog(this.tx, now, this.keepHours), servers: await pruneServers(this.tx, now) };
  }
}

/**
 * This server's part in a cluster (docs/storage.md, "Several servers"). On PostgreSQL: an event log
 * reader feeding the local bus (and waking long polls when work is queued anywhere), the leader
 * election that runs the workers on one server only, and the heartbeat of its `servers` row. On
 * SQLite the one server leads from the start and publishes its events itself (eventHooks).
 */
export class ClusterNode {
  readonly startedAt: string;
  readonly id: string;
  private constructor(
    private readonly o: ClusterNodeOptions,
    readonly leadership: Leadership,
    readonly reader: EventLogReader | undefined,
    readonly presence: ServerPresence | undefined,
  ) {
    this.startedAt = iso(o.clock.now());
    this.id = presence?.id ?? o.serverId ?? 'local';
  }

  static async start(o: ClusterNodeOptions): Promise<ClusterNode> {
    if (o.engine.name === 'sqlite') {
      const leadership = new Leadership({ onElected: () => o.workers.start(), onDeposed: () => o.workers.stop(), log: o.log });
      await leadership.start();
      return new ClusterNode(o, leadership, undefined, undefined);
    }
    const engine = o.engine as PostgresEngine;
    // Writers skip building events nobody listens to (bus.listening). Sockets on the other servers
    // listen through the event log, which this server cannot see: so it always counts as listened to.
    o.bus.subscribe(() => undefined);
    const reader = new EventLogReader({ pool: engine.pool, connect: () => engine.dedicatedClient(), bus: o.bus, onWork: o.onWork, log: o.log, pollMs: o.pollMs });
    await reader.start();
    const retention = new ClusterRetention(o.tx, o, o.eventRetentionHours ?? DEFAULT_EVENT_RETENTION_HOURS);
    let presence: ServerPresence | undefined;
    const leadership = new Leadership({
      connect: () => engine.dedicatedClient(),
      onElected: () => {
        o.workers.start();
        retention.start();
        void presence?.beat();
      },
      onDeposed: () => {
        o.workers.stop();
        retention.stop();
        void presence?.beat();
      },
      log: o.log,
      retryMs: o.leaderRetryMs,
    });
    presence = new ServerPresence(o.tx, o.clock, o.version, () => ({ leader: leadership.isLeader, eventCursor: reader.cursor }), o.log, o.serverId);
    await presence.start();
    await leadership.start();
    return new ClusterNode(o, leadership, reader, presence);
  }

  /** The servers alive, which leads, and each hub's lag; on SQLite, this one server. */
  async view(): Promise<ClusterView> {
    if (this.presence) return clusterView(this.o.tx, this.o.clock.now());
    const now = iso(this.o.clock.now());
    const self = { id: this.id, host: hostname(), pid: process.pid, version: this.o.version, startedAt: this.startedAt, heartbeatAt: now, leader: true, lag: null };
    return { servers: [self], leader: self.id, newestEventId: 0 };
  }

  /**
   * What /health tells of the cluster: this server (whether it leads, its hub's lag now: the newest
   * event id − its reader's cursor; null on SQLite) and the view, this server's row made current.
   */
  async report(): Promise<{ self: { id: string; leader: boolean; lag: number | null }; view: ClusterView }> {
    const view = await this.view();
    const self = { id: this.id, leader: this.leadership.isLeader, lag: this.reader ? Math.max(0, view.newestEventId - this.reader.cursor) : null };
    return { self, view: withSelf(view, self) };
  }

  /** Stops leading (workers stop, the lock goes to another server), then reading and the heartbeat. */
  async close(): Promise<void> {
    await this.leadership.close();
    await this.reader?.close();
    await this.presence?.close().catch((e: unknown) => this.o.log.warn({ err: e }, 'removing this server from the servers table failed'));
  }
}
