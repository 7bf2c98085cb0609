import { createHash } from 'node:crypto';
import { problemLabel, type clics } from '@judge/contract';
import { effectiveLimits, readLanguageTableFile } from '@judge/problem-package';
import { judgingMaxima } from '../../config.js';
import type { Deps } from '../../services.js';
import { groupsOfTags, organisationOfTags } from '../ranking/index.js';
import { assignmentLanguages } from '../../languages.js';
import { rankedSeries, participantIds, type ClicsServices, type Contest } from './contest.js';
import { seconds } from './times.js';

/**
 * The configuration endpoints: problems, languages, judgement types, teams, groups, organisations
 * and accounts, mapped from the judge's own objects (decisions §25).
 */

/** The judge's verdicts as CLICS judgement types; penalty as the ranking counts it (CE and JE are free). */
export const JUDGEMENT_TYPES: clics.JudgementType[] = [
  { id: 'AC', name: 'Accepted', penalty: false, solved: true },
  { id: 'WA', name: 'Wrong Answer', penalty: true, solved: false },
  { id: 'TLE', name: 'Time Limit Exceeded', penalty: true, solved: false },
  { id: 'RTE', name: 'Run-Time Error', penalty: true, solved: false },
  { id: 'MLE', name: 'Memory Limit Exceeded', penalty: true, solved: false },
  { id: 'OLE', name: 'Output Limit Exceeded', penalty: true, solved: false },
  { id: 'PE', name: 'Presentation Error', penalty: true, solved: false },
  { id: 'CE', name: 'Compile Error', penalty: false, solved: false },
  { id: 'JE', name: 'Judging Error', penalty: false, solved: false },
];
const KNOWN = new Set(JUDGEMENT_TYPES.map((t) => t.id));
/** The judge's spellings the spec names otherwise. */
const ALIASES: Record<string, string> = { RE: 'RTE', IF: 'RTE', SV: 'RTE', WTL: 'TLE', ILE: 'TLE', CTL: 'CE', NO: 'WA', IO: 'WA', EO: 'WA' };

/** A verdict as a judgement type id: an unknown one is a judging error (the judge could not say). */
export function judgementTypeOf(verdict: string | null | undefined): string {
  const v = (verdict ?? '').toUpperCase();
  if (KNOWN.has(v)) return v;
  return ALIASES[v] ?? 'JE';
}


/** A stable CLICS id for a name: its slug (at most 27 characters) and 8 hex digits of its SHA-256, so that two names never share one. */
export function nameId(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 27)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return slug ? `${slug}-${hash}` : `g-${hash}`;
}

/** The contest's problems with the assignment each stands for (id: the assignment's slug). */
export type ContestProblem = clics.Problem & { assignmentId: string; config?: Record<string, unknown> };

/** The problems a caller of the contest's role is shown of `all`: none but to staff until the contest starts. */
export function problemsShown(c: Contest, all: ContestProblem[]): ContestProblem[] {
  return c.role !== 'admin' && c.now < c.start ? [] : all;
}

/** Every problem of the contest (whoever asks: see problemsShown). */
export async function problemsOf(d: Deps, s: ClicsServices, c: Contest): Promise<ContestProblem[]> {
  const assignments = rankedSeries(c.series).flatMap((x) => x.problems);
  const out = [];
  for (const [i, p] of assignments.entries()) {
    const info = (await s.problems.packageInfoOf(p.problemId, p.pinnedProblemVersionId)) ?? {};
    const limits = effectiveLimits(info, p.config, { maxima: judgingMaxima(d.config) });
    const count = (k: string) => (typeof info[k] === 'number' ? (info[k] as number) : 0);
    const problem: ContestProblem = {
      id: p.slug,
      label: problemLabel(i),
      name: p.name,
      ordinal: i + 1,
      time_limit: seconds(limits.time.value * 1000),
      test_data_count: count('sampleCount') + count('secretCount'),
      assignmentId: p.id,
      ...(p.config ? { config: p.config } : {}),
    };
    if (c.a.rankingType === 'points') problem.max_score = p.maxPoints ?? 1;
    out.push(problem);
  }
  return out;
}

/** The problem objects without what the judge keeps beside them. */
export const bareProblem = ({ assignmentId: _a, config: _c, ...p }: ContestProblem): clics.Problem => p;

/** The languages of the judge's table that the contest's assignments allow (all, when none narrows them). */
export function languagesOf(d: Deps, configs: (Record<string, unknown> | undefined)[]): clics.Language[] {
  const table = readLanguageTableFile(d.config.languages);
  const narrowed = configs.map((c) => assignmentLanguages(c));
  const allowed = narrowed.some((l) => l === undefined) ? undefined : new Set(narrowed.flatMap((l) => l ?? []));
  const out: clics.Language[] = [];
  for (const [id, l] of Object.entries(table.languages)) {
    if (allowed && !allowed.has(id)) continue;
    const command = (argv: readonly string[]) => ({ command: argv[0] ?? '', args: argv.slice(1).join(' ') });
    out.push({
      id,
      name: l.name,
      entry_point_required: !!l.entry,
      entry_point_name: l.entry ? 'Main class' : null,
      extensions: l.extensions,
      ...(l.compile ? { compiler: command(l.compile.argv) } : {}),
      runner: command(l.run.argv),
    });
  }
  return out;
}

export interface People {
  teams: clics.Team[];
  groups: clics.Group[];
  organizations: clics.Organization[];
  accounts: clics.Account[];
}

/**
 * Teams are the participants (id: the user's id), their groups and organisation from their tags
 * (ranking/participant-groups.ts); groups and organisations are the distinct values among the teams.
 * Accounts: each team's user, and the contest's staff (type admin). Never a password.
 */
export async function peopleOf(s: ClicsServices, c: Contest): Promise<People> {
  const teamIds = [...(await participantIds(s, c.a))];
  const staffIds = await s.access.staffOf(c.a.id);
  const profiles = await s.users.profiles([...new Set([...teamIds, ...staffIds])]);
  const byId = new Map(profiles.map((p) => [p.id, p]));
  const groups = new Map<string, clics.Group>();
  const organizations = new Map<string, clics.Organization>();
  const teams: clics.Team[] = [];
  const accounts: clics.Account[] = [];
  for (const id of teamIds) {
    const p = byId.get(id);
    if (!p) continue;
    const groupIds = groupsOfTags(p.tags).map((g) => {
      const gid = nameId(g);
      groups.set(gid, { id: gid, name: g, type: null });
      return gid;
    });
    const org = organisationOfTags(p.tags);
    const orgId = org === undefined ? null : nameId(org);
    if (org !== undefined && orgId) organizations.set(orgId, { id: orgId, name: org, formal_name: null });
    teams.push({ id, name: p.name, label: p.username, display_name: null, organization_id: orgId, group_ids: groupIds, hidden: false });
    accounts.push({ id, username: p.username, name: p.name, type: 'team', team_id: id });
  }
  for (const id of staffIds) {
    const p = byId.get(id);
    if (p && !teamIds.includes(id)) accounts.push({ id, username: p.username, name: p.name, type: 'admin', team_id: null });
  }
  return { teams, groups: [...groups.values()], organizations: [...organizations.values()], accounts };
}
