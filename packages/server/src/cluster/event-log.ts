import { lt, sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Logger } from 'pino';
import { ADVISORY_KEYS, ADVISORY_NAMESPACE } from '../db/postgres-engine.js';
import { events } from '../db/schema.js';
import type { EngineName, Q } from '../db/storage.js';
import type { Outbox, TransactionHooks } from '../db/transactor.js';
import type { BusMessage, EventBus } from '../events/bus.js';
import { iso, type Clock } from '../util.js';

/** The channel a commit that appended events notifies: only a wake-up, the rows are the messages. */
export const EVENTS_CHANNEL = 'judge_events';
/** The channel drizzle-pg/0003's triggers notify when work is queued: 'jobs' or 'trials'. */
export const WORK_CHANNEL = 'judge_work';

export type WorkKind = 'jobs' | 'trials';

/**
 * Appends a write's bus messages to the event log inside its transaction (a `beforeCommit` hook,
 * PostgreSQL only): they commit with the write or not at all, retried attempts included.
 *
 * Ids come from a sequence, which hands them out at insert time, not at commit: two writes could
 * take 5 and 6 and commit 6 first, and a reader that saw 6 and moved its cursor past 5 would never
 * deliver 5. So the write first takes a transaction-scoped advisory lock, held until its COMMIT has
 * made its rows visible: the next write draws its ids only after that, so rows become visible in id
 * order and "everything up to the highest id seen" is a sound cursor. The lock is taken as late as
 * possible (after the write's own statements), so writes are serialised only for this insert and
 * their commit. The notification is sent at commit, and never for a rollback.
 */
export function appendToEventLog(clock: Clock, origin: string): (q: Q, out: Outbox) => Promise<void> {
  return async (q, out) => {
    // notes first: a server refreshes its caches before it dispatches the events they bear on (a
    // grant's grantChanged is told to the grantee only once their permissions were read again)
    const messages: BusMessage[] = [...out.notes.map((note) => ({ kind: 'cache' as const, note, origin })), ...out.messages];
    if (!messages.length) return;
    // the node-postgres builder behind `q` (storage.ts: Q is the SQLite-typed view of it)
    const pgq = q as unknown as NodePgDatabase;
    await pgq.execute(sql`select pg_advisory_xact_lock(${ADVISORY_NAMESPACE}, ${ADVISORY_KEYS.events}), pg_notify(${EVENTS_CHANNEL}, '')`);
    const texts = messages.map((m) => JSON.stringify(m));
    // one statement for all of them, ids in the outbox's order
    await pgq.execute(
      sql`insert into events (created_at, message) select ${iso(clock.now())}, m from unnest(${sql.param(texts)}::text[]) with ordinality as x(m, n) order by n`,
    );
  };
}

/**
 * How committed writes reach the bus on each engine. SQLite (one process): published straight
 * after the commit, as always. PostgreSQL: appended to the event log in the transaction; every
 * server's EventLogReader (this one's too) publishes them, so all see one order.
 */
export function eventHooks(engine: EngineName, bus: Pick<EventBus, 'publish'>, clock: Clock, origin: string): Pick<TransactionHooks, 'beforeCommit' | 'committed'> {
  if (engine === 'postgres') return { beforeCommit: [appendToEventLog(clock, origin)], committed: [] };
  return { committed: [(out) => bus.publish(out.messages)] };
}

export interface EventLogReaderOptions {
  /** Where the rows are read: the engine's pool. */
  pool: pg.Pool;
  /** A new connection of its own for LISTEN (PostgresEngine.dedicatedClient). */
  connect: () => pg.Client;
  bus: Pick<EventBus, 'publish'>;
  /** Work was queued somewhere in the cluster: wake this server's long polls. */
  onWork?: (kind: WorkKind) => void;
  log: Logger;
  /** Rows are also read this often, in case a notification was lost (default 1 s). */
  pollMs?: number;
  /** Rows read per query (default 500). */
  batch?: number;
}

/**
 * One server's reader of the event log: hands every row committed after it started to the local
 * bus, once each and in id order (which is commit order, see appendToEventLog), so that the socket
 * hub delivers it with its own permission checks. It LISTENs on a connection of its own and reads
 * when woken, and on a timer too; if that connection drops it connects again and reads what it
 * missed, since the rows, not the notifications, are the messages.
 */
export class EventLogReader {
  /** The id of the last row handed to the bus. */
  cursor = 0;
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly o: EventLogReaderOptions) {}

  /** Starts after the newest row: a server that starts has no socket that missed anything. */
  async start(): Promise<void> {
    const { rows } = await this.o.pool.query<{ id: number | null }>('select max(id) as id from events');
    this.cursor = Number(rows[0]?.id ?? 0);
    await this.listen();
    this.timer = setInterval(() => void this.wake(), this.o.pollMs ?? 1000);
    this.timer.unref();
  }

  /** Reads now (or once more after the read under way), handing new rows to the bus. */
  wake(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.readAll().finally(() => (this.reading = undefined));
    return this.reading;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.reading;
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }

  private async readAll(): Promise<void> {
    const batch = this.o.batch ?? 500;
    do {
      this.again = false;
      for (;;) {
        if (this.closed) return;
        const rows = await this.readAfter(batch);
        if (!rows) return;
        for (const r of rows) this.deliver(r);
        if (rows.length < batch) break;
      }
    } while (this.again);
  }

  private async readAfter(batch: number): Promise<{ id: number; message: string }[] | undefined> {
    try {
      const { rows } = await this.o.pool.query<{ id: number; message: string }>('select id, message from events where id > $1 order by id limit $2', [this.cursor, batch]);
      return rows;
    } catch (e) {
      // the next wake-up or tick reads again from the same cursor
      this.o.log.error({ err: e }, 'reading the event log failed');
      return undefined;
    }
  }

  private deliver(r: { id: number; message: string }): void {
    this.cursor = Number(r.id);
    try {
      this.o.bus.publish([JSON.parse(r.message) as BusMessage]);
    } catch (e) {
      // one listener's failure must not hold back the rows after it
      this.o.log.error({ err: e, eventId: r.id }, 'publishing an event from the log failed');
    }
  }

  private async listen(): Promise<void> {
    const client = this.o.connect();
    client.on('notification', (n) => {
      if (n.channel === EVENTS_CHANNEL) void this.wake();
      else if (n.channel === WORK_CHANNEL && (n.payload === 'jobs' || n.payload === 'trials')) this.o.onWork?.(n.payload);
    });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${WORK_CHANNEL}`);
    this.client = client;
  }

  /** The LISTEN connection failed: connect again (every 2 s until it works), then read what was missed. */
  private lost(client: pg.Client, e?: Error): void {
    // only the connection in use: one that failed while connecting is retried by its caller
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    if (e) this.o.log.warn({ err: e }, 'the event log listener lost its connection');
    void client.end().catch(() => undefined);
    const retry = (): void => {
      if (this.closed || this.client) return;
      this.listen().then(
        () => void this.wake(),
        (err: unknown) => {
          this.o.log.warn({ err }, 'the event log listener could not connect again');
          setTimeout(retry, 2000).unref();
        },
      );
    };
    setTimeout(retry, 200).unref();
  }
}

/** Deletes event log rows older than `keepHours` (the leader's retention); how many. */
export async function pruneEventLog(tx: { write<T>(fn: (q: Q) => Promise<T>): Promise<T> }, now: Date, keepHours: number): Promise<number> {
  const cutoff = iso(new Date(now.getTime() - keepHours * 3_600_000));
  return tx.write(async (q) => (await q.delete(events).where(lt(events.createdAt, cutoff)).returning({ id: events.id })).length);
}
