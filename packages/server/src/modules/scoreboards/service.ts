import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { notFound, type Scoreboard } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import { activities } from '../../db/schema.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import { managedActivity, readActivity, visibleActivity, type ActivityRow } from '../policy/index.js';
import { isPublicScoreboard, type RankingService } from '../ranking/index.js';
import { boardOf } from './board.js';
import { ScoreboardFeeds } from './feed.js';
import type { Ctx } from '../../http/context.js';

/** A display link's secret: 32 random bytes, base64url (43 characters). */
const newToken = () => randomBytes(32).toString('base64url');

/**
 * Scoreboards for the room (decisions §23): the public board of an activity, read by anybody when
 * its public scoreboard is on, by those who may read its ranking, or through its display link; the
 * display link itself; and the change feeds of screens nobody signs in on. Every board is the
 * public view of the standings (RankingService.publicView), whoever asks.
 */
export class ScoreboardsService {
  readonly feeds: ScoreboardFeeds;

  constructor(
    private readonly d: Deps,
    private readonly ranking: RankingService,
    feedOptions = { keepAliveMs: 15_000, coalesceMs: 500 },
  ) {
    this.feeds = new ScoreboardFeeds(d.bus, feedOptions);
  }

  /** GET /activities/{idOrSlug}/scoreboard */
  async board(actor: Actor | undefined, idOrSlug: string): Promise<Scoreboard> {
    return this.boardOf(await this.readable(actor, idOrSlug));
  }

  /** GET /displays/{token} */
  async displayBoard(token: string): Promise<Scoreboard> {
    return this.boardOf(await this.byToken(token));
  }

  /** GET /activities/{idOrSlug}/scoreboard/feed */
  async openFeed(ctx: Ctx, actor: Actor | undefined, idOrSlug: string): Promise<void> {
    const a = await this.readable(actor, idOrSlug);
    this.feeds.open(ctx, a.id, false, () => this.readable(actor, a.id).then(() => true));
  }

  /** GET /displays/{token}/feed */
  async openDisplayFeed(ctx: Ctx, token: string): Promise<void> {
    const a = await this.byToken(token);
    this.feeds.open(ctx, a.id, true, () => this.byToken(token).then((now) => now.id === a.id));
  }

  /** GET /activities/{idOrSlug}/display-link */
  async displayLink(actor: Actor, idOrSlug: string): Promise<{ token?: string }> {
    const a = await managedActivity(this.d, actor, idOrSlug);
    return a.displayToken ? { token: a.displayToken } : {};
  }

  /** POST /activities/{idOrSlug}/display-link: a new secret; the old one, and its feeds, end at once. */
  async rotateDisplayLink(actor: Actor, idOrSlug: string): Promise<{ token: string }> {
    const token = newToken();
    await this.setToken(actor, idOrSlug, token);
    return { token };
  }

  /** DELETE /activities/{idOrSlug}/display-link */
  async removeDisplayLink(actor: Actor, idOrSlug: string): Promise<void> {
    await this.setToken(actor, idOrSlug, null);
  }

  /** Ends the feeds (the server is closing). */
  close(): void {
    this.feeds.close();
  }

  private async setToken(actor: Actor, idOrSlug: string, token: string | null): Promise<void> {
    const id = await this.d.tx.write(async (q) => {
      const a = await managedActivity(this.d, actor, idOrSlug, q);
      await q.update(activities).set({ displayToken: token }).where(eq(activities.id, a.id));
      return a.id;
    });
    this.feeds.revokeDisplays(id);
  }

  private async boardOf(a: ActivityRow): Promise<Scoreboard> {
    const view = await this.ranking.publicView(a);
    return boardOf(a, view, iso(this.d.clock.now()));
  }

  /**
   * The activity if the caller may read its public board: anybody while it is published with its
   * public scoreboard on, else a signed-in caller who may see it and holds ranking:read there
   * (403 to a member without it); 404 to everybody else.
   */
  private async readable(actor: Actor | undefined, idOrSlug: string): Promise<ActivityRow> {
    const a = await readActivity(this.d, idOrSlug);
    if (a && isPublicScoreboard(a)) return a;
    if (!actor) throw notFound('activity');
    const seen = await visibleActivity(this.d, actor, idOrSlug);
    await this.d.permissions.require(actor, 'ranking:read', seen.id);
    return seen;
  }

  /** The activity whose display link this is; 404 for an unknown, rotated or removed one. */
  private async byToken(token: string): Promise<ActivityRow> {
    const [a] = await this.d.tx.read((q) => q.select().from(activities).where(eq(activities.displayToken, token)).limit(1));
    if (!a) throw notFound('activity');
    return a;
  }
}
