import type { clics, Series } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import type { AccessService } from '../access/index.js';
import type { ActivitiesService } from '../activities/index.js';
import type { AwardsService } from '../awards/index.js';
import { canSeeActivity, type ActivityRow } from '../policy/index.js';
import type { ProblemsService } from '../problems/index.js';
import type { QuestionsService } from '../questions/index.js';
import { isPublicScoreboard, type RankingService } from '../ranking/index.js';
import type { SeriesService } from '../series/index.js';
import type { SubmissionsService } from '../submissions/index.js';
import type { UsersService } from '../users/index.js';
import type { BlobStore } from '../files/index.js';
import { ClicsError, clicsNotFound } from './errors.js';
import { clicsTime, relTime } from './times.js';

/** What the CLICS API reads, each through its own area's service (decisions §25). */
export interface ClicsServices {
  activities: ActivitiesService;
  awards: AwardsService;
  series: SeriesService;
  problems: ProblemsService;
  ranking: RankingService;
  submissions: SubmissionsService;
  questions: QuestionsService;
  users: UsersService;
  access: AccessService;
  blobs: BlobStore;
}

/**
 * The roles of the specification, as this judge decides them per contest: `admin` holds
 * submission:read:all there (its staff, the instance's administrators); `team` is a participant;
 * everybody else, signed in or not, is `public`.
 */
export type Role = 'public' | 'team' | 'admin';

/** One request's contest: the activity, the caller's role, and the contest's times. */
export interface Contest {
  a: ActivityRow;
  slug: string;
  role: Role;
  actor: Actor | undefined;
  /** The team id of a `team` caller. */
  teamId: string | null;
  start: string;
  end: string;
  /** The freeze of the contest's ranked series, if it has one, and when it is lifted. */
  freezeAt: string | null;
  thawAt: string | null;
  series: Series[];
  now: string;
  /**
   * For the event feed (event-log.ts): a `team` contest that shows every team's own objects as
   * that team sees them (each marked with its owner there), rather than one team's.
   */
  everyTeam?: boolean;
}

/** The contest's ranked series (practice series, importanceScope none, are not part of it). */
export const rankedSeries = (all: Series[]): Series[] => all.filter((s) => s.importanceScope !== 'none');

/** A submission made at `at` is hidden from `public` and other teams while the freeze holds. */
export function frozenAt(c: Contest, at: string): boolean {
  if (!c.freezeAt || at < c.freezeAt) return false;
  return !c.thawAt || c.thawAt > c.now;
}

async function roleOf(d: Deps, actor: Actor | undefined, a: ActivityRow, participants: ReadonlySet<string>): Promise<Role> {
  if (!actor) return 'public';
  if (await d.permissions.has(actor.userId, 'submission:read:all', a.id)) return 'admin';
  return participants.has(actor.userId) ? 'team' : 'public';
}

/** Whether a caller of this role may see the contest at all; anyone else gets 404, as for none. */
async function mayView(d: Deps, role: Role, actor: Actor | undefined, a: ActivityRow): Promise<boolean> {
  if (role === 'admin') return true;
  if (!a.publishedAt) return false;
  if (role === 'team') return true;
  // public: a public scoreboard shows the contest to anybody; otherwise who may see the activity
  return isPublicScoreboard(a) || (!!actor && (await canSeeActivity(d, actor.userId, a)));
}

/** The participants' user ids: every row of the final standings is one. */
export async function participantIds(s: ClicsServices, a: ActivityRow): Promise<Set<string>> {
  return new Set((await s.ranking.finalStandings(a)).rows.map((r) => r.userId));
}

/** The contest a request names, as its caller may see it; 404 for none, for one they may not see, and for an activity that is no contest. */
export async function openContest(d: Deps, s: ClicsServices, actor: Actor | undefined, id: string): Promise<Contest> {
  const a = (await s.activities.contests()).find((x) => x.slug === id);
  if (!a || !a.startDate || !a.endDate) throw clicsNotFound('contest');
  const participants = await participantIds(s, a);
  const role = await roleOf(d, actor, a, participants);
  if (!(await mayView(d, role, actor, a))) throw clicsNotFound('contest');
  return contestAs(d, s, a, role, actor);
}

/** The contest of an activity with start and end dates, as a caller of `role` sees it (nothing checked). */
export async function contestAs(d: Deps, s: ClicsServices, a: ActivityRow, role: Role, actor: Actor | undefined): Promise<Contest> {
  if (!a.startDate || !a.endDate) throw clicsNotFound('contest');
  const series = await s.series.ofActivity(a.id);
  const frozenSeries = rankedSeries(series).find((x) => x.rankingFreezeAt);
  return {
    a,
    slug: a.slug,
    role,
    actor,
    teamId: role === 'team' && actor ? actor.userId : null,
    start: a.startDate,
    end: a.endDate,
    freezeAt: frozenSeries?.rankingFreezeAt ?? null,
    thawAt: frozenSeries?.rankingRevealAt ?? null,
    series,
    now: iso(d.clock.now()),
  };
}

/** The contests the caller may see. */
export async function visibleContests(d: Deps, s: ClicsServices, actor: Actor | undefined): Promise<Contest[]> {
  const out: Contest[] = [];
  for (const a of await s.activities.contests()) {
    try {
      out.push(await openContest(d, s, actor, a.slug));
    } catch (e) {
      // one the caller may not see is simply not listed
      if (!(e instanceof ClicsError)) throw e;
    }
  }
  return out;
}

/** The contest object (`/contests/{id}`). */
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
