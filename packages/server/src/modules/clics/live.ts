import { readFile } from 'node:fs/promises';
import type { clics, SubmissionDetail } from '@judge/contract';
import yazl from 'yazl';
import type { Readable } from 'node:stream';
import { judgementTypeOf } from './config-objects.js';
import { frozenAt, type ClicsServices, type Contest } from './contest.js';
import { clicsNotFound } from './errors.js';
import { clicsTime, contestTime, seconds } from './times.js';

/**
 * The live data: submissions, judgements (one per attempt of the judge) and runs (one per test of
 * an attempt's `details` attachment). Who sees what (decisions §25): staff everything; a team its own
 * submissions with their files, judgements and runs, and of others what the public sees; the public
 * every submission without its files and the judgements of those the freeze does not hide.
 */

interface Test {
  verdict?: string;
  cpuMs?: number;
  wallMs?: number;
}

export interface Live {
  submissions: clics.Submission[];
  judgements: clics.Judgement[];
  runs: clics.Run[];
  /** The judge's submissions by CLICS id, for the files endpoint. */
  sources: Map<string, SubmissionDetail>;
}

const own = (c: Contest, s: SubmissionDetail) => c.role === 'admin' || (c.role === 'team' && (c.everyTeam || s.userId === c.teamId));

/** Parsed `details` attachments by content hash: a blob never changes, and a contest's feed reads them all again and again. */
const testsCache = new Map<string, Test[]>();
const TESTS_CACHED = 50_000;

async function testsOf(s: ClicsServices, sha256: string | undefined): Promise<Test[]> {
  if (!sha256) return [];
  const cached = testsCache.get(sha256);
  if (cached) return cached;
  let tests: Test[] = [];
  try {
    const parsed = JSON.parse(await readFile(s.blobs.pathOf(sha256), 'utf8')) as { tests?: unknown };
    if (Array.isArray(parsed.tests)) tests = (parsed.tests as Test[]).map((t) => ({ verdict: t.verdict, cpuMs: t.cpuMs, wallMs: t.wallMs }));
  } catch {
    // an unreadable attachment has no runs to show (and is not kept: it may be readable later)
    return [];
  }
  if (testsCache.size >= TESTS_CACHED) testsCache.delete(testsCache.keys().next().value!);
  testsCache.set(sha256, tests);
  return tests;
}

/** The submissions, judgements and runs the caller may see; `teams`, `problems`, `languages`: the ids the objects may refer to. */
export async function liveOf(
  s: ClicsServices,
  c: Contest,
  refs: { teams: Set<string>; problems: Map<string, string>; languages: Set<string> },
  submissions: readonly SubmissionDetail[],
): Promise<Live> {
  const out: Live = { submissions: [], judgements: [], runs: [], sources: new Map() };
  let n = 0;
  for (const sub of submissions) {
    // a big contest is read whole for the event feed: other work runs in between
    if (++n % 500 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const problemId = refs.problems.get(sub.seriesProblemId);
    const language = sub.language ?? '';
    // referential integrity: a submission of no team, problem or known language is not the contest's
    if (!problemId || !refs.teams.has(sub.userId) || !refs.languages.has(language)) continue;
    if (sub.excluded && c.role !== 'admin') continue;
    const mine = own(c, sub);
    out.submissions.push({
      id: sub.id,
      language_id: language,
      problem_id: problemId,
      team_id: sub.userId,
      time: clicsTime(sub.submittedAt),
      contest_time: contestTime(c.start, sub.submittedAt),
      entry_point: null,
      ...(mine ? { files: [{ href: `contests/${c.slug}/submissions/${sub.id}/files`, filename: 'files.zip', mime: 'application/zip' }] } : {}),
    });
    out.sources.set(sub.id, sub);
    // the public, and other teams, learn no outcome of a submission the freeze hides
    if (!mine && frozenAt(c, sub.submittedAt)) continue;
    await judgementsOf(s, c, sub, mine, out);
  }
  return out;
}

async function judgementsOf(s: ClicsServices, c: Contest, sub: SubmissionDetail, mine: boolean, out: Live): Promise<void> {
  // oldest attempt first: a rejudging is a later judgement
  for (const at of [...sub.attemptList].reverse()) {
    if (at.state === 'cancelled') continue;
    const started = at.startedAt ?? at.createdAt;
    const done = at.state === 'completed' || at.state === 'failed';
    const finished = done ? (at.finishedAt ?? started) : null;
    const tests = done ? await testsOf(s, at.files.find((f) => f.name === 'details')?.sha256) : [];
    const cpu = tests.map((t) => t.cpuMs ?? 0);
    const judgement: clics.Judgement = {
      id: at.id,
      submission_id: sub.id,
      judgement_type_id: done ? (at.state === 'failed' ? 'JE' : judgementTypeOf(at.verdict)) : null,
      start_time: clicsTime(started),
      start_contest_time: contestTime(c.start, started),
      end_time: finished ? clicsTime(finished) : null,
      end_contest_time: finished ? contestTime(c.start, finished) : null,
      max_run_time: cpu.length ? seconds(Math.max(...cpu)) : null,
    };
    if (c.a.rankingType === 'points') judgement.score = at.score ?? 0;
    out.judgements.push(judgement);
    // runs: the submission's own team and staff only
    if (!mine || !finished) continue;
    tests.forEach((t, i) =>
      out.runs.push({
        id: `${at.id.replace(/-/g, '')}-${i + 1}`.slice(0, 36),
        judgement_id: at.id,
        ordinal: i + 1,
        judgement_type_id: judgementTypeOf(t.verdict),
        time: clicsTime(finished),
        contest_time: contestTime(c.start, finished),
        run_time: seconds(t.cpuMs ?? t.wallMs ?? 0),
      }),
    );
  }
}

/** The submission's files as one zip, their names at its root; only to those its `files` reference is given to. */
export function filesZip(s: ClicsServices, c: Contest, live: Live, id: string): Readable {
  const sub = live.sources.get(id);
  if (!sub || !own(c, sub)) throw clicsNotFound('submission');
  const zip = new yazl.ZipFile();
  for (const f of sub.files) zip.addFile(s.blobs.pathOf(f.sha256), f.fileName);
  zip.end();
  return zip.outputStream as Readable;
}
