import { ops, type Activity, type Series } from '@judge/contract';
import { ApiProblem, type JudgeClient } from '@judge/sdk';
import { Option, type Command } from 'commander';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { api } from '../client.js';
import { CliError, describe } from '../errors.js';
import { importProblem } from '../importer.js';
import { emit, note, table, type JsonOption } from '../output.js';
import { slugFrom, zipHasManifest } from '../package.js';
import { allPages } from '../resolve.js';
import { positive, sub } from './common.js';
import { inZone, zonedInstant } from '../zoned-time.js';
import { isContestPackage } from '../contest-package.js';
import type { PackageImportOptions } from '../contest-package-import.js';
import { contestExportCommand, importPackageDir } from './contest-package.js';

interface Found {
  path: string;
  /** The assignment's slug (what participants see), from the directory or zip name. */
  slug: string;
  /** The library problem's slug: the contest's slug in front, so contests never collide. */
  problemSlug: string;
}

/** Every subdirectory or zip of `dir` holding a problem.yaml, in name order; the rest is named on stderr. */
async function findPackages(dir: string, contestSlug: string): Promise<Found[]> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (e) {
    throw new CliError(`cannot read the directory ${dir}: ${(e as Error).message}`);
  }
  const found: Found[] = [];
  const skipped: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const st = statSync(path);
    let isPackage = false;
    if (st.isDirectory()) {
      isPackage = readdirSync(path).includes('problem.yaml');
    } else if (st.isFile() && /\.zip$/i.test(name)) {
      const has = await zipHasManifest(path);
      if (has === undefined) throw new CliError(`${path} is not a readable zip file; nothing was created`);
      isPackage = has;
    } else continue;
    if (!isPackage) {
      skipped.push(name);
      continue;
    }
    const slug = slugFrom(name);
    if (!slug) throw new CliError(`cannot make a problem slug of ${name}: rename it (letters, digits, dash, underscore); nothing was created`);
    const twin = found.find((f) => f.slug.toLowerCase() === slug.toLowerCase());
    if (twin) throw new CliError(`${twin.path} and ${path} would both be the problem ${slug}; nothing was created`);
    found.push({ path, slug, problemSlug: `${contestSlug}-${slug}`.slice(0, 64) });
  }
  if (skipped.length) note(`judgectl: skipped (no problem.yaml): ${skipped.join(', ')}`);
  return found;
}

/** Refuses, before anything is made, what the server would refuse later for a name already in use. */
async function checkFree(c: JudgeClient, slug: string, found: Found[]): Promise<void> {
  try {
    await c.call(ops.getManagedActivity, { params: { idOrSlug: slug } });
    throw new CliError(`the activity ${slug} exists already; nothing was created`);
  } catch (e) {
    if (!(e instanceof ApiProblem && e.status === 404)) throw e;
  }
  const existing = await allPages((page, pageSize) => c.call(ops.listProblems, { query: { search: slug, page, pageSize, includeArchived: 'true' } }));
  const taken = found.filter((f) => existing.some((p) => p.slug.toLowerCase() === f.problemSlug.toLowerCase()));
  if (taken.length) throw new CliError(`problems with the slugs ${taken.map((f) => f.problemSlug).join(', ')} exist already; nothing was created`);
}

type ImportOptions = JsonOption & PackageImportOptions;

/** `contest import DIR`: a contest package when DIR holds contest.yaml or contest.json, else a directory of problem packages. */
async function importDir(dir: string, o: ImportOptions): Promise<void> {
  if (isContestPackage(dir)) return importPackageDir(dir, o);
  if (o.enrolExisting || o.out) throw new CliError(`--enrol-existing and --out are for a contest package, and ${dir} holds no contest.yaml or contest.json`);
  if (!o.slug) throw new CliError("required option '--slug <slug>' not specified (DIR holds no contest.yaml or contest.json to take it from)");
  return importProblemsDir(dir, { ...o, slug: o.slug, ranking: o.ranking ?? 'icpc' });
}

/** A contest made of a directory of ICPC problem packages: the activity, one series, every problem assigned. */
async function importProblemsDir(dir: string, o: ImportOptions & { slug: string; ranking: 'icpc' | 'points' }): Promise<void> {
  const slug = o.slug;
  const ranking = o.ranking;
  const found = await findPackages(dir, slug);
  if (!found.length) throw new CliError(`${dir} holds no problem packages (subdirectories or .zip files with a problem.yaml); nothing was created`);
  const c = await api();
  await checkFree(c, slug, found);

  const name = o.name ?? slug;
  const made: string[] = [];
  let activity: Activity | undefined;
  let series: Series | undefined;
  const problems: { slug: string; problem: string; name: string; assignmentId: string; version: number; tests: string }[] = [];
  let current = '';
  try {
    current = `the activity ${slug}`;
    // the server reads a start without an offset in the contest's zone: the end is counted from
    // the instant it made of it, so a contest across a clock change still lasts --duration
    activity = await c.call(ops.createActivity, { body: { slug, name, type: 'contest@1', rankingType: ranking, timeZone: o.timeZone, ...(o.start ? { startDate: o.start } : {}) } });
    made.push(`activity ${activity.slug}`);
    const startMs = activity.startDate ? Date.parse(activity.startDate) : Date.now();
    const end = o.duration ? new Date(startMs + o.duration * 60_000).toISOString() : undefined;
    if (end) activity = await c.call(ops.updateActivity, { params: { idOrSlug: activity.id }, body: { slug: activity.slug, endDate: end } });
    const dates = { ...(activity.startDate ? { startDate: activity.startDate } : {}), ...(end ? { endDate: end } : {}) };
    current = `the series ${o.series}`;
    series = await c.call(ops.createSeries, { params: { idOrSlug: activity.id }, body: { slug: o.series, name, ...dates } });
    made.push(`series ${series.slug}`);
    for (const f of found) {
      current = f.path;
      const r = await importProblem(c, f.path, { slug: f.problemSlug });
      made.push(`problem ${r.problem.slug}`);
      const s = await c.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: r.problem.id, slug: f.slug } });
      const a = s.problems.find((p) => p.problemId === r.problem.id)!;
      made[made.length - 1] += ` (assigned as ${a.slug})`;
      const info = r.version.package;
      problems.push({ slug: a.slug, problem: r.problem.slug, name: r.problem.name, assignmentId: a.id, version: r.version.version, tests: info ? `${info.sampleCount}+${info.secretCount}` : '' });
      note(`judgectl: imported ${f.path} as ${a.slug} (${r.problem.name})`);
    }
  } catch (e) {
    throw new CliError(`stopped at ${current}: ${describe(e)}\n${made.length ? `created so far: ${made.join(', ')}` : 'nothing was created'}`);
  }
  const result = { activity, series, problems };
  emit(o, result, () =>
    [
      `Created the contest ${activity!.slug} (${activity!.name}) with the series ${series!.slug}` +
        `${series!.startDate ? `, from ${inZone(series!.startDate, activity!.timeZone)}` : ', open now'}${series!.endDate ? ` to ${inZone(series!.endDate, activity!.timeZone)}` : ''}.`,
      table(['slug', 'name', 'library problem', 'version', 'tests (sample+secret)'], problems.map((p) => [p.slug, p.name, p.problem, p.version, p.tests])),
      `Next: \`judgectl users import FILE.csv --activity ${activity!.slug}\`, then \`judgectl ranking ${activity!.slug}\`.`,
    ].join('\n'),
  );
}

export function contestCommands(program: Command): void {
  const contest = program.command('contest').description('Whole contests in one step');

  sub(
    contest,
    'import <dir>',
    'Create a contest from a directory of ICPC problem packages: every subdirectory or .zip of DIR holding a problem.yaml is a problem. ' +
      'Makes the activity, one series, and imports and assigns every problem (assignment slugs from the names, library slugs SLUG-NAME). ' +
      'Without --start the series opens at once. ' +
      'When DIR holds contest.yaml or contest.json it is a CLICS contest package (DOMjudge\'s too): the contest, its problems (problems.json|yaml or ' +
      'problemset.yaml, each package at problems/ID/ID.zip, problems/ID/, ID/ or ID.zip), teams with their groups and organisations (as tags) and accounts ' +
      '(team: participant; judge, admin and the rest: manager) are made from it; the options given override the package. Everything is checked first: ' +
      'a fault creates nothing. Accounts without a password in the package get one issued, written to a CSV readable by you only.',
  )
    .option('--slug <slug>', "the contest's slug (required unless DIR is a contest package, whose contest id is the default)")
    .option('--name <name>', 'its name (default: the package\'s, else the slug)')
    .option('--start <instant>', "when it starts (RFC 3339; without an offset, in the contest's --time-zone)", zonedInstant)
    .option('--duration <minutes>', 'how long it runs, from --start (else from now; a contest package: its duration from its start_time unless given)', positive)
    .option('--series <slug>', "the series' slug", 'main')
    .addOption(new Option('--ranking <type>', "how the standings count (default: icpc, or the package's scoreboard_type)").choices(['icpc', 'points']))
    .option('--time-zone <zone>', 'IANA time zone', 'UTC')
    .option('--enrol-existing', "contest package: enrol the package's accounts that exist already as they are (names, tags and passwords unchanged) instead of refusing")
    .option('--out <file>', 'contest package: where the issued passwords go (default: DIR-credentials.csv; never overwritten)')
    .action(importDir);
  contestExportCommand(contest);
}
