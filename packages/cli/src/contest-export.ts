import { ops, type Activity, type clics, type SeriesProblem } from '@judge/contract';
import { ApiProblem, type JudgeClient } from '@judge/sdk';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { clicsGet } from './clics.js';
import { CliError } from './errors.js';
import { note } from './output.js';

/** One file the export wrote: its path in the package, how many objects it holds (a list) and its size. */
export interface Written {
  path: string;
  items: number | null;
  bytes: number;
}

/** The configuration endpoints every package holds (Contest_Package.md, "CCS configuration"). */
const CONFIG = ['judgement-types', 'languages', 'problems', 'groups', 'organizations', 'teams', 'accounts'] as const;
/** What `--with-results` adds: what happened in the contest. */
const RESULTS = ['submissions', 'judgements', 'runs', 'clarifications', 'awards', 'scoreboard', 'state'] as const;

/** Refuses a target that holds anything, unless told to write into it anyway. */
export function checkTarget(dir: string, force: boolean): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new CliError(`${dir} exists and is not a directory`);
  if (readdirSync(dir).length && !force) throw new CliError(`${dir} is not empty: give --force to write into it (files of the same names are replaced, others are left)`);
}

/**
 * The activity as its staff see it, or a refusal: the server answers getManagedActivity only to
 * holders of activity:update there, and the CLICS API shows everything only to holders of
 * submission:read:all (a participant would get a team's view, not the contest's).
 */
export async function exportableActivity(c: JudgeClient, idOrSlug: string): Promise<Activity> {
  let a: Activity;
  try {
    a = await c.call(ops.getManagedActivity, { params: { idOrSlug } });
  } catch (e) {
    if (e instanceof ApiProblem && e.status === 404) throw new CliError(`no activity ${idOrSlug} that you manage: exporting needs activity:update there`);
    throw e;
  }
  const mine = await c.call(ops.myPermissions, { query: { activityId: a.id } });
  if (!mine.includes('submission:read:all')) throw new CliError(`exporting ${a.slug} needs submission:read:all there: the CLICS API would show you less than the whole contest`);
  if (!a.startDate || !a.endDate) {
    throw new CliError(`${a.slug} has no start and end: the CLICS API serves only contests with both; set them with \`judgectl activities update ${a.slug} --start … --end …\``);
  }
  return a;
}

/** Writes files into the package directory, remembering each. */
class PackageWriter {
  readonly written: Written[] = [];
  constructor(readonly dir: string) {}

  file(path: string, bytes: Buffer | string, items: number | null = null): void {
    const full = join(this.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, bytes);
    this.written.push({ path, items, bytes: Buffer.byteLength(bytes) });
  }

  json(path: string, value: unknown): void {
    this.file(path, `${JSON.stringify(value, null, 2)}\n`, Array.isArray(value) ? value.length : null);
  }

  /** YAML with every string quoted: `5:00:00` stays a string for YAML 1.1 readers too (DOMjudge's). */
  yaml(path: string, value: unknown): void {
    this.file(path, stringify(value, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' }), Array.isArray(value) ? value.length : null);
  }
}

/** The version a problem is assigned in: its pin, else the problem's current version. */
async function assignedVersionId(c: JudgeClient, p: SeriesProblem): Promise<string | undefined> {
  if (p.pinnedProblemVersionId) return p.pinnedProblemVersionId;
  const versions = await c.call(ops.listProblemVersions, { params: { problemId: p.problemId } });
  return versions.find((v) => v.version === p.currentVersion)?.id;
}

/** Each problem's package, from the judge's own API, at problems/<id>/<id>.zip (Contest_Package.md). */
async function writePackages(c: JudgeClient, w: PackageWriter, a: Activity, problems: clics.Problem[]): Promise<void> {
  const series = await c.call(ops.listManagedSeries, { params: { idOrSlug: a.id } });
  const assigned = series.filter((s) => s.importanceScope !== 'none').flatMap((s) => s.problems);
  for (const p of problems) {
    const assignment = assigned.find((x) => x.slug === p.id);
    const versionId = assignment?.hasPackage ? await assignedVersionId(c, assignment) : undefined;
    if (!assignment || !versionId) {
      note(`judgectl: problem ${p.id} has no package; none written`);
      continue;
    }
    const bytes = await c.call(ops.downloadProblemPackage, { params: { problemId: assignment.problemId, versionId } });
    w.file(`problems/${p.id}/${p.id}.zip`, Buffer.from(bytes));
  }
}

/** DOMjudge's older problem list: `problems:` with `letter` and `short-name` (the name comes from each package). */
const problemset = (problems: clics.Problem[]) => ({ problems: problems.map((p) => ({ letter: p.label, 'short-name': p.id, name: p.name })) });

/** Writes the contest package of `a` into `dir`: what the CLICS API serves to the caller, and the problems' packages. */
export async function exportContest(c: JudgeClient, a: Activity, dir: string, withResults: boolean): Promise<Written[]> {
  const w = new PackageWriter(dir);
  const base = `/contests/${encodeURIComponent(a.slug)}`;
  w.json('api.json', await clicsGet(c, ''));
  const contest = await clicsGet(c, base);
  w.json('contest.json', contest);
  w.yaml('contest.yaml', contest);
  const read: Record<string, unknown> = {};
  for (const name of CONFIG) {
    read[name] = await clicsGet(c, `${base}/${name}`);
    w.json(`${name}.json`, read[name]);
  }
  const problems = read.problems as clics.Problem[];
  w.yaml('problems.yaml', problems);
  w.yaml('problemset.yaml', problemset(problems));
  await writePackages(c, w, a, problems);
  if (withResults) for (const name of RESULTS) w.json(`${name}.json`, await clicsGet(c, `${base}/${name}`));
  return w.written;
}
