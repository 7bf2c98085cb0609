import type { Activity, Series } from '@judge/contract';
import { ApiProblem, describeFailure, importPackage, librarySlug, LeftBehindError, ops, uploadWithProgress } from '@judge/sdk/browser';
import { api, call } from '../../../api/client';
import type { ArchivePackage } from './archive';

/** What the form asks for, as `judgectl contest import` takes it. */
export interface ImportPlan {
  slug: string;
  name: string;
  rankingType: 'icpc' | 'points';
  timeZone: string;
  /** Wall-clock start in timeZone; none: the series opens at once. */
  start: string;
  /** Minutes from the start (or from now); none: no end. */
  durationMinutes: number | undefined;
  seriesSlug: string;
  packages: ArchivePackage[];
}

export type PackageStep = 'waiting' | 'problem' | 'upload' | 'version' | 'attach' | 'done' | 'refused';

export interface PackageProgress {
  step: PackageStep;
  sent: number;
  total: number;
  /** Why it was refused, in the server's words. */
  why?: string;
  /** The assignment's slug once attached. */
  assigned?: string;
}

/** Something the import made: what "remove it all" deletes again. */
export type Made = { kind: 'activity'; id: string; slug: string } | { kind: 'series'; slug: string } | { kind: 'problem'; id: string; slug: string };

export interface ImportOutcome {
  activity?: Activity;
  series?: Series;
  made: Made[];
  /** The step that stopped the whole import (the activity or its series was refused, a name was taken). */
  stopped?: string;
}

/** Refuses, before anything is made, what the server would refuse later for a name already in use (as judgectl does). */
async function checkFree(plan: ImportPlan): Promise<string | undefined> {
  try {
    await call(ops.getManagedActivity, { params: { idOrSlug: plan.slug } });
    return `the activity ${plan.slug} exists already`;
  } catch (e) {
    if (!(e instanceof ApiProblem && e.status === 404)) throw e;
  }
  const existing = await call(ops.listProblems, { query: { search: plan.slug, pageSize: 200, includeArchived: 'true' } });
  const taken = plan.packages.map((p) => librarySlug(plan.slug, p.slug)).filter((s) => existing.items.some((p) => p.slug.toLowerCase() === s.toLowerCase()));
  return taken.length ? `problems with the slugs ${taken.join(', ')} exist already` : undefined;
}

/**
 * Makes a contest of the packages by the steps `judgectl contest import` takes: the activity, one
 * series, then per package its problem (importPackage, which deletes a refused package's problem
 * again) attached to the series. A refused package does not stop the others; everything made is
 * listed in the outcome, for the page to say and to offer removing.
 */
export async function runImport(plan: ImportPlan, progress: (index: number, p: PackageProgress) => void): Promise<ImportOutcome> {
  const out: ImportOutcome = { made: [] };
  const taken = await checkFree(plan);
  if (taken) return { ...out, stopped: `${taken}; nothing was created` };
  try {
    let a = await call(ops.createActivity, {
      body: { slug: plan.slug, name: plan.name, type: 'contest@1', rankingType: plan.rankingType, timeZone: plan.timeZone, ...(plan.start ? { startDate: plan.start } : {}) },
    });
    out.activity = a;
    out.made.push({ kind: 'activity', id: a.id, slug: a.slug });
    const startMs = a.startDate ? Date.parse(a.startDate) : Date.now();
    const end = plan.durationMinutes ? new Date(startMs + plan.durationMinutes * 60_000).toISOString() : undefined;
    if (end) out.activity = a = await call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, endDate: end } });
    const dates = { ...(a.startDate ? { startDate: a.startDate } : {}), ...(end ? { endDate: end } : {}) };
    out.series = await call(ops.createSeries, { params: { idOrSlug: a.id }, body: { slug: plan.seriesSlug, name: plan.name, ...dates } });
    out.made.push({ kind: 'series', slug: out.series.slug });
  } catch (e) {
    return { ...out, stopped: describeFailure(e) };
  }
  for (const [i, pkg] of plan.packages.entries()) await importOne(plan, pkg, out, (p) => progress(i, p));
  return out;
}

async function importOne(plan: ImportPlan, pkg: ArchivePackage, out: ImportOutcome, report: (p: PackageProgress) => void): Promise<void> {
  const total = pkg.zip.length;
  let sent = 0;
  try {
    const slug = librarySlug(plan.slug, pkg.slug);
    const { problem, version } = await importPackage(
      api,
      { slug, name: pkg.name ?? pkg.slug, zip: pkg.zip, hasStatement: pkg.hasStatement, note: `imported in the browser from ${pkg.path}` },
      {
        onStep: (step) => step !== 'done' && report({ step, sent, total }),
        upload: (name, bytes, mimeType) =>
          uploadWithProgress(api.baseUrl, name, bytes, mimeType, (n) => {
            sent = n;
            report({ step: 'upload', sent, total });
          }),
      },
    );
    out.made.push({ kind: 'problem', id: problem.id, slug: problem.slug });
    report({ step: 'attach', sent: total, total });
    // the server read problem.yaml whole: its name wins over the page's plain reading
    const named = version.package?.name;
    if (named && named !== problem.name) await call(ops.updateProblem, { params: { id: problem.id }, body: { slug: problem.slug, name: named, type: problem.type } });
    const s = await call(ops.attachProblem, { params: { seriesId: out.series!.id }, body: { problemId: problem.id, slug: pkg.slug } });
    out.series = s;
    report({ step: 'done', sent: total, total, assigned: s.problems.find((p) => p.problemId === problem.id)?.slug ?? pkg.slug });
  } catch (e) {
    if (e instanceof LeftBehindError) out.made.push({ kind: 'problem', id: e.problem.id, slug: e.problem.slug });
    report({ step: 'refused', sent, total, why: describeFailure(e instanceof LeftBehindError ? e.refusal : e) });
  }
}

/** Deletes what an import made: the activity (its series and assignments go with it), then its problems. */
export async function removeMade(made: Made[]): Promise<string[]> {
  const failures: string[] = [];
  for (const m of [...made.filter((x) => x.kind === 'activity'), ...made.filter((x) => x.kind === 'problem')]) {
    try {
      if (m.kind === 'activity') await call(ops.deleteActivity, { params: { idOrSlug: m.id } });
      if (m.kind === 'problem') await call(ops.deleteProblem, { params: { id: m.id } });
    } catch (e) {
      failures.push(`${m.slug}: ${describeFailure(e)}`);
    }
  }
  return failures;
}
