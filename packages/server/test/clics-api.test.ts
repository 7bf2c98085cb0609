import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { C, fold, get, openFeed, startFixture, strict, type ClicsFixture, type FeedLine } from './clics-fixture.js';
import type { Party } from './series-fixtures.js';

/**
 * The CLICS Contest API (decisions §25, docs/clics.md): every endpoint of a finished, finalised
 * contest validated against the strict 2023-06 schemas (no property outside them, every listed
 * property present, every collection non-empty, unknown ids 404), and the access rules of each role.
 */

let f: ClicsFixture;
beforeAll(async () => {
  f = await startFixture();
}, 120_000);
afterAll(() => f.j.stop());

const COLLECTIONS = Object.keys(C.COLLECTIONS).filter((k) => k !== 'awards') as Exclude<keyof typeof C.COLLECTIONS, 'awards'>[];

const byId = (xs: any[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/**
 * Reads `who`'s whole event feed and checks it against the REST endpoints as the spec's consistency
 * rules say: every line valid (strict) and of an endpoint the role is served, tokens growing, every
 * REST object in the feed, the last copy in the feed equal to the REST copy, nothing the feed deleted
 * or never sent in REST. Answers the lines.
 */
async function feedAgreesWithRest(who: Party): Promise<FeedLine[]> {
  const feed = await openFeed(f, who);
  expect(feed.status).toBe(200);
  const lines = await feed.settled();
  feed.close();
  expect(lines.length).toBeGreaterThan(0);
  const access = strict(C.Access, (await get(f, `/contests/${f.act.slug}/access`, who)).body, 'access');
  const served = new Set(access.endpoints.map((e) => e.type));
  for (const [i, l] of lines.entries()) {
    expect(served.has(l.type), l.type).toBe(true);
    if (i > 0) expect(Number(l.token)).toBeGreaterThan(Number(lines[i - 1]!.token));
    if (l.data === null) continue;
    const schema = l.type === 'contest' ? C.Contest : l.type === 'state' ? C.State : C.COLLECTIONS[l.type as keyof typeof C.COLLECTIONS];
    strict(schema, l.data, `feed ${l.type}`);
    if (l.type === 'contest' || l.type === 'state') expect(l.id).toBeNull();
    else expect(l.id).toBe(l.data.id);
  }
  const last = fold(lines);
  for (const e of access.endpoints) {
    const rest = (await get(f, `/contests/${f.act.slug}${e.type === 'contest' ? '' : `/${e.type}`}`, who)).body;
    if (e.type === 'contest' || e.type === 'state') {
      expect(last.get(`${e.type}/`), e.type).toEqual(rest);
      continue;
    }
    const fromFeed = [...last].filter(([k, v]) => k.startsWith(`${e.type}/`) && v !== null).map(([, v]) => v);
    expect(byId(fromFeed), e.type).toEqual(byId(rest));
  }
  return lines;
}

describe('during the freeze', () => {
  it('public: a frozen submission is listed but its judgement is not; no runs, no accounts, only broadcast clarifications', async () => {
    for (const who of [f.outsider, undefined]) {
      const subs = await get(f, `/contests/${f.act.slug}/submissions`, who);
      if (!who) {
        // anonymous callers see only a contest with a public scoreboard: this one has none
        expect(subs.status).toBe(404);
        continue;
      }
      expect(subs.status).toBe(200);
      expect(subs.body.map((s: any) => s.id)).toContain(f.frozenSubmission);
      expect(subs.body.every((s: any) => !('files' in s))).toBe(true);
      const judgements = (await get(f, `/contests/${f.act.slug}/judgements`, who)).body;
      expect(judgements.some((x: any) => x.submission_id === f.frozenSubmission)).toBe(false);
      expect(judgements.some((x: any) => x.submission_id === f.earlySubmission)).toBe(true);
      expect((await get(f, `/contests/${f.act.slug}/runs`, who)).status).toBe(404);
      expect((await get(f, `/contests/${f.act.slug}/accounts`, who)).status).toBe(404);
      const clars = (await get(f, `/contests/${f.act.slug}/clarifications`, who)).body;
      expect(clars.length).toBe(2);
      expect(clars.every((c: any) => c.from_team_id === null && c.to_team_id === null && c.reply_to_id === null)).toBe(true);
      const board = strict(C.Scoreboard, (await get(f, `/contests/${f.act.slug}/scoreboard`, who)).body, 'scoreboard');
      const team2 = board.rows.find((r) => r.team_id === f.teams[1]!.u.id)!;
      // the frozen AC is pending, not solved
      expect(team2.score.num_solved).toBe(0);
      expect(team2.problems.find((p) => p.num_pending > 0)).toBeDefined();
    }
  });

  it('team: its own frozen judgement and runs and files, others’ frozen judgements hidden, own and broadcast clarifications', async () => {
    const own = f.teams[1]!;
    const judgements = (await get(f, `/contests/${f.act.slug}/judgements`, own)).body;
    expect(judgements.some((x: any) => x.submission_id === f.frozenSubmission)).toBe(true);
    const runs = (await get(f, `/contests/${f.act.slug}/runs`, own)).body;
    expect(runs.length).toBeGreaterThan(0);
    const subs = (await get(f, `/contests/${f.act.slug}/submissions`, own)).body;
    expect(subs.find((s: any) => s.id === f.frozenSubmission).files).toHaveLength(1);
    expect(subs.find((s: any) => s.id === f.earlySubmission).files).toBeUndefined();
    expect((await get(f, `/contests/${f.act.slug}/submissions/${f.earlySubmission}/files`, own)).status).toBe(404);
    const zip = await get(f, `/contests/${f.act.slug}/submissions/${f.frozenSubmission}/files`, own);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');

    const other = f.teams[0]!;
    const seen = (await get(f, `/contests/${f.act.slug}/judgements`, other)).body;
    expect(seen.some((x: any) => x.submission_id === f.frozenSubmission)).toBe(false);
    const clars = (await get(f, `/contests/${f.act.slug}/clarifications`, own)).body;
    // team 2: its question, the private answer to it, the published answer and the announcement
    expect(clars.length).toBe(4);
    expect(clars.some((c: any) => c.to_team_id === own.u.id)).toBe(true);
    expect(clars.some((c: any) => c.from_team_id === other.u.id)).toBe(false);
    const accounts = (await get(f, `/contests/${f.act.slug}/accounts`, own)).body;
    expect(accounts.map((a: any) => a.id)).toEqual([own.u.id]);
    expect((await get(f, `/contests/${f.act.slug}/account`, own)).body).toMatchObject({ id: own.u.id, type: 'team', team_id: own.u.id });
  });

  it('admin: everything, through the freeze', async () => {
    const judgements = (await get(f, `/contests/${f.act.slug}/judgements`, f.staff)).body;
    expect(judgements.some((x: any) => x.submission_id === f.frozenSubmission && x.judgement_type_id === 'AC')).toBe(true);
    const board = strict(C.Scoreboard, (await get(f, `/contests/${f.act.slug}/scoreboard`, f.staff)).body, 'scoreboard');
    expect(board.rows.find((r) => r.team_id === f.teams[1]!.u.id)!.score.num_solved).toBe(1);
    expect((await get(f, `/contests/${f.act.slug}/clarifications`, f.staff)).body.length).toBe(5);
    const accounts = (await get(f, `/contests/${f.act.slug}/accounts`, f.staff)).body;
    expect(accounts.some((a: any) => a.type === 'admin' && a.id === f.staff.u.id)).toBe(true);
    expect(accounts.every((a: any) => !('password' in a))).toBe(true);
  });
});

describe('the event feed during the freeze', () => {
  it('each role’s feed holds exactly its REST objects: the public’s no frozen judgement, a team’s its own with runs', async () => {
    const pub = await feedAgreesWithRest(f.outsider);
    expect(pub.some((l) => l.type === 'judgements' && l.data?.submission_id === f.frozenSubmission)).toBe(false);
    expect(pub.some((l) => l.type === 'runs' || l.type === 'accounts')).toBe(false);
    const team = await feedAgreesWithRest(f.teams[1]!);
    expect(team.some((l) => l.type === 'judgements' && l.data?.submission_id === f.frozenSubmission)).toBe(true);
    expect(team.some((l) => l.type === 'runs')).toBe(true);
    expect(team.filter((l) => l.type === 'accounts').map((l) => l.id)).toEqual([f.teams[1]!.u.id]);
    const other = await feedAgreesWithRest(f.teams[0]!);
    expect(other.some((l) => l.type === 'judgements' && l.data?.submission_id === f.frozenSubmission)).toBe(false);
    const admin = await feedAgreesWithRest(f.staff);
    expect(admin.some((l) => l.type === 'judgements' && l.data?.submission_id === f.frozenSubmission && l.data.judgement_type_id === 'AC')).toBe(true);
    // signed out, without a public scoreboard: no contest, no feed
    expect((await get(f, `/contests/${f.act.slug}/event-feed`)).status).toBe(404);
  }, 120_000);

  it('a change reaches an open feed, a deletion is data null, since_token resumes after a token, and a bad token is 400', async () => {
    const feed = await openFeed(f, f.outsider);
    const before = await feed.settled();
    const token = before.at(-1)!.token;
    const made = await f.staff.c.call(ops.createAnnouncement, { params: { idOrSlug: f.act.slug }, body: { topic: 'Break', body: 'Ten minutes of break.' } });
    const news = await feed.until((l) => l.type === 'clarifications' && /Ten minutes of break/.test(l.data?.text ?? ''));
    await f.staff.c.call(ops.deleteQuestion, { params: { id: made.id } });
    await feed.until((l) => l.type === 'clarifications' && l.id === news.id && l.data === null);
    feed.close();
    const again = await openFeed(f, f.outsider, `?since_token=${token}`);
    const later = await again.settled();
    again.close();
    expect(later.map((l) => l.token)).toEqual(feed.lines.filter((l) => Number(l.token) > Number(token)).map((l) => l.token));
    // a judgement during the freeze: the team's feed has it at once, the public's only the submission
    const [pub, own] = [await openFeed(f, f.outsider), await openFeed(f, f.teams[1]!)];
    await Promise.all([pub.settled(), own.settled()]);
    const sub = await f.judged(f.teams[1]!, 'apples', 'WA');
    await own.until((l) => l.type === 'judgements' && l.data?.submission_id === sub && l.data.judgement_type_id === 'WA');
    await own.until((l) => l.type === 'runs' && own.lines.some((j) => j.type === 'judgements' && j.id === l.data?.judgement_id && j.data.submission_id === sub));
    await pub.until((l) => l.type === 'submissions' && l.id === sub);
    await pub.settled();
    expect(pub.lines.some((l) => l.type === 'judgements' && l.data?.submission_id === sub)).toBe(false);
    pub.close();
    own.close();
    await feedAgreesWithRest(f.teams[1]!);
    for (const bad of ['abc', '0', '-1', '99999999999', '']) {
      const r = await get(f, `/contests/${f.act.slug}/event-feed?since_token=${bad}`, f.staff);
      expect(r.status, bad).toBe(400);
      strict(C.ErrorBody, r.body, 'error');
    }
  }, 60_000);
});

describe('HTTP Basic', () => {
  it('a right password is the account, a wrong one 401 with the realm', async () => {
    const t = f.teams[0]!;
    const ok = await get(f, `/contests/${f.act.slug}/account`, { basic: `${t.u.username}:${t.u.password}` });
    expect(ok.status).toBe(200);
    expect(ok.body.id).toBe(t.u.id);
    const bad = await get(f, `/contests/${f.act.slug}/account`, { basic: `${t.u.username}:wrong-password` });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Basic realm="judge"');
    strict(C.ErrorBody, bad.body, 'error');
  });

  it('only reads, and an unknown contest is 404 JSON', async () => {
    const res = await fetch(`${f.j.url}/api/clics/contests/${f.act.slug}`, { method: 'POST' });
    expect(res.status).toBe(405);
    const missing = await get(f, '/contests/no-such-contest', f.staff);
    expect(missing.status).toBe(404);
    strict(C.ErrorBody, missing.body, 'error');
    // signed out without a public scoreboard: nothing
    expect((await get(f, '/contests')).body).toEqual([]);
  });
});

describe('the finished, finalised contest', () => {
  beforeAll(async () => {
    await f.moveTo(400);
    await f.staff.c.call(ops.finalizeActivity, { params: { idOrSlug: f.act.slug } });
  });

  it('the API information and the contests', async () => {
    strict(C.ApiInfo, (await get(f, '/')).body, 'api');
    const contests = (await get(f, '/contests', f.staff)).body;
    expect(contests.map((c: any) => c.id)).toContain(f.act.slug);
    const contest = strict(C.Contest, (await get(f, `/contests/${f.act.slug}`, f.staff)).body, 'contest');
    expect(contest).toMatchObject({ duration: '5:00:00.000', scoreboard_freeze_duration: '1:00:00.000', scoreboard_type: 'pass-fail', penalty_time: 20 });
  });

  it('the state is final and thawed', async () => {
    const state = strict(C.State, (await get(f, `/contests/${f.act.slug}/state`, f.outsider)).body, 'state');
    expect(state.started && state.frozen && state.ended && state.thawed && state.finalized && state.end_of_updates).toBeTruthy();
  });

  for (const role of ['public', 'team', 'admin'] as const) {
    it(`every endpoint the access endpoint lists for ${role} is served exactly so`, async () => {
      const who = role === 'public' ? f.outsider : role === 'team' ? f.teams[0]! : f.staff;
      const access = strict(C.Access, (await get(f, `/contests/${f.act.slug}/access`, who)).body, 'access');
      expect(access.capabilities).toEqual([]);
      for (const e of access.endpoints) {
        if (e.type === 'contest' || e.type === 'state') continue;
        const schema = C.COLLECTIONS[e.type as keyof typeof C.COLLECTIONS];
        const list = await get(f, `/contests/${f.act.slug}/${e.type}`, who);
        expect(list.status, e.type).toBe(200);
        // every collection of the fixture holds something for every role that is served it
        expect(list.body.length, e.type).toBeGreaterThan(0);
        for (const item of list.body) {
          strict(schema, item, e.type);
          for (const k of Object.keys(item)) expect(e.properties, `${e.type}.${k}`).toContain(k);
          const one = await get(f, `/contests/${f.act.slug}/${e.type}/${encodeURIComponent(item.id)}`, who);
          expect(one.body).toEqual(item);
        }
        const missing = await get(f, `/contests/${f.act.slug}/${e.type}/no-such-id`, who);
        expect(missing.status, e.type).toBe(404);
      }
      const listed = new Set(access.endpoints.map((e) => e.type));
      for (const name of COLLECTIONS) if (!listed.has(name)) expect((await get(f, `/contests/${f.act.slug}/${name}`, who)).status, name).toBe(404);
      // a request for each object of the contest, each reading the contest whole: tens of seconds on loaded CI cores
    }, 120_000);
  }

  it('references hold: every id a property names exists', async () => {
    const g = async (what: string) => (await get(f, `/contests/${f.act.slug}/${what}`, f.staff)).body as any[];
    const ids = async (what: string) => new Set((await g(what)).map((x) => x.id));
    const teams = await ids('teams');
    const problems = await ids('problems');
    const languages = await ids('languages');
    const groups = await ids('groups');
    const orgs = await ids('organizations');
    const subs = await ids('submissions');
    const judgements = await ids('judgements');
    const types = await ids('judgement-types');
    for (const t of await g('teams')) {
      expect(orgs.has(t.organization_id)).toBe(true);
      for (const gid of t.group_ids) expect(groups.has(gid)).toBe(true);
    }
    expect(groups.size).toBe(2);
    expect(orgs.size).toBe(2);
    for (const s of await g('submissions')) expect(teams.has(s.team_id) && problems.has(s.problem_id) && languages.has(s.language_id)).toBe(true);
    for (const j of await g('judgements')) expect(subs.has(j.submission_id) && types.has(j.judgement_type_id)).toBe(true);
    for (const r of await g('runs')) expect(judgements.has(r.judgement_id) && types.has(r.judgement_type_id)).toBe(true);
    const board = strict(C.Scoreboard, (await get(f, `/contests/${f.act.slug}/scoreboard`, f.outsider)).body, 'scoreboard');
    expect(board.rows.length).toBe(3);
    for (const r of board.rows) expect(teams.has(r.team_id)).toBe(true);
    // thawed: the public board now counts the AC made during the freeze
    expect(board.rows.find((r) => r.team_id === f.teams[1]!.u.id)!.score.num_solved).toBe(1);
  });

  it('the event feed after the thaw: every role’s agrees with REST, the public’s now judges the frozen submission, awards and the end of updates', async () => {
    const pub = await feedAgreesWithRest(f.outsider);
    expect(pub.some((l) => l.type === 'judgements' && l.data?.submission_id === f.frozenSubmission)).toBe(true);
    expect(pub.some((l) => l.type === 'awards')).toBe(true);
    expect(fold(pub).get('state/').end_of_updates).not.toBeNull();
    await feedAgreesWithRest(f.teams[2]!);
    await feedAgreesWithRest(f.staff);
  }, 120_000);

  it('a deleted account’s name and questions leave every feed; the feeds still agree with REST', async () => {
    const gone = f.teams[0]!;
    await (await f.j.admin()).call(ops.updateInstance, { body: { accountDeletionEnabled: true } });
    await gone.c.call(ops.deleteAccount, { body: { password: gone.u.password } });
    const lines = await feedAgreesWithRest(f.staff);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(gone.u.username);
    expect(text).not.toContain('Is the input sorted?');
    await feedAgreesWithRest(f.outsider);
  }, 120_000);

  it('filters on ID properties', async () => {
    const mine = (await get(f, `/contests/${f.act.slug}/submissions?team_id=${f.teams[2]!.u.id}`, f.staff)).body;
    expect(mine.length).toBe(2);
    const broadcast = (await get(f, `/contests/${f.act.slug}/clarifications?to_team_id=`, f.staff)).body;
    expect(broadcast.every((c: any) => c.to_team_id === null)).toBe(true);
  });
});
