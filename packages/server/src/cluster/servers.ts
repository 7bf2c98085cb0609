import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { eq, lt, max } from 'drizzle-orm';
import type { Logger } from 'pino';
import { events, servers } from '../db/schema.js';
import type { Q } from '../db/storage.js';
import { iso, type Clock } from '../util.js';

/** A server whose last heartbeat is older than this counts as gone (heartbeats come every 5 s). */
export const ALIVE_WITHIN_MS = 15_000;
const HEARTBEAT_MS = 5_000;

/** The part of Transactor this module uses. */
interface Tx {
  read<T>(fn: (q: Q) => Promise<T>): Promise<T>;
  write<T>(fn: (q: Q) => Promise<T>): Promise<T>;
}

export interface ServerState {
  /** Whether it leads (runs the workers) now. */
  leader: boolean;
  /** Its event log reader's cursor; null without an event log (SQLite). */
  eventCursor: number | null;
}

/**
 * This server's row in `servers`: written at start, its heartbeat (with whether it leads and how far
 * its event log reader got) every 5 s, removed when it closes. A server that dies leaves its row;
 * the cluster view counts it gone once its heartbeat is 15 s old, and the leader's retention
 * deletes it later.
 */
export class ServerPresence {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  constructor(
    private readonly tx: Tx,
    private readonly clock: Clock,
    private readonly version: string,
    private readonly state: () => ServerState,
    private readonly log: Logger,
    /** Its row's id: the server's own (deps.serverId), which also names its cache notes. */
    readonly id: string = randomUUID(),
  ) {}

  async start(intervalMs = HEARTBEAT_MS): Promise<void> {
    const now = iso(this.clock.now());
    const row = { id: this.id, host: hostname(), pid: process.pid, version: this.version, startedAt: now, heartbeatAt: now, ...this.state() };
    await this.tx.write(async (q) => void (await q.insert(servers).values(row)));
    this.timer = setInterval(() => void this.beat(), intervalMs);
    this.timer.unref();
  }

  /** Writes the heartbeat now (also when leadership changes, so the cluster view is current). */
  beat(): Promise<void> {
    return (this.beating ??= this.tx
      .write(async (q) => void (await q.update(servers).set({ heartbeatAt: iso(this.clock.now()), ...this.state() }).where(eq(servers.id, this.id))))
      .catch((e: unknown) => this.log.warn({ err: e }, 'the server heartbeat failed'))
      .finally(() => (this.beating = undefined)));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await this.tx.write(async (q) => void (await q.delete(servers).where(eq(servers.id, this.id))));
  }
}

export interface ClusterServer {
  id: string;
  host: string;
  pid: number;
  version: string;
  startedAt: string;
  heartbeatAt: string;
  leader: boolean;
  /** Events the server's hub has not read yet (newest event id − its cursor); null without an event log. */
  lag: number | null;
}

export interface ClusterView {
  /** Servers whose heartbeat is recent, oldest first. */
  servers: ClusterServer[];
  /** The id of the server that leads, if a live one says so. */
  leader: string | null;
  /** The newest event log id (0 when empty). */
  newestEventId: number;
}

/** Which servers are alive, which leads, and how far behind the event log each hub is. */
export async function clusterView(tx: Pick<Tx, 'read'>, now: Date): Promise<ClusterView> {
  const since = iso(new Date(now.getTime() - ALIVE_WITHIN_MS));
  const [rows, newest] = await tx.read(async (q) => [
    await q.select().from(servers).orderBy(servers.startedAt, servers.id),
    (await q.select({ id: max(events.id) }).from(events))[0]?.id ?? 0,
  ] as const);
  const alive = rows
    .filter((r) => r.heartbeatAt >= since)
    .map(({ eventCursor, ...r }) => ({ ...r, leader: !!r.leader, lag: eventCursor === null ? null : Math.max(0, Number(newest) - Number(eventCursor)) }));
  // a leader that just died and its successor may both claim it until the old heartbeat ages out: the newer heartbeat is right
  const leaders = alive.filter((r) => r.leader).sort((a, b) => b.heartbeatAt.localeCompare(a.heartbeatAt));
  return { servers: alive, leader: leaders[0]?.id ?? null, newestEventId: Number(newest) };
}

/** Deletes the rows of servers gone for a day (the leader's retention); how many. */
export async function pruneServers(tx: Pick<Tx, 'write'>, now: Date): Promise<number> {
  const cutoff = iso(new Date(now.getTime() - 24 * 3_600_000));
  return tx.write(async (q) => (await q.delete(servers).where(lt(servers.heartbeatAt, cutoff)).returning({ id: servers.id })).length);
}

/**
 * The view as one member sees it: its own row carries what it knows now (whether it leads, its
 * reader's cursor) rather than what its last heartbeat said up to 5 s ago, and the leader is picked
 * again with that.
 */
export function withSelf(view: ClusterView, self: { id: string; leader: boolean; lag: number | null }): ClusterView {
  const servers = view.servers.map((s) => (s.id === self.id ? { ...s, leader: self.leader, lag: self.lag } : s));
  const others = servers.filter((s) => s.leader && s.id !== self.id).sort((a, b) => b.heartbeatAt.localeCompare(a.heartbeatAt));
  return { ...view, servers, leader: self.leader ? self.id : (others[0]?.id ?? null) };
}
