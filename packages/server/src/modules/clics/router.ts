import { clics } from '@judge/contract';
import type Koa from 'koa';
import type { Ctx, RequestState } from '../../http/context.js';
import type { Deps } from '../../services.js';
import type { IdentityService } from '../identity/index.js';
import { accessOf, serves } from './access.js';
import { clicsActor } from './auth.js';
import { clarificationsOf } from './clarifications.js';
import { bareProblem, JUDGEMENT_TYPES, languagesOf, peopleOf, problemsOf } from './config-objects.js';
import { openContest, rankedSeries, visibleContests, type ClicsServices, type Contest } from './contest.js';
import { ClicsError, clicsNotFound } from './errors.js';
import { filesZip, liveOf } from './live.js';
import { scoreboardOf, stateOf } from './scoreboard.js';
import { clicsTime, relTime } from './times.js';

export const CLICS_BASE = '/api/clics';
type Item = { id: string } & Record<string, unknown>;

export function contestObject(c: Contest): clics.Contest {
  const ms = (a: string, b: string) => Date.parse(b) - Date.parse(a);
  return {
    id: c.slug,
    name: c.a.name,
    formal_name: c.a.name,
    start_time: clicsTime(c.start),
    duration: relTime(ms(c.start, c.end)),
    scoreboard_freeze_duration: c.freezeAt && c.freezeAt < c.end ? relTime(ms(c.freezeAt, c.end)) : null,
    scoreboard_type: c.a.rankingType === 'points' ? 'score' : 'pass-fail',
    penalty_time: 20,
  };
}

/** Every collection of a contest as the caller's role sees it, read once per request. */
async function collections(d: Deps, s: ClicsServices, c: Contest) {
  const problems = await problemsOf(d, s, c);
  const people = await peopleOf(s, c);
  const languages = languagesOf(d, rankedSeries(c.series).flatMap((x) => x.problems.map((p) => p.config)));
  const problemIds = new Map(problems.map((p) => [p.assignmentId, p.id]));
  const teams = new Set(people.teams.map((t) => t.id));
  const live = await liveOf(s, c, { teams, problems: problemIds, languages: new Set(languages.map((l) => l.id)) });
  const accounts = c.role === 'admin' ? people.accounts : people.accounts.filter((a) => a.id === c.teamId);
  return {
    problemIds,
    teams,
    live,
    lists: {
      'judgement-types': JUDGEMENT_TYPES,
      languages,
      problems: problems.map(bareProblem),
      groups: people.groups,
      organizations: people.organizations,
      teams: people.teams,
      accounts,
      submissions: live.submissions,
      judgements: live.judgements,
      runs: live.runs,
      clarifications: await clarificationsOf(s, c, problemIds, teams),
      awards: await awardsOf(s, c, teams),
    } as Record<string, Item[]>,
    allAccounts: people.accounts,
  };
}

/**
 * The awards (decisions §24) as the awards area shows them: to admin once computed, to others once
 * the contest is final and no freeze is in force. Award keys are CLICS award ids already.
 */
async function awardsOf(s: ClicsServices, c: Contest, teams: Set<string>): Promise<clics.Award[]> {
  const shown = await s.awards.shownTo(c.a, c.role === 'admin' ? 'staff' : 'others');
  return (shown ?? []).map((w) => ({ id: w.key, citation: w.citation, team_ids: w.userIds.filter((u) => teams.has(u)) }));
}

/** Filtering (Contest_API.md, "Filtering"): each query argument names a property, '' stands for null. */
function filtered(items: Item[], query: Record<string, unknown>): Item[] {
  const conditions = Object.entries(query).filter(([k, v]) => k !== 'id' && typeof v === 'string') as [string, string][];
  return items.filter((it) => conditions.every(([k, v]) => (v === '' ? it[k] === null : it[k] === v)));
}

async function contestRoute(d: Deps, s: ClicsServices, ctx: Ctx, c: Contest, rest: string[]): Promise<unknown> {
  const [what, id, sub] = rest;
  if (what === undefined) return contestObject(c);
  if (what === 'access' && rest.length === 1) return accessOf(c);
  if (what === 'state' && rest.length === 1) return stateOf(c);
  const all = await collections(d, s, c);
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

async function route(d: Deps, s: ClicsServices, identity: IdentityService, ctx: Ctx, parts: string[]): Promise<unknown> {
  const actor = await clicsActor(ctx, identity);
  if (parts.length === 0) return { version: clics.CLICS_VERSION, version_url: clics.CLICS_VERSION_URL, provider: { name: 'judge', version: null } };
  if (parts[0] !== 'contests') throw clicsNotFound('endpoint');
  if (parts.length === 1) return (await visibleContests(d, s, actor)).map(contestObject);
  const c = await openContest(d, s, actor, parts[1]!);
  return contestRoute(d, s, ctx, c, parts.slice(2));
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
export function clicsMiddleware(d: Deps, s: ClicsServices, identity: IdentityService): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    if (ctx.path !== CLICS_BASE && !ctx.path.startsWith(`${CLICS_BASE}/`)) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    try {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new ClicsError(405, 'This API only reads: GET', { Allow: 'GET' });
      const parts = pathParts(ctx.path);
      const body = await route(d, s, identity, ctx, parts);
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
