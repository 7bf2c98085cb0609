import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { PING_FRAME, statusTitle, type Permission } from '@judge/contract';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Actor, UserPermissions } from '../auth/permissions.js';
import { originMatches, SESSION_COOKIE } from '../auth/origin.js';
import { wireJson, type Clock } from '../util.js';
import type { Audience, BusMessage, DomainEvent, EventBus } from './bus.js';
import { ConnectedPermissions, type LoadedPermissions, type PermissionSource } from './connected-permissions.js';
import { RankingSignals } from './ranking-signals.js';
import { StaffAudiences } from './staff-audiences.js';

export interface HubOptions {
  pingSeconds: number;
  maxBufferedBytes: number;
  /** How long a standings result signal may wait to be coalesced with others (RankingSignals); 0: none wait. */
  rankingIntervalMs?: number;
  publicUrl: string;
  trustProxy: boolean;
  /** Whether this user may open a socket now: false while the installation is closed to them. */
  admits?(user: UserPermissions): boolean;
  /**
   * Who may see an activity now: the rule REST applies to every request about it, asked of a
   * user's permissions. Asked when an event about the activity is delivered, so that unpublishing,
   * closing or a removed membership stops the telling at once, and a member added later hears from
   * the next event on.
   */
  viewers?(activityId: string): Promise<(user: UserPermissions) => boolean>;
}

/** What the hub asks of `Sessions` (auth/sessions.ts). */
export interface SessionCheck {
  authenticate(secret: string, via: Actor['via'], now: Date): Promise<Actor | null>;
  /** Which of these sessions are live at `now`. */
  liveOf(sessionIds: readonly string[], now: Date): Promise<Set<string>>;
}

/** What the hub handles in the order it came: an event to deliver (held ranking signals included) or sessions that ended. */
type Dispatch = { kind: 'event'; event: DomainEvent } | { kind: 'sessionsEnded'; sessionIds: string[]; reason: string };

/**
 * Keys a participant holds in an activity: what they read with them goes through the activity's
 * visibility over REST (an unpublished activity, or a closed one they left, answers 404), so an
 * event reaching someone by one of these keys does too. Staff keys are answered by the permission
 * alone, over REST and here.
 */
const VIEWER_KEYS: ReadonlySet<Permission> = new Set<Permission>([
  'activity:read',
  'submission:read:own',
  'result:read:own',
  'question:read:own',
  'ranking:read',
  'printout:create',
]);

/** An audience decided by permissions alone: a staff key, nobody named (REST answers its reads by the permission alone). */
function isStaffOnly(a: Audience): boolean {
  return a.kind === 'permission' && !VIEWER_KEYS.has(a.key) && !a.alsoUsers?.length;
}

/**
 * Whether an event says something is gone from a user's view (an activity unpublished or deleted,
 * their grant removed): it goes to those it concerns though REST already answers 404 to them, since
 * that is the news, and it carries nothing but ids.
 */
function isWithdrawal(e: DomainEvent): boolean {
  return e.type === 'activityDeleted' || (e.type === 'grantChanged' && 'deletedId' in (e.data as object));
}

/**
 * The activity an event is about: its audience's scope, else its payload's `activityId` (a
 * submission's, a printout's or a question's author hears of it through a list of users).
 */
function activityOf(e: DomainEvent): string | undefined {
  if (isWithdrawal(e)) return undefined;
  if (e.audience.kind === 'permission' && e.audience.activityId) return e.audience.activityId;
  const id = (e.data as { activityId?: unknown }).activityId;
  return typeof id === 'string' ? id : undefined;
}

interface SessionSockets {
  userId: string;
  sockets: Set<WebSocket>;
}

const WS_PATH = '/api/v1/ws';
/** A frame's bytes are JSON text: sent as a text frame whether given as a string or as its UTF-8 bytes. */
const TEXT = { binary: false } as const;
/** Close code sent after `sessionExpired`: the client should not reconnect with this session. */
export const CLOSE_SESSION_ENDED = 4001;

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/**
 * The event socket (decisions §10): one connection a tab, authenticated by the session cookie,
 * told only what its session could read over REST, and only after the change committed.
 *
 * Events are dispatched one after another in the order they were published: each waits for the
 * one before it. A dispatch decides its audience within one turn from the connected users'
 * permissions held in memory (ConnectedPermissions), and awaits only when something must be read
 * first: the permissions again after a write changed them, or the activity an event is about.
 */
export class EventHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4096, perMessageDeflate: false, clientTracking: false });
  private readonly bySession = new Map<string, SessionSockets>();
  /** Every open socket by its user, so that an event visits each user once and an author's event only its author. */
  private readonly byUser = new Map<string, Set<WebSocket>>();
  /** Changes whenever a user gets their first socket or closes their last (StaffAudiences). */
  private usersVersion = 0;
  private readonly staff = new StaffAudiences();
  private readonly permissions: ConnectedPermissions;
  /** What is waiting to be dispatched, oldest first, while a dispatch awaits a read. */
  private readonly queue: Dispatch[] = [];
  /** The dispatch under way, until the queue is empty. */
  private dispatching: Promise<void> | undefined;
  private closed = false;
  /** Sockets being opened (their session and permissions are read), and the sessions that ended meanwhile. */
  private opening = 0;
  private readonly endedWhileOpening = new Set<string>();
  private ticking = false;
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly ranking: RankingSignals;

  constructor(
    private readonly d: { sessions: SessionCheck; permissions: PermissionSource; clock: Clock; log: Logger; bus: EventBus },
    private readonly opts: HubOptions,
  ) {
    this.permissions = new ConnectedPermissions(d.permissions);
    this.ranking = new RankingSignals(opts.rankingIntervalMs ?? 0, (event) => this.enqueue({ kind: 'event', event }));
    // events are for open sockets (deliver drops them otherwise); the end of a session is always heard
    this.unsubscribe = d.bus.subscribe(
      (m) => this.onMessage(m),
      () => this.bySession.size > 0,
    );
    this.timer = setInterval(() => void this.tick(), opts.pingSeconds * 1000);
    this.timer.unref();
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(req, socket, head));
  }

  /** Live sockets of a session; never stored (Session.connections). */
  connections(sessionId: string): number {
    return this.bySession.get(sessionId)?.sockets.size ?? 0;
  }

  get socketCount(): number {
    let n = 0;
    for (const s of this.bySession.values()) n += s.sockets.size;
    return n;
  }

  /** Sends the standings signals held for coalescing now, as the interval's end would. */
  flushRankingSignals(): void {
    this.ranking.flush();
  }

  /** Settles once everything published so far was dispatched (tests, and benches that time a fan-out). */
  async idle(): Promise<void> {
    await this.dispatching;
  }

  private refuse(socket: Duplex, status: number, code: string, detail: string, headers = ''): void {
    const body = JSON.stringify({ type: 'about:blank', title: statusTitle(status), status, detail, code });
    socket.end(
      `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`,
    );
  }

  private expectedOrigin(req: IncomingMessage): string {
    if (this.opts.publicUrl) return new URL(this.opts.publicUrl).origin;
    const forwarded = this.opts.trustProxy ? String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() : '';
    const scheme = forwarded || ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
    return `${scheme}://${req.headers.host ?? ''}`;
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    this.opening++;
    try {
      await this.open(req, socket, head);
    } catch (e) {
      this.d.log.error({ err: e }, 'a socket could not be opened');
      this.refuse(socket, 500, 'internal', 'The socket could not be opened');
    } finally {
      if (--this.opening === 0) this.endedWhileOpening.clear();
    }
  }

  /** Authenticates, checks the origin and the maintenance level, reads the user's permissions, then opens. */
  private async open(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== WS_PATH) return this.refuse(socket, 404, 'not_found', 'No socket here');
    const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
    const actor = cookie ? await this.d.sessions.authenticate(cookie, 'cookie', this.d.clock.now()) : null;
    if (!actor) return this.refuse(socket, 401, 'unauthenticated', 'The socket needs a signed-in session cookie');
    if (!originMatches(req.headers.origin, undefined, this.expectedOrigin(req))) {
      return this.refuse(socket, 403, 'csrf.origin', 'The socket must be opened from the same origin');
    }
    const loaded = await this.permissions.load(actor.userId);
    // the session ended while it was read: its end was told to its sockets before this one could open
    if (this.endedWhileOpening.has(actor.sessionId)) return this.refuse(socket, 401, 'unauthenticated', 'The socket needs a signed-in session cookie');
    // sockets already open stay open: they are how clients hear that maintenance is over
    if (this.opts.admits && !this.opts.admits(loaded.permissions)) {
      return this.refuse(socket, 503, 'server.maintenance', 'The installation is closed for maintenance; try again later', 'Retry-After: 30\r\n');
    }
    if (this.closed) return this.refuse(socket, 503, 'server.shutting_down', 'The server is shutting down');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.register(actor, loaded, ws));
  }

  /** The socket opened: from now on it hears what its user may read. */
  private register(actor: Actor, loaded: LoadedPermissions, ws: WebSocket): void {
    let entry = this.bySession.get(actor.sessionId);
    if (!entry) this.bySession.set(actor.sessionId, (entry = { userId: actor.userId, sockets: new Set() }));
    entry.sockets.add(ws);
    let mine = this.byUser.get(actor.userId);
    if (!mine) {
      this.byUser.set(actor.userId, (mine = new Set()));
      this.usersVersion++;
    }
    mine.add(ws);
    this.permissions.hold(actor.userId, loaded);
    const sessionId = actor.sessionId;
    ws.on('close', () => this.forget(sessionId, ws));
    ws.on('error', () => ws.terminate());
  }

  private forget(sessionId: string, ws: WebSocket): void {
    const entry = this.bySession.get(sessionId);
    if (!entry) return;
    entry.sockets.delete(ws);
    if (entry.sockets.size === 0) this.bySession.delete(sessionId);
    this.forgetOfUser(entry.userId, ws);
  }

  private forgetOfUser(userId: string, ws: WebSocket): void {
    const mine = this.byUser.get(userId);
    if (!mine) return;
    mine.delete(ws);
    if (mine.size === 0) {
      this.byUser.delete(userId);
      this.permissions.forget(userId);
      this.usersVersion++;
    }
  }

  private onMessage(m: BusMessage): void {
    if (m.kind === 'event') {
      if (!this.ranking.hold(m.event)) this.enqueue({ kind: 'event', event: m.event });
    } else if (m.kind === 'sessionsEnded') this.enqueue({ kind: 'sessionsEnded', sessionIds: m.sessionIds, reason: m.reason });
  }

  /**
   * Dispatches in the order things came: at once when nothing is waiting and nothing must be read
   * first (the same turn as the publish), else after what is before it.
   */
  private enqueue(item: Dispatch): void {
    this.queue.push(item);
    if (!this.dispatching) this.dispatching = this.drain();
  }

  /**
   * Dispatches what is queued, within this turn while nothing must be read first. When something
   * must, answers the promise of the rest: what comes meanwhile waits in the queue behind it.
   */
  private drain(): Promise<void> | undefined {
    let item: Dispatch | undefined;
    while ((item = this.queue.shift())) {
      const reading = this.dispatch(item);
      if (reading) {
        return reading
          .catch((e: unknown) => this.d.log.error({ err: e }, 'an event could not be dispatched'))
          .then(() => (this.dispatching = this.drain()));
      }
    }
    return undefined;
  }

  /** Dispatches one item now, or answers the promise of its dispatch when something must be read first. */
  private dispatch(item: Dispatch): Promise<void> | undefined {
    try {
      if (item.kind === 'sessionsEnded') {
        this.endSessions(item.sessionIds, item.reason);
        return undefined;
      }
      const e = item.event;
      const activityId = activityOf(e);
      const about = activityId && this.opts.viewers && !isStaffOnly(e.audience) ? activityId : undefined;
      // a revocation committed before the event was published applies to it
      if (this.permissions.stale || about) return this.dispatchAfterReads(e, about);
      this.deliver(e, undefined);
      return undefined;
    } catch (err) {
      this.d.log.error({ err }, 'an event could not be dispatched');
      return undefined;
    }
  }

  private async dispatchAfterReads(e: DomainEvent, activityId: string | undefined): Promise<void> {
    if (this.permissions.stale) await this.reloadPermissions();
    this.deliver(e, activityId ? await this.viewersOf(activityId) : undefined);
  }

  /** When the read fails, the users stay unknown to permission audiences until a later dispatch reads them. */
  private async reloadPermissions(): Promise<void> {
    try {
      await this.permissions.reload();
    } catch (e) {
      this.d.log.error({ err: e }, 'the connected users\' permissions could not be read; permission audiences skip them');
      this.permissions.withhold();
    }
  }

  /** Who may see the activity; nobody when it cannot be read (the event is dropped for viewers, as REST would answer an error). */
  private async viewersOf(activityId: string): Promise<(user: UserPermissions) => boolean> {
    try {
      return await this.opts.viewers!(activityId);
    } catch (e) {
      this.d.log.error({ err: e, activityId }, 'the activity of an event could not be read');
      return () => false;
    }
  }

  /**
   * Whether a user is in an audience: 'staff' when a staff key there lets them in (REST answers
   * those reads by the permission alone), 'viewer' when they are in by a participant's key, by name
   * or as anyone signed in (REST answers those reads only while they may see the activity).
   */
  private reach(userId: string, a: Audience): 'no' | 'staff' | 'viewer' {
    switch (a.kind) {
      case 'signedIn':
        return 'viewer';
      case 'users':
        return a.userIds.includes(userId) ? 'viewer' : 'no';
      case 'permission': {
        const scope = a.activityId ?? null;
        const named = a.alsoUsers?.includes(userId) ? 'viewer' : 'no';
        const p = this.permissions.get(userId);
        if (!p) return named;
        if (a.unless && p.has(a.unless, scope)) return named;
        if (a.alsoRequires && !a.alsoRequires.every((k) => p.has(k, scope))) return named;
        const holds = a.anywhere ? p.holdsAnywhere(a.key) : p.has(a.key, scope);
        if (!holds) return named;
        return VIEWER_KEYS.has(a.key) ? 'viewer' : 'staff';
      }
    }
  }

  /** `frame`: the JSON text, or its UTF-8 bytes when one frame goes to many sockets (encoded once, not per socket). */
  private send(ws: WebSocket, frame: string | Buffer): void {
    // a socket that does not drain would hold memory for everyone: drop it (decisions §12)
    if (ws.bufferedAmount > this.opts.maxBufferedBytes) {
      ws.terminate();
      return;
    }
    ws.send(frame, TEXT);
  }

  /**
   * Sends an event to every open socket whose user is in its audience, each user decided once:
   * an author's event (a list of users) visits only those users, a staff audience the users it
   * reached last time while nothing it rests on changed, any other event each user with a socket.
   * The frame is written and encoded once, and only when someone may receive it. `sees`: who may
   * see the activity the event is about, read before (absent when the event is about none).
   */
  private deliver(e: DomainEvent, sees: ((user: UserPermissions) => boolean) | undefined): void {
    if (this.byUser.size === 0) return;
    let frame: Buffer | undefined;
    const visible = (userId: string): boolean => {
      if (!sees) return true;
      const p = this.permissions.get(userId);
      return p !== undefined && sees(p);
    };
    const tell = (userId: string, sockets: Set<WebSocket>): void => {
      const reach = this.reach(userId, e.audience);
      if (reach === 'no' || (reach === 'viewer' && !visible(userId))) return;
      frame ??= Buffer.from(wireJson({ type: e.type, data: e.data }));
      for (const ws of sockets) this.send(ws, frame);
    };
    const a = e.audience;
    if (a.kind === 'users' || isStaffOnly(a)) {
      const users =
        a.kind === 'users'
          ? new Set(a.userIds)
          : this.staff.members(a, this.permissions.version, this.usersVersion, this.byUser.keys(), (userId) => this.reach(userId, a) !== 'no');
      for (const userId of users) {
        const sockets = this.byUser.get(userId);
        if (sockets) tell(userId, sockets);
      }
    } else for (const [userId, sockets] of this.byUser) tell(userId, sockets);
  }

  private endSessions(ids: string[], reason: string): void {
    const frame = JSON.stringify({ type: 'sessionExpired', data: { reason } });
    for (const id of ids) {
      if (this.opening > 0) this.endedWhileOpening.add(id);
      const entry = this.bySession.get(id);
      if (!entry) continue;
      this.bySession.delete(id);
      for (const ws of entry.sockets) {
        this.forgetOfUser(entry.userId, ws);
        this.send(ws, frame);
        ws.close(CLOSE_SESSION_ENDED, 'session ended');
      }
    }
  }

  /**
   * The heartbeat, which also notices sessions that lapsed while their sockets stayed open: they
   * are ended in turn with what was published meanwhile, after it. One heartbeat at a time.
   */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      // a session whose socket opened meanwhile was not asked about: it waits for the next heartbeat
      const asked = [...this.bySession.keys()];
      const live = await this.d.sessions.liveOf(asked, this.d.clock.now());
      const lapsed: string[] = [];
      for (const id of asked) {
        const entry = this.bySession.get(id);
        if (!entry) continue;
        if (!live.has(id)) lapsed.push(id);
        else for (const ws of entry.sockets) this.send(ws, PING_FRAME);
      }
      if (lapsed.length) this.enqueue({ kind: 'sessionsEnded', sessionIds: lapsed, reason: 'expired' });
    } catch (e) {
      this.d.log.error({ err: e }, "the sockets' sessions could not be checked");
    } finally {
      this.ticking = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.unsubscribe();
    this.ranking.close();
    this.queue.length = 0;
    const closing: Promise<void>[] = [];
    for (const entry of this.bySession.values()) {
      for (const ws of entry.sockets) {
        closing.push(new Promise((resolve) => ws.once('close', () => resolve())));
        ws.close(1001, 'server shutting down');
      }
    }
    this.bySession.clear();
    this.byUser.clear();
    this.permissions.clear();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 2000).unref());
    await Promise.all([Promise.race([Promise.all(closing).then(() => undefined), timeout]), this.idle()]);
    this.wss.close();
  }
}
