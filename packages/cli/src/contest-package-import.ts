import { ops, problemLabel, Slug, type Activity, type Role, type Series } from '@judge/contract';
import { ApiProblem, CSV_BOM, csvLine, JudgeClient, librarySlug } from '@judge/sdk';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { activityRoles, builtInRole } from './accounts.js';
import { CliError, describe } from './errors.js';
import { importProblem } from './importer.js';
import { note, plural } from './output.js';
import { allPages } from './resolve.js';
import type { ContestPackage, PackageUser } from './contest-package.js';
import { USER_AGENT } from './version.js';

/** What the command line may say instead of the package. */
export interface PackageImportOptions {
  slug?: string;
  name?: string;
  start?: string;
  duration?: number;
  series: string;
  ranking?: 'icpc' | 'points';
  timeZone: string;
  enrolExisting?: boolean;
  out?: string;
}

/** One account of the import: made, or an existing one enrolled; where its password comes from. */
export interface ImportedAccount {
  username: string;
  userId: string;
  kind: 'team' | 'staff';
  teamId: string | null;
  created: boolean;
  password: 'package' | 'generated' | 'unchanged';
}

export interface PackageImported {
  activity: Activity;
  series: Series;
  problems: { id: string; slug: string; label: string; name: string; problem: string; version: number }[];
  accounts: ImportedAccount[];
  credentialsFile: string | null;
}

/** The contest's slug: --slug, else the package's contest id when the judge takes it as a slug. */
export function slugOf(pkg: ContestPackage, o: PackageImportOptions): string {
  const slug = o.slug ?? pkg.contest.id;
  if (!slug) throw new CliError(`${pkg.contestFile} has no id: give --slug; nothing was created`);
  if (!Slug.safeParse(slug).success) throw new CliError(`${slug} is no slug the judge takes (letters, digits, dash and underscore): give --slug; nothing was created`);
  return slug;
}

/** Existing accounts by lower-case username. */
async function existingAccounts(c: JudgeClient): Promise<Map<string, string>> {
  const all = await allPages((page, pageSize) => c.call(ops.listManagedUsers, { query: { includeBlocked: 'true', page, pageSize } }));
  return new Map(all.map((u) => [u.username.toLowerCase(), u.id]));
}

/**
 * Refuses, before anything is made, what the server would refuse later for a name in use: the
 * activity, the library problems, and accounts (unless they are to be enrolled as they are). The
 * caller's own account is never in the way: as the creator it is the activity's manager already.
 */
export async function checkPackageFree(c: JudgeClient, pkg: ContestPackage, slug: string, o: PackageImportOptions, me: string): Promise<Map<string, string>> {
  try {
    await c.call(ops.getManagedActivity, { params: { idOrSlug: slug } });
    throw new CliError(`the activity ${slug} exists already; nothing was created`);
  } catch (e) {
    if (!(e instanceof ApiProblem && e.status === 404)) throw e;
  }
  const problems = await allPages((page, pageSize) => c.call(ops.listProblems, { query: { search: slug, page, pageSize, includeArchived: 'true' } }));
  const taken = pkg.problems.map((p) => librarySlug(slug, p.slug)).filter((s) => problems.some((p) => p.slug.toLowerCase() === s.toLowerCase()));
  if (taken.length) throw new CliError(`problems with the slugs ${taken.join(', ')} exist already; nothing was created`);
  const existing = await existingAccounts(c);
  const inUse = pkg.users.filter((u) => existing.has(u.username.toLowerCase()) && u.username.toLowerCase() !== me.toLowerCase());
  if (inUse.length && !o.enrolExisting) {
    throw new CliError(
      `the accounts ${inUse.map((u) => u.username).join(', ')} exist already: give --enrol-existing to enrol them as they are (names, tags and passwords unchanged); nothing was created`,
    );
  }
  const out = credentialsPath(pkg, o);
  if (pkg.users.some((u) => !existing.has(u.username.toLowerCase()) && !u.password) && existsSync(out)) {
    throw new CliError(`${out} exists: move it away or give --out (credentials files are never overwritten); nothing was created`);
  }
  return existing;
}

export const credentialsPath = (pkg: ContestPackage, o: PackageImportOptions) => o.out ?? `${pkg.dir.replace(/[\\/]+$/, '')}-credentials.csv`;

/** Gives a new account the package's password: the judge issues one, so the account signs in with it once and changes it. */
async function setPassword(c: JudgeClient, username: string, issued: string, password: string): Promise<void> {
  const own = new JudgeClient({ baseUrl: c.baseUrl, userAgent: USER_AGENT });
  await own.login(username, issued);
  await own.call(ops.changePassword, { body: { currentPassword: issued, newPassword: password } });
  await own.call(ops.logout);
}

/** The contest's activity and its one series, the dates from the package unless the command line says otherwise. */
async function makeContest(c: JudgeClient, pkg: ContestPackage, slug: string, o: PackageImportOptions, made: string[]): Promise<{ activity: Activity; series: Series }> {
  const name = o.name ?? pkg.contest.name ?? slug;
  const start = o.start ?? pkg.contest.start ?? new Date().toISOString();
  const rankingType = o.ranking ?? pkg.contest.ranking ?? 'icpc';
  let activity = await c.call(ops.createActivity, { body: { slug, name, type: 'contest@1', rankingType, timeZone: o.timeZone, startDate: start } });
  made.push(`activity ${activity.slug}`);
  const durationMs = o.duration ? o.duration * 60_000 : pkg.contest.durationMs;
  const startMs = Date.parse(activity.startDate!);
  const endDate = new Date(startMs + durationMs).toISOString();
  activity = await c.call(ops.updateActivity, { params: { idOrSlug: activity.id }, body: { slug, endDate } });
  const freezeMs = pkg.contest.freezeMs;
  const rankingFreezeAt = freezeMs ? new Date(startMs + durationMs - freezeMs).toISOString() : undefined;
  const series = await c.call(ops.createSeries, {
    params: { idOrSlug: activity.id },
    body: { slug: o.series, name, startDate: activity.startDate!, endDate, ...(rankingFreezeAt ? { rankingFreezeAt } : {}) },
  });
  made.push(`series ${series.slug}`);
  return { activity, series };
}

/** Imports each problem's package into the library (slug CONTEST-ID) and assigns it under its id, in the package's order. */
async function makeProblems(c: JudgeClient, pkg: ContestPackage, slug: string, series: Series, made: string[], at: (what: string) => void): Promise<PackageImported['problems']> {
  const out: PackageImported['problems'] = [];
  for (const p of pkg.problems) {
    at(`the problem ${p.id} (${p.path})`);
    const r = await importProblem(c, p.path, { slug: librarySlug(slug, p.slug), name: p.name });
    made.push(`problem ${r.problem.slug}`);
    const s = await c.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: r.problem.id, slug: p.slug } });
    const a = s.problems.find((x) => x.problemId === r.problem.id)!;
    made[made.length - 1] += ` (assigned as ${a.slug})`;
    const label = problemLabel(out.length);
    if (p.label && p.label !== label) note(`judgectl: problem ${p.id} is labelled ${label} (the judge labels problems A, B, … by their order), not ${p.label}`);
    out.push({ id: p.id, slug: a.slug, label, name: a.name, problem: r.problem.slug, version: r.version.version });
  }
  return out;
}


interface UserContext {
  c: JudgeClient;
  activity: Activity;
  roles: { participant: Role; manager: Role };
  existing: Map<string, string>;
  me: string;
  credentials: () => number;
  made: string[];
}

/** Makes (or enrols) one account and gives it its role in the activity. */
async function makeUser(x: UserContext, u: PackageUser): Promise<ImportedAccount> {
  const role = u.kind === 'team' ? x.roles.participant : x.roles.manager;
  const base = { username: u.username, kind: u.kind, teamId: u.teamId ?? null };
  const known = x.existing.get(u.username.toLowerCase());
  if (known) {
    if (u.username.toLowerCase() === x.me.toLowerCase()) {
      note(`judgectl: ${u.username} is you: the activity's manager already as its creator`);
      return { ...base, userId: known, created: false, password: 'unchanged' };
    }
    await x.c.call(ops.createGrant, { body: { userId: known, roleId: role.id, activityId: x.activity.id } });
    x.made.push(`enrolled ${u.username}`);
    return { ...base, userId: known, created: false, password: 'unchanged' };
  }
  const issued = await x.c.call(ops.createUser, { body: { username: u.username, ...(u.name ? { firstName: u.name } : {}), ...(u.tags.length ? { tags: u.tags } : {}) } });
  x.made.push(`account ${issued.username}`);
  if (!u.password) writeSync(x.credentials(), csvLine([issued.username, issued.password, u.kind, u.teamId, issued.userId]));
  await x.c.call(ops.createGrant, { body: { userId: issued.userId, roleId: role.id, activityId: x.activity.id } });
  if (u.password) await setPassword(x.c, issued.username, issued.password, u.password);
  return { ...base, userId: issued.userId, created: true, password: u.password ? 'package' : 'generated' };
}

/**
 * Makes the contest a checked package describes. A refusal of the server midway stops it and says
 * what was made so far (and where the passwords issued so far are), as `contest import` always does.
 */
export async function importContestPackage(c: JudgeClient, pkg: ContestPackage, slug: string, o: PackageImportOptions, me: string, existing: Map<string, string>): Promise<PackageImported> {
  const made: string[] = [];
  let current = `the activity ${slug}`;
  const out = credentialsPath(pkg, o);
  let fd: number | undefined;
  const credentials = () => {
    if (fd === undefined) {
      fd = openSync(out, 'wx', 0o600);
      writeSync(fd, CSV_BOM + csvLine(['username', 'password', 'type', 'team', 'userId']));
    }
    return fd;
  };
  try {
    const { activity, series } = await makeContest(c, pkg, slug, o, made);
    const problems = await makeProblems(c, pkg, slug, series, made, (what) => (current = what));
    const roles = await activityRoles(c, activity);
    const x: UserContext = { c, activity, roles: { participant: builtInRole(roles, 'participant'), manager: builtInRole(roles, 'manager') }, existing, me, credentials, made };
    const accounts: ImportedAccount[] = [];
    for (const u of pkg.users) {
      current = `the account ${u.username}`;
      accounts.push(await makeUser(x, u));
    }
    return { activity, series, problems, accounts, credentialsFile: fd === undefined ? null : out };
  } catch (e) {
    const passwords = fd === undefined ? '' : `; the passwords issued so far are in ${out}`;
    throw new CliError(`stopped at ${current}: ${describe(e)}\n${made.length ? `created so far: ${made.join(', ')}${passwords}` : 'nothing was created'}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The penalty the judge counts is fixed (decisions §25): another one in the package is said, not silently dropped. */
export function notePenalty(pkg: ContestPackage): void {
  const p = pkg.contest.penalty;
  if (p !== undefined && p !== 20) note(`judgectl: ${pkg.contestFile} asks for ${plural(p, 'penalty minute')}; the judge counts 20 per rejected try`);
}
