import { readFileSync } from 'node:fs';
import type { LocalRunnerHealth } from '@judge/contract';
import type { JudgeApp } from './app.js';
import { and, desc, eq } from 'drizzle-orm';
import { attemptFiles, attempts, files, submissionFiles } from './db/schema.js';
import type { BusMessage } from './events/bus.js';
import { readRunnerCensus } from './modules/runners/index.js';
import { NOT_STARTED_YET } from './runner-supervisor.js';

/**
 * What `judge up` and `judge serve` print for the person at the terminal, instead of the JSON log
 * (which goes to DATA_DIR/logs/judge.log): where to open the judge, whether anything can judge,
 * and one line per judged submission. Everything comes from the server itself (its event bus,
 * the runners table, the local runner's supervisor), never from reading log lines.
 */
export interface ConsoleSummaryOptions {
  app: JudgeApp;
  /** One finished line of text (stdout, or a log record under `--log-format json`). */
  write: (line: string, level?: 'info' | 'warn') => void;
  /** `judge up`: the state of its local runner; absent for `judge serve`. */
  localRunner?: () => LocalRunnerHealth;
  /** How often the runners are looked at for connections and departures. */
  pollMs?: number;
}

export interface ConsoleSummary {
  stop(): void;
}

const JUDGED = new Set(['completed', 'failed']);
/** Judged lines remembered so that one attempt is printed once (later events about it repeat its state). */
const REMEMBERED = 1000;

/** `none`: no runner is approved at all (said at start); `disconnected`: a submission came and no runner is there to judge it. */
export function noRunnerWarning(url: string, why: 'none' | 'disconnected'): string {
  const what = why === 'none' ? 'no runner is approved' : 'a submission is waiting and no runner is connected';
  return (
    `warning: ${what}, so nothing will be judged. Add one: on a judging machine run ` +
    `\`judge-runner register --server ${url}\`, then here \`judgectl runners approve <fingerprint>\` (\`judgectl runners list\` shows it); ` +
    'or use `judge up`, which judges with a runner of its own.'
  );
}

function clock(d = new Date()): string {
  return d.toTimeString().slice(0, 8);
}

/** The language and the largest CPU time of a submission's newest attempt (the runner's details attachment). */
async function languageAndTime(app: JudgeApp, submissionId: string): Promise<{ language: string; timeMs: number | undefined }> {
  const [file, details] = await app.deps.tx.read(async (q) => [
    (await q.select({ language: submissionFiles.language }).from(submissionFiles).where(eq(submissionFiles.submissionId, submissionId)).orderBy(submissionFiles.name).limit(1))[0],
    (
      await q
        .select({ sha256: files.sha256 })
        .from(attempts)
        .innerJoin(attemptFiles, and(eq(attemptFiles.attemptId, attempts.id), eq(attemptFiles.name, 'details')))
        .innerJoin(files, eq(files.id, attemptFiles.fileId))
        .where(eq(attempts.submissionId, submissionId))
        .orderBy(desc(attempts.attempt))
        .limit(1)
    )[0],
  ] as const);
  let timeMs: number | undefined;
  if (details) {
    try {
      const parsed = JSON.parse(readFileSync(app.services.files.blobs.pathOf(details.sha256), 'utf8')) as { tests?: { cpuMs?: number }[] };
      const times = (parsed.tests ?? []).map((t) => t.cpuMs).filter((n): n is number => typeof n === 'number');
      if (times.length) timeMs = Math.max(...times);
    } catch {
      // a details file the summary cannot read leaves the time out; the log and the API still have it
    }
  }
  return { language: file?.language ?? '?', timeMs };
}

function localRunnerLine(s: LocalRunnerHealth): string | undefined {
  if (s.state === 'running') return `local runner: running (pid ${s.pid ?? '?'})${s.restarts ? `, restarted ${s.restarts} time${s.restarts === 1 ? '' : 's'}` : ''}`;
  // before its first start the runner is not refused, only not there yet: nothing to say
  if (s.state === 'notStarted' && s.reason === NOT_STARTED_YET) return undefined;
  if (s.state === 'notStarted') return `local runner: not started: ${s.reason ?? 'unknown reason'}`;
  // restarting is said by the supervisor itself, with the cause of the exit
  return undefined;
}

/** Starts the summary: the first lines now, then changes as they happen. */
export function startConsoleSummary(o: ConsoleSummaryOptions): ConsoleSummary {
  const { app, write } = o;
  const printed = new Set<string>();
  let connected = new Set<string>();
  let lastLocal: string | undefined;
  let warnedNoRunner = false;
  const census = () => app.deps.tx.read((q) => readRunnerCensus(q, Date.now()));

  const judged = async (m: BusMessage): Promise<void> => {
    if (m.kind !== 'event' || m.event.type !== 'submissionChanged') return;
    const { submission } = m.event.data as { submission: { id: string; state: string; attempts: number; userName: string; activitySlug: string; problemSlug: string; verdict?: string } };
    if (submission.state === 'queued' && submission.attempts === 1) {
      if (!warnedNoRunner && (await census()).connected === 0) {
        warnedNoRunner = true;
        write(noRunnerWarning(app.url, 'disconnected'), 'warn');
      }
      return;
    }
    if (!JUDGED.has(submission.state)) return;
    const key = `${submission.id}/${submission.attempts}`;
    if (printed.has(key)) return;
    printed.add(key);
    if (printed.size > REMEMBERED) printed.delete(printed.values().next().value!);
    const { language, timeMs } = await languageAndTime(app, submission.id);
    const verdict = submission.state === 'failed' ? 'failed (not judged)' : (submission.verdict ?? '?');
    const time = timeMs === undefined ? '-' : `${(timeMs / 1000).toFixed(2)} s`;
    write(`${clock()} judged ${submission.id} ${submission.userName} ${submission.activitySlug}/${submission.problemSlug} ${language} ${verdict} ${time}`);
  };

  const look = async () => {
    if (o.localRunner) {
      const line = localRunnerLine(o.localRunner());
      if (line && line !== lastLocal) write(`${clock()} ${line}`);
      lastLocal = line ?? lastLocal;
    }
    const now = new Set((await census()).connectedNames);
    for (const name of now) if (!connected.has(name)) write(`${clock()} runner ${name} connected`);
    for (const name of connected) if (!now.has(name)) write(`${clock()} runner ${name} went away (not seen for two minutes)`);
    // the warning may be given again once a runner has come and all have gone
    if (now.size > 0) warnedNoRunner = false;
    connected = now;
  };

  // a line the summary cannot make is left out; the log and the API still have the submission
  const unsubscribe = app.deps.bus.subscribe((m) => void judged(m).catch((err: unknown) => app.deps.log.warn({ err }, 'console summary line failed')));
  // one look at a time: a slow database read must not let two compare against one `connected`
  let looking = false;
  const lookOnce = () => {
    if (looking) return;
    looking = true;
    void look()
      .catch((err: unknown) => app.deps.log.warn({ err }, 'console summary: the runners could not be read'))
      .finally(() => (looking = false));
  };
  lookOnce();
  const timer = setInterval(lookOnce, o.pollMs ?? 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}
