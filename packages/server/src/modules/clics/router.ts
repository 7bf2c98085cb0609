import { clics } from '@judge/contract';
import type Koa from 'koa';
import type { Ctx, RequestState } from '../../http/context.js';
import type { Deps } from '../../services.js';
import type { IdentityService } from '../identity/index.js';
import { accessOf, serves } from './access.js';
import { clicsActor } from './auth.js';
import { collectionsOf, readContest, type Item } from './collections.js';
import { contestObject, openContest, visibleContests, type ClicsServices, type Contest } from './contest.js';
import { ClicsError, clicsNotFound } from './errors.js';
import type { ClicsFeeds } from './event-feed.js';
import type { ClicsEventLog } from './event-log.js';
import { filesZip } from './live.js';
import { scoreboardOf, stateOf } from './scoreboard.js';

export const CLICS_BASE = '/api/clics';

/** Filtering (Contest_API.md, "Filtering"): each query argument names a property, '' stands for null. */
function filtered(items: Item[], query: Record<string, unknown>): Item[] {
  const conditions = Object.entries(query).filter(([k, v]) => k !== 'id' && typeof v === 'string') as [string, string][];
  return items.filter((it) => conditions.every(([k, v]) => (v === '' ? it[k] === null : it[k] === v)));
}

/** The event feed's two halves: this server's writer (running where it leads the cluster) and its open feeds. */
export interface ClicsFeed {
  log: ClicsEventLog;
  feeds: ClicsFeeds;
}

/** The NDJSON event feed (Contest_API.md, "Event feed"): brought up to date first where it is written. */
async function eventFeed(d: Deps, s: ClicsServices, feed: ClicsFeed, ctx: Ctx, c: Contest): Promise<unknown> {
  const after = await feed.feeds.checkToken(c.a.id, ctx.query.since_token);
  if (feed.log.running) await feed.log.current(c.a.id);
  const allowed = async () => {
    try {
      const again = await openContest(d, s, c.actor, c.slug);
      return again.role === c.role && again.teamId === c.teamId;
    } catch {
      return false;
    }
  };
  return feed.feeds.open(ctx, c, after, allowed);
}

async function contestRoute(d: Deps, s: ClicsServices, feed: ClicsFeed, ctx: Ctx, c: Contest, rest: string[]): Promise<unknown> {
  const [what, id, sub] = rest;
  if (what === undefined) return contestObject(c);
  if (what === 'event-feed' && rest.length === 1) return eventFeed(d, s, feed, ctx, c);
  if (what === 'access' && rest.length === 1) return accessOf(c);
  if (what === 'state' && rest.length === 1) return stateOf(c);
  const all = await collectionsOf(s, c, await readContest(d, s, c));
  if (what === 'scoreboard' && rest.length === 1) return scoreboardOf(s, c, all.problemIds, all.teams);
  if (what === 'account' && rest.length === 1) {
    const mine = c.actor && all.allAccounts.find((a) => a.id === c.actor!.userId);
    if (!mine) throw clicsNotFound('account');
    return mine;
  }
  if (!serves(c, what) || rest.length > 3) throw clicsNotFound('endpoint');
  const list = all.lists[what];
  if (!list) throw clicsNotFound('endpoint');
  if (id === undefined) return filtered(list, ctx.query);
  const item = list.find((x) => x.id === id);
  if (!item) throw clicsNotFound(what.replace(/s$/, ''));
  if (sub === undefined) return item;
  if (what === 'submissions' && sub === 'files') {
    ctx.type = 'application/zip';
    ctx.set('Content-Disposition', `attachment; filename="files.zip"`);
    return filesZip(s, c, all.live, id);
  }
  throw clicsNotFound('endpoint');
}

async function route(d: Deps, s: ClicsServices, feed: ClicsFeed, identity: IdentityService, ctx: Ctx, parts: string[]): Promise<unknown> {
  const actor = await clicsActor(ctx, identity);
  if (parts.length === 0) return { version: clics.CLICS_VERSION, version_url: clics.CLICS_VERSION_URL, provider: { name: 'judge', version: null } };
  if (parts[0] !== 'contests') throw clicsNotFound('endpoint');
  if (parts.length === 1) return (await visibleContests(d, s, actor)).map(contestObject);
  const c = await openContest(d, s, actor, parts[1]!);
  return contestRoute(d, s, feed, ctx, c, parts.slice(2));
}

function pathParts(path: string): string[] {
  try {
    return path.slice(CLICS_BASE.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw clicsNotFound('endpoint');
  }
}

/**
 * The CLICS Contest API (2023-06) under /api/clics: read only, JSON, failures as `{code, message}`.
 * It is no operation of the judge's own interface; it reads through the other areas' services.
 */
export function clicsMiddleware(d: Deps, s: ClicsServices, feed: ClicsFeed, identity: IdentityService): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    if (ctx.path !== CLICS_BASE && !ctx.path.startsWith(`${CLICS_BASE}/`)) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    try {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new ClicsError(405, 'This API only reads: GET', { Allow: 'GET' });
      const parts = pathParts(ctx.path);
      const body = await route(d, s, feed, identity, ctx, parts);
      if (!ctx.type) ctx.type = 'application/json';
      ctx.body = body;
      ctx.status = 200;
    } catch (e) {
      if (!(e instanceof ClicsError)) throw e;
      for (const [k, v] of Object.entries(e.headers)) ctx.set(k, v);
      ctx.status = e.status;
      ctx.type = 'application/json';
      ctx.body = { code: e.status, message: e.message };
    }
  };
}
