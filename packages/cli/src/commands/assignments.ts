import { ops, type Series, type SeriesProblem } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { InvalidArgumentError, type Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, fields, plural, table, type JsonOption } from '../output.js';
import { resolveActivity, resolveSeries } from '../resolve.js';
import { positive, sub } from './common.js';

/** An assignment: a problem of a series, named by its slug in the activity, its problem's slug or its id. */
export async function resolveAssignment(c: JudgeClient, activity: string, series: string, problem: string): Promise<{ series: Series; assignment: SeriesProblem }> {
  const s = await resolveSeries(c, activity, series);
  const lower = problem.toLowerCase();
  const a =
    s.problems.find((p) => p.id === problem || p.slug.toLowerCase() === lower) ?? s.problems.find((p) => p.problemSlug.toLowerCase() === lower);
  if (!a) throw new CliError(`${activity}/${s.slug} has no problem ${problem}${s.problems.length ? ` (it has: ${s.problems.map((p) => p.slug).join(', ')})` : ''}`);
  return { series: s, assignment: a };
}

/** A positive number of seconds or MiB (decimals allowed: 0.5 s). */
function amount(v: string): number {
  const n = Number(v.trim());
  if (!/^\d+(\.\d+)?$/.test(v.trim()) || !(n > 0)) throw new InvalidArgumentError('not a positive number.');
  return n;
}

const cfg = (a: SeriesProblem, key: string) => a.config?.[key];
const languagesOf = (a: SeriesProblem) => (Array.isArray(cfg(a, 'languages')) ? (cfg(a, 'languages') as string[]).join(', ') : 'any');
const secondsOf = (a: SeriesProblem) => (typeof cfg(a, 'timeLimitSeconds') === 'number' ? `${cfg(a, 'timeLimitSeconds') as number} s` : 'package');
const mibOf = (a: SeriesProblem) => (typeof cfg(a, 'memoryMiB') === 'number' ? `${cfg(a, 'memoryMiB') as number} MiB` : 'package');
const versionOf = (a: SeriesProblem) => (a.pinnedVersion !== undefined ? `${a.pinnedVersion} (pinned)` : `newest (${a.currentVersion})`);

function assignmentFields(a: SeriesProblem): string {
  return fields([
    ['id', a.id],
    ['slug', a.slug],
    ['problem', `${a.problemSlug}: ${a.problemName}`],
    ['version', versionOf(a)],
    ['time limit', secondsOf(a)],
    ['memory', mibOf(a)],
    ['languages', languagesOf(a)],
    ['points', a.maxPoints ?? 'problem'],
    ['submission cap', a.maxSubmissions ?? "activity's"],
    ['files per submission', a.maxAttachments ?? "activity's"],
    ['submissions', a.submissionCount],
  ]);
}

interface UpdateOptions extends JsonOption {
  slug?: string;
  name?: string;
  timeLimit?: number;
  memory?: number;
  languages?: string;
  points?: number;
  maxSubmissions?: number;
  maxAttachments?: number;
  pin?: number;
  followNewest?: boolean;
  clear?: string[];
}

/** Config keys and assignment members --clear takes back to the package's or activity's value. */
const CLEARABLE: Record<string, string> = { 'time-limit': 'timeLimitSeconds', memory: 'memoryMiB', languages: 'languages', points: 'maxPoints', 'max-submissions': 'maxSubmissions', 'max-attachments': 'maxAttachments' };

/** Members of the assignment itself (not of its config) that --clear takes back to the activity's value. */
const MEMBERS = ['maxPoints', 'maxSubmissions', 'maxAttachments'];

function clearable(v: string, prev: string[] = []): string[] {
  if (!(v in CLEARABLE)) throw new InvalidArgumentError(`one of ${Object.keys(CLEARABLE).join(', ')}.`);
  return [...prev, v];
}

/** The PUT body: the assignment as it is, with the options given changed (the server takes the whole config). */
async function updatedBody(c: JudgeClient, a: SeriesProblem, o: UpdateOptions) {
  const config: Record<string, unknown> = { ...(a.config ?? {}) };
  if (o.timeLimit !== undefined) config.timeLimitSeconds = o.timeLimit;
  if (o.memory !== undefined) config.memoryMiB = o.memory;
  if (o.languages !== undefined) config.languages = o.languages.split(',').map((l) => l.trim()).filter(Boolean);
  for (const k of o.clear ?? []) if (!MEMBERS.includes(CLEARABLE[k]!)) delete config[CLEARABLE[k]!];
  let pinned: string | null | undefined;
  if (o.pin !== undefined && o.followNewest) throw new CliError('give --pin N or --follow-newest, not both');
  const asked = ['slug', 'name', 'timeLimit', 'memory', 'languages', 'points', 'maxSubmissions', 'maxAttachments', 'pin', 'followNewest', 'clear'] as const;
  if (!asked.some((k) => o[k] !== undefined)) throw new CliError('nothing to change: give at least one option (`judgectl assignments update --help` lists them)');
  if (o.pin !== undefined) {
    const versions = await c.call(ops.listProblemVersions, { params: { problemId: a.problemId } });
    const v = versions.find((x) => x.version === o.pin);
    if (!v) throw new CliError(`${a.problemSlug} has no version ${o.pin} (it has: ${versions.map((x) => x.version).join(', ')})`);
    pinned = v.id;
  } else if (o.followNewest) pinned = null;
  const cleared = new Set((o.clear ?? []).map((k) => CLEARABLE[k]));
  return {
    problemId: a.problemId,
    slug: o.slug ?? a.slug,
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(pinned !== undefined ? { pinnedProblemVersionId: pinned } : {}),
    config: Object.keys(config).length ? config : null,
    ...(o.points !== undefined ? { maxPoints: o.points } : cleared.has('maxPoints') ? { maxPoints: null } : {}),
    ...(o.maxSubmissions !== undefined ? { maxSubmissions: o.maxSubmissions } : cleared.has('maxSubmissions') ? { maxSubmissions: null } : {}),
    ...(o.maxAttachments !== undefined ? { maxAttachments: o.maxAttachments } : cleared.has('maxAttachments') ? { maxAttachments: null } : {}),
  };
}

export function assignmentsCommands(program: Command): void {
  const assignments = program.command('assignments').description("The problems of an activity's series: limits, points, languages, version; detach");

  sub(assignments, 'list <activity>', 'List every assignment of an activity with its limits, points, languages and version').action(async (activity: string, o: JsonOption) => {
    const c = await api();
    const act = await resolveActivity(c, activity);
    const all = await c.call(ops.listManagedSeries, { params: { idOrSlug: act.id } });
    const rows = all.flatMap((s) => s.problems.map((a) => ({ series: s.slug, ...a })));
    emit(o, rows, () =>
      `${table(
        ['series', 'slug', 'problem', 'version', 'time', 'memory', 'languages', 'points', 'cap', 'submissions', 'id'],
        rows.map((a) => [a.series, a.slug, a.problemSlug, versionOf(a), secondsOf(a), mibOf(a), languagesOf(a), a.maxPoints, a.maxSubmissions, a.submissionCount, a.id]),
      )}\n${plural(rows.length, 'assignment')}`,
    );
  });

  sub(assignments, 'update <activity> <series> <problem>', "Change an assignment's limits, points, languages, submission cap or version; options not given keep their value")
    .option('--time-limit <seconds>', "time limit per test, instead of the package's", amount)
    .option('--memory <MiB>', "memory limit, instead of the package's", amount)
    .option('--languages <ids>', 'the only languages allowed, comma-separated ICPC ids, e.g. c,cpp,python3')
    .option('--points <n>', 'points a full solution is worth', positive)
    .option('--max-submissions <n>', "submissions a participant may make to it, instead of the activity's cap", positive)
    .option('--max-attachments <n>', "files per submission (a multi-file problem), instead of the activity's, at most 100", positive)
    .option('--pin <version>', 'judge against this version of the problem', positive)
    .option('--follow-newest', 'judge against the newest version (undo --pin)')
    .option('--slug <slug>', 'a new slug in the activity')
    .option('--name <name>', 'a name of its own in the activity')
    .option('--clear <what>', `go back to the package's or activity's value: ${Object.keys(CLEARABLE).join(', ')} (repeatable)`, clearable)
    .action(async (activity: string, series: string, problem: string, o: UpdateOptions) => {
      const c = await api();
      const { assignment } = await resolveAssignment(c, activity, series, problem);
      const s = await c.call(ops.updateAssignment, { params: { assignmentId: assignment.id }, body: await updatedBody(c, assignment, o) });
      const a = s.problems.find((x) => x.id === assignment.id)!;
      emit(o, a, () => `Updated ${activity}/${s.slug}/${a.slug}.\n${assignmentFields(a)}`);
    });

  sub(assignments, 'remove <activity> <series> <problem>', 'Detach a problem nobody submitted to from a series (the problem stays in the library)').action(
    async (activity: string, series: string, problem: string, o: JsonOption) => {
      const c = await api();
      const { assignment } = await resolveAssignment(c, activity, series, problem);
      const s = await c.call(ops.deleteAssignment, { params: { assignmentId: assignment.id } });
      emit(o, s, () => `Removed ${assignment.slug} from ${activity}/${s.slug}.`);
    },
  );
}
