import type { Deps } from '../../services.js';
import type { ActivityRow } from '../policy/index.js';
import { serves } from './access.js';
import type { SubmissionDetail } from '@judge/contract';
import { collectionsOf, liveIn, readContest, type Collections, type ContestReads } from './collections.js';
import { contestAs, contestObject, type ClicsServices, type Contest } from './contest.js';
import type { Live } from './live.js';
import { stateOf } from './scoreboard.js';

/** One object as the feed carries it: its type, its id (null for the contest and its state) and its JSON. */
export interface FeedObject {
  type: string;
  id: string | null;
  json: string;
}

/** A role's view of a contest: every object it is served, by `type/id`. */
export type View = Map<string, FeedObject>;

export const keyOf = (type: string, id: string | null): string => `${type}/${id ?? ''}`;

/**
 * What the feed's three audiences are shown (decisions §25): the admin and public views, and for
 * each team the objects it sees otherwise than the public does (its own submissions with their
 * files, its judgements and runs through the freeze, its questions and their answers, its account).
 * A team's view is the public one with its own objects put over it.
 */
export interface FeedViews {
  admin: View;
  public: View;
  /** By team id: the team's own objects as it sees them. */
  own: Map<string, View>;
  /** The contest as staff see it (its times, for the refresh at the next boundary). */
  contest: Contest;
  /** By submission id: the keys of its objects in the admin view (which holds every object). */
  ofSubmission: Map<string, Set<string>>;
}

/** The live objects, which a judgement changes one submission at a time. */
export const LIVE_TYPES: ReadonlySet<string> = new Set(['submissions', 'judgements', 'runs']);

/** Lets other work run (requests, the socket) while a big contest's views are made. */
export const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Objects handled between two pauses. */
export const SLICE = 2000;

const put = (v: View, type: string, id: string | null, data: unknown) => v.set(keyOf(type, id), { type, id, json: JSON.stringify(data) });

async function viewOf(c: Contest, all: Collections): Promise<View> {
  const v: View = new Map();
  put(v, 'contest', null, contestObject(c));
  put(v, 'state', null, stateOf(c));
  let n = 0;
  for (const [type, list] of Object.entries(all.lists)) {
    if (!serves(c, type)) continue;
    for (const item of list) {
      put(v, type, item.id, item);
      if (++n % SLICE === 0) await pause();
    }
  }
  return v;
}

type Clarification = { id: string; from_team_id: string | null; to_team_id: string | null; reply_to_id: string | null };

/** The owner of each team-owned object of an every-team view, and the objects by owner. */
async function ownedBy(live: Live, clarifications: Clarification[], accounts: { id: string; team_id: string | null }[]): Promise<Map<string, View>> {
  const out = new Map<string, View>();
  let n = 0;
  const add = async (team: string | null | undefined, type: string, item: { id: string }) => {
    if (!team) return;
    let v = out.get(team);
    if (!v) out.set(team, (v = new Map()));
    put(v, type, item.id, item);
    if (++n % SLICE === 0) await pause();
  };
  const teamOfSubmission = new Map(live.submissions.map((x) => [x.id, x.team_id]));
  const teamOfJudgement = new Map(live.judgements.map((j) => [j.id, teamOfSubmission.get(j.submission_id)]));
  for (const x of live.submissions) await add(x.team_id, 'submissions', x);
  for (const j of live.judgements) await add(teamOfJudgement.get(j.id), 'judgements', j);
  for (const r of live.runs) await add(teamOfJudgement.get(r.judgement_id), 'runs', r);
  const asker = new Map(clarifications.map((x) => [x.id, x.from_team_id]));
  // an answer is its question's team's: to that team alone, or published with the question named
  for (const x of clarifications) await add(x.from_team_id ?? x.to_team_id ?? (x.reply_to_id ? asker.get(x.reply_to_id) : null), 'clarifications', x);
  for (const a of accounts) await add(a.team_id, 'accounts', a);
  return out;
}

/** By submission id, the keys of its objects in `live` (the admin's, which holds every object). */
function keysBySubmission(live: Live): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (sub: string | undefined, key: string) => {
    if (!sub) return;
    let set = out.get(sub);
    if (!set) out.set(sub, (set = new Set()));
    set.add(key);
  };
  const ofJudgement = new Map(live.judgements.map((j) => [j.id, j.submission_id]));
  for (const x of live.submissions) add(x.id, keyOf('submissions', x.id));
  for (const j of live.judgements) add(j.submission_id, keyOf('judgements', j.id));
  for (const r of live.runs) add(ofJudgement.get(r.judgement_id), keyOf('runs', r.id));
  return out;
}

/** What the views are computed from: the contest as staff see it and its data, read once. */
export interface Frame {
  admin: Contest;
  reads: ContestReads;
}

/** Reads the frame; with `submissionsOf`, that frame's submissions stand (kept current one by one) and are not read again. */
export async function readFrame(d: Deps, s: ClicsServices, a: ActivityRow, submissionsOf?: Frame): Promise<Frame> {
  const admin = await contestAs(d, s, a, 'admin', undefined);
  return { admin, reads: await readContest(d, s, admin, submissionsOf?.reads.submissions) };
}

/** The contest as each audience's views are made, at `now`. */
function roles(frame: Frame, now: string): { admin: Contest; everyone: Contest; teams: Contest } {
  const admin = { ...frame.admin, now };
  return { admin, everyone: { ...admin, role: 'public' }, teams: { ...admin, role: 'team', everyTeam: true } };
}

/**
 * The three views of an activity's contest: all of it, or (`live` false) all but the live objects,
 * which the views then leave out (what a question, an announcement or a name changes).
 */
export async function feedViews(s: ClicsServices, frame: Frame, now: string, live = true): Promise<FeedViews> {
  const c = roles(frame, now);
  const reads = live ? frame.reads : { ...frame.reads, submissions: [] };
  const teams = await collectionsOf(s, c.teams, reads);
  const admin = await collectionsOf(s, c.admin, reads);
  return {
    admin: await viewOf(c.admin, admin),
    public: await viewOf(c.everyone, await collectionsOf(s, c.everyone, reads)),
    own: await ownedBy(teams.live, teams.lists.clarifications as unknown as Clarification[], teams.lists.accounts as unknown as { id: string; team_id: string | null }[]),
    contest: c.admin,
    ofSubmission: keysBySubmission(admin.live),
  };
}

/** The views of one submission's objects alone (its submission, judgements and runs), from the frame's other data. */
export async function submissionViews(s: ClicsServices, frame: Frame, sub: SubmissionDetail, now: string): Promise<FeedViews> {
  const c = roles(frame, now);
  const liveView = async (x: Contest) => {
    const v: View = new Map();
    const live = await liveIn(s, x, frame.reads, [sub]);
    for (const [type, list] of Object.entries({ submissions: live.submissions, judgements: live.judgements, runs: live.runs })) {
      if (serves(x, type)) for (const item of list) put(v, type, item.id, item);
    }
    return { v, live };
  };
  const teams = await liveView(c.teams);
  const admin = await liveView(c.admin);
  return { admin: admin.v, public: (await liveView(c.everyone)).v, own: await ownedBy(teams.live, [], []), contest: c.admin, ofSubmission: keysBySubmission(admin.live) };
}

/** The views of the contest and its state alone, at `now` (they change with the clock). */
export function timesViews(frame: Frame, now: string): FeedViews {
  const c = roles(frame, now);
  const of = (x: Contest): View => {
    const v: View = new Map();
    put(v, 'contest', null, contestObject(x));
    put(v, 'state', null, stateOf(x));
    return v;
  };
  return { admin: of(c.admin), public: of(c.everyone), own: new Map(), contest: c.admin, ofSubmission: new Map() };
}
