import { clics, ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { z } from 'zod';
import { ManualClock, TestJudge, raw } from './harness.js';
import { World, at, type Party } from './series-fixtures.js';
import { codeForm } from './support/forms.js';
import { ProtocolRunner } from './support/submissions.js';

/**
 * The CLICS tests' contest: two problems, three teams (tags: groups and organisations), a freeze
 * from minute 240 to the thaw at minute 360 of a 300-minute contest, questions, an answer, a
 * published answer and an announcement; every submission judged through the runner protocol.
 */
export interface ClicsFixture {
  j: TestJudge;
  clock: ManualClock;
  act: Activity;
  admin: JudgeClient;
  staff: Party;
  teams: Party[];
  outsider: Party;
  /** A submission of teams[1] made during the freeze, judged AC. */
  frozenSubmission: string;
  /** A submission of teams[0] made before the freeze. */
  earlySubmission: string;
  /** Sets the clock to a minute of the contest and signs everybody in again. */
  moveTo(minute: number): Promise<void>;
  /** A submission of `team` now, judged `verdict` through the runner protocol; its id. */
  judged(team: Party, slug: string, verdict: string): Promise<string>;
}

const details = (verdict: string, n = 2) => JSON.stringify({ verdict, tests: Array.from({ length: n }, (_, i) => ({ test: `${i + 1}`, group: 'secret', verdict: i === n - 1 ? verdict : 'AC', cpuMs: 10 + i })) });

export async function startFixture(): Promise<ClicsFixture> {
  const clock = new ManualClock(new Date(at(-60)));
  const j = await TestJudge.start({ clock });
  j.app.scheduler.stop();
  j.app.rankingAnnouncer.stop();
  const w = await World.create(j, clock);
  const admin = w.admin;
  const runner = await ProtocolRunner.approved(j, admin, 'clics-runner');
  const act = await w.activity({ name: 'CLICS Cup', startDate: at(0), endDate: at(300), joinPolicy: 'open', unlisted: false });
  const staff = await w.party('staff');
  await j.grant(staff.u.id, 'manager', act.id);
  const s = await admin.call(ops.createSeries, {
    params: { idOrSlug: act.slug },
    body: { slug: 'main', name: 'Main', startDate: at(0), endDate: at(300), rankingFreezeAt: at(240), rankingRevealAt: at(360) },
  });
  const slugs: string[] = [];
  const assignmentIds: string[] = [];
  for (const name of ['Apples', 'Bananas']) {
    const { problem } = await w.problem(admin, { package: true, name });
    const slug = name.toLowerCase();
    const after = await admin.call(ops.attachProblem, { params: { seriesId: s.id }, body: { problemId: problem.id, slug } });
    slugs.push(slug);
    assignmentIds.push(after.problems.find((p) => p.slug === slug)!.id);
  }
  const tags = [['org:North School', 'Juniors'], ['org:North School', 'Seniors'], ['org:South School', 'Juniors']];
  const teams: Party[] = [];
  for (const [i, t] of tags.entries()) {
    const p = await w.party(`team${i + 1}`);
    await admin.call(ops.updateUser, { params: { id: p.u.id }, body: { tags: t } });
    await j.grant(p.u.id, 'participant', act.id);
    teams.push(p);
  }
  const outsider = await w.party('outsider');
  // bearer tokens expire as the clock moves on: everybody signs in again after each jump
  const moveTo = async (minute: number) => {
    clock.set(new Date(at(minute)));
    // the series opens and closes on the scheduler's tick, which the test drives
    await j.app.scheduler.tick(clock.now());
    for (const p of [staff, outsider, ...teams]) p.c = await j.signIn(p.u);
  };
  const submitAt = async (minute: number, team: Party, slug: string, verdict: string) => {
    await moveTo(minute);
    const sub = await team.c.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: slug }, form: codeForm(`int main(){} // ${minute}`, 'main.cpp') });
    clock.advance(30);
    await runner.judge(verdict, { details: details(verdict) });
    return sub.id;
  };
  const judged = async (team: Party, slug: string, verdict: string) => {
    const sub = await team.c.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: slug }, form: codeForm(`int main(){} // ${verdict}`, 'main.cpp') });
    await runner.judge(verdict, { details: details(verdict) });
    return sub.id;
  };
  const earlySubmission = await submitAt(10, teams[0]!, slugs[0]!, 'AC');
  await submitAt(20, teams[2]!, slugs[0]!, 'WA');
  await submitAt(30, teams[2]!, slugs[1]!, 'AC');
  await moveTo(60);
  const asked = await teams[0]!.c.call(ops.askQuestion, { params: { idOrSlug: act.slug }, body: { topic: 'Input', body: 'Is the input sorted?', problemId: assignmentIds[0] } });
  await staff.c.call(ops.answerQuestion, { params: { id: asked.id }, body: { body: 'Yes, it is.', publish: true } });
  const privately = await teams[1]!.c.call(ops.askQuestion, { params: { idOrSlug: act.slug }, body: { topic: 'Time', body: 'How long is left?' } });
  await staff.c.call(ops.answerQuestion, { params: { id: privately.id }, body: { body: 'Four hours.' } });
  await staff.c.call(ops.createAnnouncement, { params: { idOrSlug: act.slug }, body: { topic: 'Welcome', body: 'Good luck to all teams.' } });
  const frozenSubmission = await submitAt(250, teams[1]!, slugs[1]!, 'AC');
  await moveTo(270);
  return { j, clock, act, admin, staff, teams, outsider, frozenSubmission, earlySubmission, moveTo, judged };
}

/** A CLICS GET as `who`: a signed-in client's bearer token, Basic credentials, or nobody. */
export async function get(f: ClicsFixture, path: string, who?: Party | { basic: string }): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (who && 'basic' in who) headers.authorization = `Basic ${Buffer.from(who.basic).toString('base64')}`;
  else if (who) headers.authorization = `Bearer ${who.c.accessToken!}`;
  const res = await raw(`${f.j.url}/api/clics${path}`, { headers });
  return { status: res.status, body: res.body, headers: res.headers };
}

/** Parses with the strict schema and answers the value; a failure names the path. */
export function strict<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(`${where}: ${r.error.message}`);
  return r.data;
}

export const C = clics;

/** One notification of the event feed. */
export interface FeedLine {
  type: string;
  id: string | null;
  data: any;
  token: string;
}

/** An open event feed: the lines so far, and a wait for more. */
export interface OpenFeed {
  status: number;
  lines: FeedLine[];
  /** Raw text received, keep-alive newlines included. */
  text(): string;
  /** Waits until a line satisfies `pred` (or fails after `ms`). */
  until(pred: (l: FeedLine) => boolean, ms?: number): Promise<FeedLine>;
  /** Waits until nothing new came for `quietMs`. */
  settled(quietMs?: number): Promise<FeedLine[]>;
  close(): void;
}

export async function openFeed(f: ClicsFixture, who?: Party, query = ''): Promise<OpenFeed> {
  const headers: Record<string, string> = who ? { authorization: `Bearer ${who.c.accessToken!}` } : {};
  const abort = new AbortController();
  const res = await fetch(`${f.j.url}/api/clics/contests/${f.act.slug}/event-feed${query}`, { headers, signal: abort.signal });
  const lines: FeedLine[] = [];
  let text = '';
  let last = Date.now();
  let done = false;
  if (res.ok && res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      let buf = '';
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          const chunk = decoder.decode(value, { stream: true });
          text += chunk;
          buf += chunk;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const one = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (one.trim()) lines.push(JSON.parse(one) as FeedLine);
          }
          last = Date.now();
        }
      } catch {
        // aborted
      }
      done = true;
    })();
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    status: res.status,
    lines,
    text: () => text,
    async until(pred, ms = 10_000) {
      const end = Date.now() + ms;
      for (;;) {
        const hit = lines.find(pred);
        if (hit) return hit;
        if (Date.now() > end || done) throw new Error(`no such line in the feed after ${ms} ms (${lines.length} lines)`);
        await sleep(20);
      }
    },
    async settled(quietMs = 500) {
      await sleep(quietMs);
      while (Date.now() - last < quietMs && !done) await sleep(50);
      return lines;
    },
    close: () => abort.abort(),
  };
}

/** The last copy of each object in feed order (`type/id`), nulls being deletions. */
export function fold(lines: FeedLine[]): Map<string, any> {
  const out = new Map<string, any>();
  for (const l of lines) out.set(`${l.type}/${l.id ?? ''}`, l.data);
  return out;
}
