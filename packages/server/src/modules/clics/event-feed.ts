import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { PassThrough } from 'node:stream';
import { clicsEvents } from '../../db/schema.js';
import type { Ctx } from '../../http/context.js';
import { streamingResponse } from '../../http/streaming.js';
import type { Deps } from '../../services.js';
import type { Contest } from './contest.js';
import { ClicsError } from './errors.js';

/** Rows read per query while a feed catches up. */
const PAGE = 2000;

interface Feed {
  activityId: string;
  audiences: string[];
  stream: PassThrough;
  /** The last token sent. */
  after: number;
  /** Reading now; `again`: rows were appended meanwhile. */
  reading: boolean;
  again: boolean;
  /** Whether whoever opened it still has the role it was opened with. */
  allowed(): Promise<boolean>;
}

export interface FeedOptions {
  /** How often a newline goes out when nothing else did, and the caller's role is asked again. */
  keepAliveMs: number;
}

/** The rows an audience reads: staff theirs; a team the public's and its own; the public its own. */
export function audiencesOf(c: Contest): string[] {
  if (c.role === 'admin') return ['admin'];
  if (c.role === 'team' && c.teamId) return ['public', `team:${c.teamId}`];
  return ['public'];
}

/** Waits until the stream has room again, or is closed; leaves no listener behind. */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** One row as a line of the feed (Contest_API.md, "Notification format"); the token is the row's id. */
function line(r: { id: number; type: string; objectId: string | null; data: string | null }): string {
  return `{"type":${JSON.stringify(r.type)},"id":${r.objectId === null ? 'null' : JSON.stringify(r.objectId)},"data":${r.data ?? 'null'},"token":"${r.id}"}\n`;
}

/**
 * The open NDJSON event feeds of this server (decisions §25): each reads its audiences' rows of the
 * contest's event table after its token, whenever the table grew (told by the writer here, or by its
 * note from the writing server), and sends a newline when nothing else went out for a while.
 */
export class ClicsFeeds {
  private readonly feeds = new Map<string, Set<Feed>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly d: Deps,
    private readonly opts: FeedOptions,
  ) {}

  get size(): number {
    let n = 0;
    for (const s of this.feeds.values()) n += s.size;
    return n;
  }

  /** The token a reconnecting client names must be one of this contest's: else 400. */
  async checkToken(activityId: string, token: unknown): Promise<number> {
    if (token === undefined) return 0;
    const id = typeof token === 'string' && /^[1-9][0-9]{0,15}$/.test(token) ? Number(token) : NaN;
    const found =
      Number.isSafeInteger(id) &&
      (await this.d.tx.read((q) => q.select({ id: clicsEvents.id }).from(clicsEvents).where(and(eq(clicsEvents.id, id), eq(clicsEvents.activityId, activityId))).limit(1))).length > 0;
    if (!found) throw new ClicsError(400, 'since_token names no event of this contest');
    return id;
  }

  /** Answers the request with the contest's feed after `after`; the caller checked who may read it. */
  open(ctx: Ctx, c: Contest, after: number, allowed: () => Promise<boolean>): PassThrough {
    const stream = new PassThrough();
    const feed: Feed = { activityId: c.a.id, audiences: audiencesOf(c), stream, after, reading: false, again: false, allowed };
    streamingResponse(ctx, 'application/x-ndjson');
    let set = this.feeds.get(feed.activityId);
    if (!set) this.feeds.set(feed.activityId, (set = new Set()));
    set.add(feed);
    const close = () => this.close(feed);
    ctx.req.on('close', close);
    stream.on('close', close);
    this.timer ??= setInterval(() => void this.keepAlive(), this.opts.keepAliveMs);
    void this.read(feed);
    return stream;
  }

  /** The contest's table grew: its open feeds read on. */
  appended(activityId: string): void {
    for (const f of this.feeds.get(activityId) ?? []) void this.read(f);
  }

  /** Ends every feed (the server closes). */
  close(only?: Feed): void {
    const all = only ? [only] : [...this.feeds.values()].flatMap((s) => [...s]);
    for (const f of all) {
      this.feeds.get(f.activityId)?.delete(f);
      if (this.feeds.get(f.activityId)?.size === 0) this.feeds.delete(f.activityId);
      if (!f.stream.writableEnded) f.stream.end();
    }
    if (this.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async read(f: Feed): Promise<void> {
    if (f.reading) return void (f.again = true);
    f.reading = true;
    try {
      do {
        f.again = false;
        for (;;) {
          const rows = await this.d.tx.read((q) =>
            q
              .select({ id: clicsEvents.id, type: clicsEvents.type, objectId: clicsEvents.objectId, data: clicsEvents.data })
              .from(clicsEvents)
              .where(and(eq(clicsEvents.activityId, f.activityId), gt(clicsEvents.id, f.after), inArray(clicsEvents.audience, f.audiences)))
              .orderBy(asc(clicsEvents.id))
              .limit(PAGE),
          );
          if (f.stream.writableEnded || !rows.length) break;
          const ok = f.stream.write(rows.map(line).join(''));
          f.after = rows[rows.length - 1]!.id;
          // a slow reader is waited for rather than buffered for
          if (!ok) await drained(f.stream);
          if (rows.length < PAGE) break;
        }
      } while (f.again && !f.stream.writableEnded);
    } catch (err) {
      this.d.log.warn({ err }, 'CLICS event feed: reading failed');
      this.close(f);
    } finally {
      f.reading = false;
    }
  }

  private async keepAlive(): Promise<void> {
    for (const f of [...this.feeds.values()].flatMap((s) => [...s])) {
      if (!f.reading && f.stream.writableLength === 0) f.stream.write('\n');
      // one who lost the role the feed was opened with is not sent more of it
      if (!(await f.allowed().catch(() => false))) this.close(f);
    }
  }
}
