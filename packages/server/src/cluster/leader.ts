import type pg from 'pg';
import type { Logger } from 'pino';
import { ADVISORY_KEYS, ADVISORY_NAMESPACE } from '../db/postgres-engine.js';

export interface LeadershipOptions {
  /**
   * A new connection of its own (PostgresEngine.dedicatedClient) on which the leader holds its
   * advisory lock; absent on SQLite, where the one server always leads.
   */
  connect?: () => pg.Client;
  /** This server became the leader: start the workers. */
  onElected: () => void;
  /** This server stopped leading (its connection was lost, or it closes): stop the workers at once. */
  onDeposed: () => void;
  log: Logger;
  /** How often a follower tries to take the lead, and a leader checks its connection (default 2 s). */
  retryMs?: number;
}

/**
 * Which server of a cluster runs the workers (series scheduler, lease reaper, ranking announcer,
 * retention): the one holding `pg_try_advisory_lock(NAMESPACE, leader)` on a connection of its
 * own. A session lock dies with its session, so when the leader's process or connection dies
 * PostgreSQL lets it go, and another server's next try (every `retryMs`) takes it: the workers move
 * within seconds. A leader whose connection fails stops its workers at once, since another server
 * may lead already; it checks the connection on every tick, so a silently dropped one is noticed
 * too. On SQLite the one server leads from the start.
 */
export class Leadership {
  isLeader = false;
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private trying: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly o: LeadershipOptions) {}

  /** SQLite: leads at once. PostgreSQL: tries now and every `retryMs` until it leads. */
  start(): Promise<void> {
    if (!this.o.connect) {
      this.elect();
      return Promise.resolve();
    }
    this.timer = setInterval(() => void this.tick(), this.o.retryMs ?? 2000);
    this.timer.unref();
    return this.tick();
  }

  /** One try (a follower) or one check of the connection (the leader); what the timer runs. */
  tick(): Promise<void> {
    return (this.trying ??= this.attempt().finally(() => (this.trying = undefined)));
  }

  /** Stops leading (the workers stop) and ends the connection, which lets the lock go. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.trying;
    this.depose();
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }

  private async attempt(): Promise<void> {
    if (this.closed) return;
    try {
      const client = this.client ?? (await this.connect());
      if (this.isLeader) {
        await client.query('SELECT 1');
        return;
      }
      const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [ADVISORY_NAMESPACE, ADVISORY_KEYS.leader]);
      if (rows[0]?.got && !this.closed && this.client === client) this.elect();
    } catch (e) {
      this.o.log.warn({ err: e }, 'the leader election could not reach the database');
      this.lost(this.client);
    }
  }

  private async connect(): Promise<pg.Client> {
    const client = this.o.connect!();
    client.on('error', (e) => {
      this.o.log.warn({ err: e }, 'the leader election lost its connection');
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    this.client = client;
    return client;
  }

  /** The connection failed: its session lock is gone (or soon will be), so stop leading now. */
  private lost(client: pg.Client | undefined): void {
    if (!client || client !== this.client) return;
    this.client = undefined;
    this.depose();
    void client.end().catch(() => undefined);
  }

  private elect(): void {
    if (this.isLeader) return;
    this.isLeader = true;
    this.o.log.info('this server leads the cluster and runs its workers');
    this.o.onElected();
  }

  private depose(): void {
    if (!this.isLeader) return;
    this.isLeader = false;
    this.o.log.warn('this server no longer leads the cluster: its workers stop');
    this.o.onDeposed();
  }
}
