import { Username } from '@judge/contract';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { z } from 'zod';
import { CliError } from './errors.js';
import {
  AccountEntry,
  ContestFile,
  GroupEntry,
  OrganizationEntry,
  ProblemEntry,
  ProblemsetFile,
  reltimeMs,
  TeamEntry,
  type AccountEntry as Account,
  type TeamEntry as Team,
} from './contest-package-schemas.js';
import { slugFrom } from './package.js';

/** The contest a package describes, as the judge will make it. */
export interface PackageContest {
  id: string | undefined;
  name: string | undefined;
  /** RFC 3339 with its offset, or undefined when the package leaves the start open. */
  start: string | undefined;
  durationMs: number;
  freezeMs: number | null;
  ranking: 'icpc' | 'points' | undefined;
  penalty: number | undefined;
}

export interface PackageProblem {
  /** The problem's id in the package; `slug` is the judge's assignment slug made of it. */
  id: string;
  slug: string;
  label: string | undefined;
  name: string | undefined;
  /** Its ICPC problem package: a directory or a zip. */
  path: string;
}

/** An account to make: a team (its user is the team) or a member of the staff. */
export interface PackageUser {
  username: string;
  name: string | undefined;
  password: string | undefined;
  kind: 'team' | 'staff';
  /** The team's id in the package, for a team. */
  teamId: string | undefined;
  /** Group names and `org:NAME`, as the judge keeps them (config-objects.ts reads them back). */
  tags: string[];
}

export interface ContestPackage {
  dir: string;
  contestFile: string;
  contest: PackageContest;
  problems: PackageProblem[];
  users: PackageUser[];
}

/** A document read from `<base>.json`, `<base>.yaml` or `<base>.yml` (JSON first: the API's own form). */
interface Doc {
  file: string;
  data: unknown;
}

export function readDoc(dir: string, bases: string[]): Doc | undefined {
  for (const base of bases) {
    for (const ext of ['json', 'yaml', 'yml']) {
      const file = `${base}.${ext}`;
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (e) {
        throw new CliError(`cannot read ${path}: ${(e as Error).message}; nothing was created`);
      }
      try {
        return { file, data: ext === 'json' ? JSON.parse(text) : (parse(text) ?? null) };
      } catch (e) {
        throw new CliError(`${file} does not parse: ${(e as Error).message.split('\n')[0]}; nothing was created`);
      }
    }
  }
  return undefined;
}

/** Whether DIR is a contest package rather than a plain directory of problem packages. */
export const isContestPackage = (dir: string): boolean => ['contest.json', 'contest.yaml', 'contest.yml'].some((f) => existsSync(join(dir, f)));

/** Collects the faults of every file, so that one refusal names them all. */
class Faults {
  readonly lines: string[] = [];

  /** Parses `data` with `schema`; a fault is named by file, entry and key. */
  check<T>(schema: z.ZodType<T>, data: unknown, where: string): T | undefined {
    const r = schema.safeParse(data);
    if (r.success) return r.data;
    for (const i of r.error.issues) this.lines.push(`${where}: ${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
    return undefined;
  }

  /** Each entry of a list file, checked alone (entry numbers from 1, with its id when it has one). */
  list<T>(schema: z.ZodType<T>, doc: Doc | undefined): T[] {
    if (!doc) return [];
    if (!Array.isArray(doc.data)) {
      this.lines.push(`${doc.file}: must be a list`);
      return [];
    }
    const out: T[] = [];
    doc.data.forEach((entry, i) => {
      const id = (entry as { id?: unknown })?.id;
      const ok = this.check(schema, entry, `${doc.file}: entry ${i + 1}${typeof id === 'string' ? ` (id ${id})` : ''}`);
      if (ok !== undefined) out.push(ok);
    });
    return out;
  }

  add(line: string): void {
    this.lines.push(line);
  }

  refuse(): void {
    if (!this.lines.length) return;
    const shown = this.lines.slice(0, 30);
    const more = this.lines.length - shown.length;
    throw new CliError(`the contest package is not usable:\n  ${shown.join('\n  ')}${more ? `\n  … and ${more} more` : ''}\nnothing was created`);
  }
}

function contestOf(faults: Faults, doc: Doc): PackageContest | undefined {
  const c = faults.check(ContestFile, doc.data, doc.file);
  if (!c) return undefined;
  const freeze = c.scoreboard_freeze_duration ?? c['scoreboard-freeze-length'] ?? null;
  const contest: PackageContest = {
    id: c.id ?? c['short-name'],
    name: c.name ?? c.formal_name ?? undefined,
    start: c.start_time ?? c['start-time'] ?? undefined,
    durationMs: reltimeMs(c.duration),
    freezeMs: freeze === null ? null : reltimeMs(freeze),
    ranking: c.scoreboard_type === 'score' ? 'points' : c.scoreboard_type === 'pass-fail' ? 'icpc' : undefined,
    penalty: c.penalty_time ?? c['penalty-time'],
  };
  if (contest.freezeMs !== null && (contest.freezeMs < 0 || contest.freezeMs > contest.durationMs)) faults.add(`${doc.file}: scoreboard_freeze_duration: must lie between 0:00:00 and the duration`);
  return contest;
}

/** Where DOMjudge and the 2023-06 layout put a problem's package, in the order looked at. */
function packagePath(dir: string, id: string): string | undefined {
  const candidates = [join(dir, 'problems', id, `${id}.zip`), join(dir, 'problems', id), join(dir, id), join(dir, `${id}.zip`)];
  for (const p of candidates) {
    if (!existsSync(p)) continue;
    const st = statSync(p);
    if (st.isFile() || (st.isDirectory() && existsSync(join(p, 'problem.yaml')))) return p;
  }
  return undefined;
}

function problemsOf(faults: Faults, dir: string): PackageProblem[] {
  const listed = readDoc(dir, ['problems']);
  const set = listed ? undefined : readDoc(dir, ['problemset']);
  let entries: { id: string; label?: string | undefined; name?: string | undefined; ordinal?: number | undefined }[];
  if (set) {
    const parsed = faults.check(ProblemsetFile, set.data, set.file);
    entries = (parsed?.problems ?? []).map((p, i) => ({ id: p['short-name'], label: p.letter, name: p.name, ordinal: i + 1 }));
  } else entries = faults.list(ProblemEntry, listed);
  const file = set?.file ?? listed?.file ?? 'problems.json';
  // the judge orders its problems (and labels them A, B, …) by position: the package's ordinals decide it
  const sorted = entries.map((e, i) => ({ e, i })).sort((a, b) => (a.e.ordinal ?? a.i) - (b.e.ordinal ?? b.i) || a.i - b.i);
  const out: PackageProblem[] = [];
  for (const { e } of sorted) {
    const slug = slugFrom(e.id);
    const path = packagePath(dir, e.id);
    if (!slug) faults.add(`${file}: problem ${e.id}: cannot make a problem slug of its id`);
    else if (out.some((p) => p.slug.toLowerCase() === slug.toLowerCase())) faults.add(`${file}: problem ${e.id}: a second problem ${slug}`);
    if (!path) faults.add(`${file}: problem ${e.id}: no package found (looked for problems/${e.id}/${e.id}.zip, problems/${e.id}/, ${e.id}/ and ${e.id}.zip)`);
    if (slug && path) out.push({ id: e.id, slug, label: e.label, name: e.name, path });
  }
  return out;
}

/** The username of a team without an account of its own: its label when that is a username, else one made of its id. */
function teamUsername(t: Team): string {
  if (t.label && Username.safeParse(t.label).success) return t.label;
  return `team-${t.id}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64);
}

/** Teams, their groups and organisations as tags, and the accounts: one user per team (its account's, when there is one), the rest staff. */
function usersOf(faults: Faults, dir: string): PackageUser[] {
  const groups = new Map(faults.list(GroupEntry, readDoc(dir, ['groups'])).map((g) => [g.id, g.name]));
  const orgs = new Map(faults.list(OrganizationEntry, readDoc(dir, ['organizations'])).map((o) => [o.id, o.name]));
  const teamsDoc = readDoc(dir, ['teams']);
  const teams = faults.list(TeamEntry, teamsDoc);
  const accountsDoc = readDoc(dir, ['accounts']);
  const accounts = faults.list(AccountEntry, accountsDoc);
  const byTeam = new Map<string, Account>();
  for (const a of accounts.filter((x) => x.type === 'team')) {
    if (!teams.some((t) => t.id === a.team_id)) faults.add(`${accountsDoc!.file}: account ${a.username}: team_id ${a.team_id} is no team of ${teamsDoc?.file ?? 'teams.json'}`);
    else if (byTeam.has(a.team_id!)) faults.add(`${accountsDoc!.file}: account ${a.username}: team ${a.team_id} has a second account (the judge's team is one account)`);
    else byTeam.set(a.team_id!, a);
  }
  const users: PackageUser[] = [];
  for (const t of teams) {
    const where = `${teamsDoc!.file}: team ${t.id}`;
    const tags = (t.group_ids ?? []).map((g) => groups.get(g) ?? (faults.add(`${where}: group ${g} is not in groups.json`), ''));
    if (t.organization_id) tags.push(orgs.has(t.organization_id) ? `org:${orgs.get(t.organization_id)}` : (faults.add(`${where}: organization ${t.organization_id} is not in organizations.json`), ''));
    const a = byTeam.get(t.id);
    users.push({ username: a?.username ?? teamUsername(t), name: t.name, password: a?.password, kind: 'team', teamId: t.id, tags: [...new Set(tags.filter(Boolean))] });
  }
  for (const a of accounts.filter((x) => x.type !== 'team')) users.push({ username: a.username, name: a.name ?? undefined, password: a.password, kind: 'staff', teamId: undefined, tags: [] });
  const seen = new Set<string>();
  for (const u of users) {
    if (seen.has(u.username.toLowerCase())) faults.add(`the username ${u.username} is used twice`);
    seen.add(u.username.toLowerCase());
  }
  return users;
}

/** Reads and checks a whole contest package; one refusal names every fault, and nothing is created before. */
export function readContestPackage(dir: string): ContestPackage {
  const faults = new Faults();
  const doc = readDoc(dir, ['contest']);
  if (!doc) throw new CliError(`${dir} holds no contest.json or contest.yaml; nothing was created`);
  const contest = contestOf(faults, doc);
  const problems = problemsOf(faults, dir);
  const users = usersOf(faults, dir);
  faults.refuse();
  return { dir, contestFile: doc.file, contest: contest!, problems, users };
}
