import { PassThrough } from 'node:stream';
import type { BusMessage, DomainEvent, EventBus } from '../../events/bus.js';
import type { Ctx } from '../../http/context.js';
import { streamingResponse } from '../../http/streaming.js';

/** One open feed: a screen showing an activity's public board. */
interface Feed {
  activityId: string;
  /** Opened with a display link (ended when the link is rotated or removed). */
  display: boolean;
  stream: PassThrough;
  /** Whether whoever opened it may still read the board; asked now and then, and after access changes. */
  allowed(): Promise<boolean>;
}

export interface FeedOptions {
  /** How often a keep-alive comment goes out, and access is asked again. */
  keepAliveMs: number;
  /** How long a change waits for others of its activity before the screens are told (one message for all). */
  coalesceMs: number;
}

/** Events after which the public board may read differently. */
// managerSeriesChanged: a freeze or reveal moved (it is staff's event, but the feed repeats nothing of it)
const SIGNALS: ReadonlySet<string> = new Set(['rankingChanged', 'activityUpdated', 'activityTimesChanged', 'seriesChanged', 'managerSeriesChanged', 'activityFinalized', 'activityDeleted']);
/** Events after which who may read the board may differ (publication, the public scoreboard switch). */
const ACCESS: ReadonlySet<string> = new Set(['activityUpdated', 'activityDeleted']);
/** A screen that reads nothing for this long (buffered bytes) is cut off rather than buffered for. */
const MAX_BUFFERED = 16 * 1024;
const CHANGED = 'data: changed\n\n';

/**
 * A result whose audience needs ranking:read:unfrozen is one the public view does not show (a
 * frozen result, or one outside the ranking window): it tells the screens nothing, not even that
 * something happened. Participants' bare signal for a frozen submission does go out, as on the socket.
 */
function publicSignal(e: DomainEvent): string | undefined {
  if (!SIGNALS.has(e.type)) return undefined;
  if (e.type === 'rankingChanged' && e.audience.kind === 'permission' && e.audience.alsoRequires?.includes('ranking:read:unfrozen')) return undefined;
  const id = (e.data as { activityId?: unknown }).activityId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The scoreboards' read-only change feeds (Server-Sent Events, decisions §23) for screens nobody
 * signs in on. A message says only "changed": the page reads the public board again, through the
 * same access rule as any read, so a feed can tell nothing the board would not show. Listens on the
 * bus only while a feed is open.
 */
export class ScoreboardFeeds {
  private readonly feeds = new Map<string, Set<Feed>>();
  private readonly due = new Map<string, NodeJS.Timeout>();
  private keepAlive: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly opts: FeedOptions,
  ) {}

  /** How many feeds are open (tests: closed connections are let go). */
  get size(): number {
    let n = 0;
    for (const set of this.feeds.values()) n += set.size;
    return n;
  }

  /** Answers the request with a feed of the activity's changes; the caller checked access first. */
  open(ctx: Ctx, activityId: string, display: boolean, allowed: () => Promise<boolean>): void {
    const stream = new PassThrough();
    const feed: Feed = { activityId, display, stream, allowed };
    streamingResponse(ctx, 'text/event-stream; charset=utf-8');
    ctx.body = stream;
    stream.write('retry: 5000\n\n: open\n\n');
    let set = this.feeds.get(activityId);
    if (!set) this.feeds.set(activityId, (set = new Set()));
    set.add(feed);
    ctx.res.once('close', () => this.forget(feed));
    this.listen();
  }

  /** Ends the display-link feeds of an activity: its link was rotated or removed. */
  revokeDisplays(activityId: string): void {
    for (const f of [...(this.feeds.get(activityId) ?? [])]) if (f.display) this.end(f);
  }

  /** Ends every feed (the server is closing). */
  close(): void {
    for (const set of [...this.feeds.values()]) for (const f of [...set]) this.end(f);
    for (const t of this.due.values()) clearTimeout(t);
    this.due.clear();
  }

  private listen(): void {
    this.unsubscribe ??= this.bus.subscribe((m) => this.onMessage(m), () => this.feeds.size > 0);
    this.keepAlive ??= setInterval(() => void this.tick(), this.opts.keepAliveMs).unref();
  }

  private onMessage(m: BusMessage): void {
    if (m.kind !== 'event') return;
    const activityId = publicSignal(m.event);
    if (activityId === undefined || !this.feeds.has(activityId)) return;
    if (ACCESS.has(m.event.type)) void this.recheck([...this.feeds.get(activityId)!]);
    if (this.due.has(activityId)) return;
    this.due.set(
      activityId,
      setTimeout(() => {
        this.due.delete(activityId);
        for (const f of this.feeds.get(activityId) ?? []) this.send(f, CHANGED);
      }, this.opts.coalesceMs).unref(),
    );
  }

  /** The keep-alive: a comment to every feed, and access asked again (a link rotated on another server, a board made private). */
  private async tick(): Promise<void> {
    const all = [...this.feeds.values()].flatMap((s) => [...s]);
    for (const f of all) this.send(f, ': keep-alive\n\n');
    await this.recheck(all);
  }

  private async recheck(feeds: Feed[]): Promise<void> {
    for (const f of feeds) {
      const ok = await f.allowed().catch(() => false);
      if (!ok) this.end(f);
    }
  }

  private send(f: Feed, text: string): void {
    if (f.stream.writableLength > MAX_BUFFERED) return this.end(f);
    f.stream.write(text);
  }

  private end(f: Feed): void {
    this.forget(f);
    f.stream.end();
  }

  private forget(f: Feed): void {
    const set = this.feeds.get(f.activityId);
    if (!set?.delete(f)) return;
    if (set.size === 0) this.feeds.delete(f.activityId);
    if (this.feeds.size > 0) return;
    // nobody listens: stop the timers and the bus subscription until the next feed opens
    clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const t of this.due.values()) clearTimeout(t);
    this.due.clear();
  }
}
