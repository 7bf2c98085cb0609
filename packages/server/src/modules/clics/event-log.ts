import { asc, eq } from 'drizzle-orm';
import { clicsEvents } from '../../db/schema.js';
import type { BusMessage } from '../../events/bus.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import type { ClicsServices } from './contest.js';
import { feedViews, keyOf, LIVE_TYPES, pause, readFrame, SLICE, submissionViews, timesViews, type FeedViews, type Frame, type View } from './feed-views.js';

/** The last copy of an object an audience was sent: the row's id and its JSON (null: deleted). */
interface Shown {
  id: number;
  json: string | null;
}

/** What an activity's feed has said so far, folded from its rows. */
interface Said {
  admin: Map<string, Shown>;
  public: Map<string, Shown>;
  /** By team id: the copies sent to that team alone. */
  teams: Map<string, Map<string, Shown>>;
  /** What the last full update read, for updates of one submission in between. */
  frame?: Frame;
  /** By submission id: the keys of its objects (submission, judgements, runs) in the last views. */
  ofSubmission: Map<string, Set<string>>;
}

/**
 * What a whole update reads again: everything, all but the live objects, or (`times`) nothing: the
 * contest and its state, which change with the clock alone, made again from what was read.
 */
type Scope = 'all' | 'config' | 'times';

interface NewRow {
  audience: string;
  type: string;
  objectId: string | null;
  data: string | null;
}

/**
 * Events after which the activity's contest may read differently, and what must be read again:
 * `all` when the live objects may change with them (times, freezes, who is a team), `config` when
 * only the rest may (clarifications, awards, the state). A judgement's own events read its submission.
 */
const OF_ACTIVITY: ReadonlyMap<string, Scope> = new Map([
  ['activityUpdated', 'all'],
  ['activityTimesChanged', 'all'],
  ['activityDeleted', 'all'],
  ['seriesChanged', 'all'],
  ['managerSeriesChanged', 'all'],
  ['roleChanged', 'all'],
  ['grantChanged', 'all'],
  // not rankingChanged: each judgement sends one, and its submission's own events cover it; a
  // reveal changes the series (or comes at the thaw's time, which is timed)
  ['submissionChanged', 'all'],
  ['submissionStateChanged', 'all'],
  ['activityFinalized', 'config'],
  ['questionChanged', 'config'],
  ['questionAnswered', 'config'],
  ['questionPublished', 'config'],
  ['announcementPublished', 'config'],
]);
/** Events of no one activity that may change what every contest shows (a problem's name). */
const OF_ALL: ReadonlySet<string> = new Set(['problemChanged']);
/** Rows per INSERT (SQLite's bound parameters are limited), and per transaction. */
const CHUNK = 500;
const BATCH = 5000;
/** The longest a timer may wait (setTimeout's limit); a later boundary is timed again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const isoKey = (row: { type: string; objectId: string | null }) => keyOf(row.type, row.objectId);

function changed(last: Shown | undefined, json: string | null): boolean {
  return (last?.json ?? null) !== json;
}

const typeOfKey = (key: string) => key.slice(0, key.indexOf('/'));
const idOfKey = (key: string) => key.slice(key.indexOf('/') + 1) || null;

/**
 * The rows that bring what the audiences were told up to `views`: admin's first, then the public's,
 * then each team's. `only`: the keys the views cover (one submission's, or all but the live
 * objects'), else all of them.
 */
export async function rowsFor(said: Said, views: FeedViews, only?: ReadonlySet<string> | ((key: string) => boolean)): Promise<NewRow[]> {
  const rows: NewRow[] = [];
  let n = 0;
  const keys = (...maps: Map<string, unknown>[]): Iterable<string> => {
    if (only === undefined || typeof only === 'function') {
      const all = new Set(maps.flatMap((m) => [...m.keys()]));
      return only ? [...all].filter((k) => only(k)) : all;
    }
    return only;
  };
  const diff = async (audience: string, last: Map<string, Shown>, now: View) => {
    for (const key of keys(now, last)) {
      const o = now.get(key);
      const l = last.get(key);
      if (o ? changed(l, o.json) : l && l.json !== null) rows.push({ audience, type: typeOfKey(key), objectId: idOfKey(key), data: o?.json ?? null });
      if (++n % (10 * SLICE) === 0) await pause();
    }
  };
  await diff('admin', said.admin, views.admin);
  const before = rows.length;
  await diff('public', said.public, views.public);
  const publicSent = new Set(rows.slice(before).map((r) => keyOf(r.type, r.objectId)));
  let teams = 0;
  for (const team of new Set([...views.own.keys(), ...said.teams.keys()])) {
    const own = views.own.get(team) ?? new Map();
    const mine = said.teams.get(team) ?? new Map<string, Shown>();
    for (const key of keys(own, mine)) {
      const wanted = own.get(key)?.json ?? views.public.get(key)?.json ?? null;
      // what the team last read of it: its own copy, unless the public one came later (or comes now)
      const pub = said.public.get(key);
      const mineLast = mine.get(key);
      const seen = publicSent.has(key) ? (views.public.get(key)?.json ?? null) : mineLast && (!pub || mineLast.id > pub.id) ? mineLast.json : (pub?.json ?? null);
      if (seen !== wanted) rows.push({ audience: `team:${team}`, type: typeOfKey(key), objectId: idOfKey(key), data: wanted });
    }
    if (!(only instanceof Set) && ++teams % 50 === 0) await pause();
  }
  return rows;
}

function remember(said: Said, audience: string, key: string, shown: Shown): void {
  if (audience === 'admin') said.admin.set(key, shown);
  else if (audience === 'public') said.public.set(key, shown);
  else {
    const team = audience.slice('team:'.length);
    let m = said.teams.get(team);
    if (!m) said.teams.set(team, (m = new Map()));
    m.set(key, shown);
  }
}

/** Events that tell of one submission: its objects alone are brought up to date. */
const OF_SUBMISSION: ReadonlySet<string> = new Set(['submissionChanged', 'submissionStateChanged']);

/**
 * The writer of the contests' CLICS event feeds (decisions §25). Each contest's feed is an
 * append-only table whose ids are the feed's tokens; the writer brings it up to date by comparing
 * what each audience is shown now (feed-views.ts) with the last copy it was sent, and appending a
 * row for each difference (data null for an object gone). It runs on the server that leads the
 * cluster (one writer of each feed), after the changes the bus tells of and at the contest's times
 * (start, freeze, end, thaw), and its appends take a lock held to their commit, so that ids grow in
 * commit order and a reader past a token never misses a row below it. A judgement reads its
 * submission alone; anything else reads the contest whole.
 */
export class ClicsEventLog {
  private readonly said = new Map<string, Said>();
  private readonly chains = new Map<string, Promise<void>>();
  /** Activities due a whole update, and due updates of some submissions. */
  private readonly due = new Map<string, { timer: NodeJS.Timeout; scope: Scope }>();
  private readonly dueSubmissions = new Map<string, { timer: NodeJS.Timeout; ids: Set<string> }>();
  private readonly boundaries = new Map<string, NodeJS.Timeout>();
  private unsubscribe: (() => void) | undefined;
  private readonly appended = new Set<(activityId: string) => void>();

  constructor(
    private readonly d: Deps,
    private readonly s: ClicsServices,
    private readonly opts: { debounceMs: number } = { debounceMs: 20 },
  ) {}

  /** Whether this server writes the feeds (it leads the cluster). */
  get running(): boolean {
    return this.unsubscribe !== undefined;
  }

  /** Tells `fn` of each activity whose feed this server appended to. */
  onAppended(fn: (activityId: string) => void): () => void {
    this.appended.add(fn);
    return () => this.appended.delete(fn);
  }

  /**
   * Starts following the contests whose feed was opened since (a feed opening brings its contest's
   * table up to date first, whatever happened while nobody followed it). Until then the writer does
   * not listen: the bus need not build events for it (EventBus.listening).
   */
  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.d.bus.subscribe(
      (m) => this.heard(m),
      () => this.said.size > 0,
    );
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const t of [...[...this.due.values()].map((x) => x.timer), ...this.boundaries.values(), ...[...this.dueSubmissions.values()].map((x) => x.timer)]) clearTimeout(t);
    this.due.clear();
    this.dueSubmissions.clear();
    this.boundaries.clear();
    this.said.clear();
  }

  /** Waits until what was asked of the activity's feed so far is written (a feed opening reads after it). */
  current(activityId: string): Promise<void> {
    const whole = this.due.get(activityId);
    if (whole || !this.said.get(activityId)?.frame) {
      clearTimeout(whole?.timer);
      this.due.delete(activityId);
      return this.refresh(activityId, undefined, whole?.scope ?? 'all');
    }
    const some = this.dueSubmissions.get(activityId);
    if (some) {
      clearTimeout(some.timer);
      this.dueSubmissions.delete(activityId);
      void this.refresh(activityId, some.ids);
    }
    // the state as of now (a boundary's timer may not have fired yet), after what was asked
    return this.refresh(activityId, undefined, 'times');
  }

  private heard(m: BusMessage): void {
    if (m.kind !== 'event') return;
    const { type, data } = m.event;
    if (OF_ALL.has(type)) for (const id of this.said.keys()) this.soon(id, 25 * this.opts.debounceMs, 'config');
    // an account's change reaches the contests it is part of, live objects and all (a deleted account's sources go)
    const user = type === 'userChanged' ? (data as { user?: { id?: unknown } }).user?.id : undefined;
    if (typeof user === 'string') for (const [id, said] of this.said) if (said.frame?.reads.people.accounts.some((a) => a.id === user)) this.soon(id, this.opts.debounceMs, 'all');
    const scope = OF_ACTIVITY.get(type);
    if (!scope) return;
    const id = (data as { activityId?: unknown }).activityId;
    if (typeof id !== 'string') return;
    const sub = (data as { submission?: { id?: unknown } }).submission?.id;
    if (OF_SUBMISSION.has(type) && typeof sub === 'string' && this.said.get(id)?.frame) this.soonSubmission(id, sub);
    else this.soon(id, this.opts.debounceMs, scope);
  }

  private soon(activityId: string, ms: number, scope: Scope): void {
    const pending = this.due.get(activityId);
    if (pending) {
      if (scope === 'all') pending.scope = 'all';
      return;
    }
    const timer = setTimeout(() => {
      const due = this.due.get(activityId);
      this.due.delete(activityId);
      void this.refresh(activityId, undefined, due?.scope ?? scope);
    }, ms);
    this.due.set(activityId, { timer, scope });
  }

  private soonSubmission(activityId: string, submissionId: string): void {
    const pending = this.dueSubmissions.get(activityId);
    if (pending) return void pending.ids.add(submissionId);
    const ids = new Set([submissionId]);
    const timer = setTimeout(() => {
      this.dueSubmissions.delete(activityId);
      void this.refresh(activityId, ids);
    }, 1);
    this.dueSubmissions.set(activityId, { timer, ids });
  }

  /**
   * Brings the activity's feed up to date (`submissions`: those submissions' objects alone); one
   * update of an activity at a time, in the order asked.
   */
  refresh(activityId: string, submissions?: ReadonlySet<string>, scope: Scope = 'all'): Promise<void> {
    const next = (this.chains.get(activityId) ?? Promise.resolve())
      .then(() => (this.running ? this.bringUpToDate(activityId, submissions, scope) : undefined))
      .catch((err: unknown) => this.d.log.warn({ err, activityId }, 'CLICS event feed: the update failed'));
    this.chains.set(activityId, next);
    void next.then(() => {
      if (this.chains.get(activityId) === next) this.chains.delete(activityId);
    });
    return next;
  }

  private async bringUpToDate(activityId: string, submissions: ReadonlySet<string> | undefined, scope: Scope): Promise<void> {
    const now = iso(this.d.clock.now());
    const known = this.said.get(activityId);
    // one submission is read alone even while a whole update is due: that one comes after it
    if (submissions && known?.frame) return this.updateSubmissions(activityId, known, known.frame, submissions, now);
    if (scope === 'times' && known?.frame) {
      const views = timesViews(known.frame, now);
      return this.append(activityId, known, await rowsFor(known, views, new Set(views.admin.keys())), now);
    }
    const a = (await this.s.activities.contests()).find((x) => x.id === activityId);
    if (!a || !a.startDate || !a.endDate) return void this.said.delete(activityId);
    const said = known ?? (await this.load(activityId));
    this.said.set(activityId, said);
    // without a frame yet, everything is read whatever was asked
    const live = scope === 'all' || !said.frame;
    said.frame = await readFrame(this.d, this.s, a, live ? undefined : said.frame);
    const views = await feedViews(this.s, said.frame, now, live);
    this.timeNextBoundary(activityId, views);
    await this.append(activityId, said, await rowsFor(said, views, live ? undefined : (key) => !LIVE_TYPES.has(typeOfKey(key))), now);
    if (live) said.ofSubmission = views.ofSubmission;
  }

  private async updateSubmissions(activityId: string, said: Said, frame: Frame, ids: ReadonlySet<string>, now: string): Promise<void> {
    for (const id of ids) {
      const sub = await this.s.submissions.oneInActivity(activityId, id);
      const list = frame.reads.submissions;
      const at = list.findIndex((x) => x.id === id);
      if (sub && at >= 0) list[at] = sub;
      else if (sub) list.push(sub);
      else if (at >= 0) list.splice(at, 1);
      const views = sub ? await submissionViews(this.s, frame, sub, now) : { admin: new Map(), public: new Map(), own: new Map(), contest: frame.admin, ofSubmission: new Map() };
      const keys = new Set([...(said.ofSubmission.get(id) ?? []), ...views.admin.keys()]);
      await this.append(activityId, said, await rowsFor(said, views, keys), now);
      said.ofSubmission.set(id, new Set(views.admin.keys()));
    }
  }

  /**
   * Appends the rows, at most BATCH in a transaction (a first fill of a big contest is hundreds of
   * thousands: other writes and requests run between the batches), each batch's ids in row order.
   */
  private async append(activityId: string, said: Said, rows: NewRow[], now: string): Promise<void> {
    for (let from = 0; from < rows.length; from += BATCH) {
      const batch = rows.slice(from, from + BATCH);
      const ids = await this.d.tx.write(async (q, out) => {
        await this.d.tx.inCommitOrder(q, 'clicsEvents');
        const got: number[] = [];
        for (let i = 0; i < batch.length; i += CHUNK) {
          const chunk = batch.slice(i, i + CHUNK).map((r) => ({ ...r, activityId, createdAt: now }));
          const inserted = await q.insert(clicsEvents).values(chunk).returning({ id: clicsEvents.id });
          got.push(...inserted.map((x) => x.id).sort((x, y) => x - y));
        }
        out.note({ what: 'clicsEvents', activityId });
        return got;
      });
      batch.forEach((r, i) => remember(said, r.audience, isoKey(r), { id: ids[i]!, json: r.data }));
      for (const fn of this.appended) fn(activityId);
      if (from + BATCH < rows.length) await pause();
    }
  }

  private async load(activityId: string): Promise<Said> {
    const said: Said = { admin: new Map(), public: new Map(), teams: new Map(), ofSubmission: new Map() };
    const rows = await this.d.tx.read((q) =>
      q
        .select({ id: clicsEvents.id, audience: clicsEvents.audience, type: clicsEvents.type, objectId: clicsEvents.objectId, data: clicsEvents.data })
        .from(clicsEvents)
        .where(eq(clicsEvents.activityId, activityId))
        .orderBy(asc(clicsEvents.id)),
    );
    for (const r of rows) remember(said, r.audience, isoKey(r), { id: r.id, json: r.data });
    return said;
  }

  /** The contest's state and what the public sees change at its times, with no write to tell of it. */
  private timeNextBoundary(activityId: string, views: FeedViews): void {
    const c = views.contest;
    const nowMs = Date.parse(c.now);
    const next = [c.start, c.freezeAt, c.end, c.thawAt]
      .filter((t): t is string => !!t)
      .map((t) => Date.parse(t))
      .filter((t) => t > nowMs)
      .sort((x, y) => x - y)[0];
    clearTimeout(this.boundaries.get(activityId));
    this.boundaries.delete(activityId);
    if (next === undefined) return;
    const timer = setTimeout(() => {
      this.boundaries.delete(activityId);
      void this.refresh(activityId);
    }, Math.min(next - nowMs + 50, MAX_TIMER_MS));
    timer.unref();
    this.boundaries.set(activityId, timer);
  }
}
