import type { clics, Question, SubmissionDetail } from '@judge/contract';
import type { Deps } from '../../services.js';
import { clarificationsOf } from './clarifications.js';
import { bareProblem, JUDGEMENT_TYPES, languagesOf, peopleOf, problemsOf, problemsShown, type ContestProblem, type People } from './config-objects.js';
import { rankedSeries, type ClicsServices, type Contest } from './contest.js';
import { liveOf, type Live } from './live.js';

export type Item = { id: string } & Record<string, unknown>;

/** What the collections are made of, read once and shown to each role as it may see it. */
export interface ContestReads {
  problems: ContestProblem[];
  people: People;
  languages: clics.Language[];
  submissions: SubmissionDetail[];
  questions: Question[];
}

/** Reads what the collections are made of; `submissions`, when given, stand for the contest's (the feed keeps them current). */
export async function readContest(d: Deps, s: ClicsServices, c: Contest, submissions?: SubmissionDetail[]): Promise<ContestReads> {
  const problems = await problemsOf(d, s, c);
  return {
    problems,
    people: await peopleOf(s, c),
    languages: languagesOf(d, rankedSeries(c.series).flatMap((x) => x.problems.map((p) => p.config))),
    submissions: submissions ?? (await s.submissions.allInActivity(c.a.id)),
    questions: await s.questions.allInActivity(c.a.id),
  };
}

export interface Collections {
  /** The contest's problems by assignment id (what the scoreboard's cells name). */
  problemIds: Map<string, string>;
  teams: Set<string>;
  live: Live;
  /** Each collection the role is served, by endpoint name. */
  lists: Record<string, Item[]>;
  /** Every account, whatever the role sees (the caller's own `account`). */
  allAccounts: clics.Account[];
}

/**
 * The awards (decisions §24) as the awards area shows them: to admin once computed, to others once
 * the contest is final and no freeze is in force. Award keys are CLICS award ids already.
 */
async function awardsOf(s: ClicsServices, c: Contest, teams: Set<string>): Promise<clics.Award[]> {
  const shown = await s.awards.shownTo(c.a, c.role === 'admin' ? 'staff' : 'others');
  return (shown ?? []).map((w) => ({ id: w.key, citation: w.citation, team_ids: w.userIds.filter((u) => teams.has(u)) }));
}

/** The ids objects may refer to, as the role sees the contest. */
function refsOf(c: Contest, reads: ContestReads) {
  const problems = problemsShown(c, reads.problems);
  return { problems, problemIds: new Map(problems.map((p) => [p.assignmentId, p.id])), teams: new Set(reads.people.teams.map((t) => t.id)), languages: new Set(reads.languages.map((l) => l.id)) };
}

/** The live objects of `submissions` (some of the contest's) as the role sees them. */
export function liveIn(s: ClicsServices, c: Contest, reads: ContestReads, submissions: readonly SubmissionDetail[]): Promise<Live> {
  const r = refsOf(c, reads);
  return liveOf(s, c, { teams: r.teams, problems: r.problemIds, languages: r.languages }, submissions);
}

/** Every collection of a contest as the caller's role sees it. */
export async function collectionsOf(s: ClicsServices, c: Contest, reads: ContestReads): Promise<Collections> {
  const { problems, problemIds, teams, languages: languageIds } = refsOf(c, reads);
  const { people, languages } = reads;
  const live = await liveOf(s, c, { teams, problems: problemIds, languages: languageIds }, reads.submissions);
  const accounts = c.role === 'admin' ? people.accounts : c.everyTeam ? people.accounts.filter((a) => a.team_id) : people.accounts.filter((a) => a.id === c.teamId);
  return {
    problemIds,
    teams,
    live,
    lists: {
      'judgement-types': JUDGEMENT_TYPES,
      languages,
      problems: problems.map(bareProblem),
      groups: people.groups,
      organizations: people.organizations,
      teams: people.teams,
      accounts,
      submissions: live.submissions,
      judgements: live.judgements,
      runs: live.runs,
      clarifications: clarificationsOf(c, reads.questions, problemIds, teams),
      awards: await awardsOf(s, c, teams),
    } as Record<string, Item[]>,
    allAccounts: people.accounts,
  };
}
