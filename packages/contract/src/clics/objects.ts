import { z } from 'zod';
import { FILE, ID, RELTIME, Seconds, TIME } from './types.js';

/**
 * The objects of the CLICS Contest API 2023-06 this judge serves, from the tables of Contest_API.md.
 * A property the judge never has is left out (the access endpoint does not list it); one that depends
 * on the caller's role (a submission's files) is optional. `T?` of the text is `.nullable()`.
 */

export const ApiInfo = z.strictObject({
  version: z.literal('2023-06'),
  version_url: z.string(),
  provider: z.strictObject({ name: z.string(), version: z.string().nullable().optional(), logo: z.array(FILE).nullable().optional() }).nullable().optional(),
});

export const Endpoint = z.strictObject({ type: z.string(), properties: z.array(z.string()).min(1) });
export const Access = z.strictObject({ capabilities: z.array(z.string()), endpoints: z.array(Endpoint) });

export const Contest = z.strictObject({
  id: ID,
  name: z.string(),
  formal_name: z.string().nullable(),
  start_time: TIME.nullable(),
  countdown_pause_time: RELTIME.nullable().optional(),
  duration: RELTIME,
  scoreboard_freeze_duration: RELTIME.nullable(),
  scoreboard_thaw_time: TIME.nullable().optional(),
  scoreboard_type: z.enum(['pass-fail', 'score']),
  penalty_time: z.number().int(),
});

export const JudgementType = z.strictObject({ id: ID, name: z.string(), penalty: z.boolean(), solved: z.boolean() });

const Command = z.strictObject({
  command: z.string(),
  args: z.string().nullable().optional(),
  version: z.string().nullable().optional(),
  version_command: z.string().nullable().optional(),
});

export const Language = z.strictObject({
  id: ID,
  name: z.string(),
  entry_point_required: z.boolean(),
  entry_point_name: z.string().nullable(),
  extensions: z.array(z.string()),
  compiler: Command.optional(),
  runner: Command.optional(),
});

export const Problem = z.strictObject({
  id: ID,
  label: z.string(),
  name: z.string(),
  ordinal: z.number().int(),
  time_limit: Seconds,
  test_data_count: z.number().int().nonnegative(),
  max_score: z.number().optional(),
});

export const Group = z.strictObject({ id: ID, name: z.string(), type: z.string().nullable() });

export const Organization = z.strictObject({ id: ID, name: z.string(), formal_name: z.string().nullable() });

export const Team = z.strictObject({
  id: ID,
  name: z.string(),
  label: z.string(),
  display_name: z.string().nullable(),
  organization_id: ID.nullable(),
  group_ids: z.array(ID),
  hidden: z.boolean().nullable(),
});

export const Account = z
  .strictObject({
    id: ID,
    username: z.string(),
    name: z.string().nullable(),
    type: z.enum(['team', 'judge', 'admin', 'analyst', 'staff']),
    team_id: ID.nullable(),
  })
  // team_id is required iff the type is team
  .refine((a) => (a.type === 'team') === (a.team_id !== null), 'team_id iff type is team');

export const State = z
  .strictObject({
    started: TIME.nullable(),
    frozen: TIME.nullable(),
    ended: TIME.nullable(),
    thawed: TIME.nullable(),
    finalized: TIME.nullable(),
    end_of_updates: TIME.nullable(),
  })
  // the order of Contest_API.md: started < frozen < ended < thawed < end_of_updates, ended < finalized < end_of_updates
  .refine((s) => !s.ended || !!s.started, 'ended needs started')
  .refine((s) => !s.thawed || !!s.frozen, 'thawed needs frozen')
  .refine((s) => !s.finalized || !!s.ended, 'finalized needs ended')
  .refine((s) => !s.end_of_updates || (!!s.finalized && (!s.frozen || !!s.thawed)), 'end_of_updates needs finalized (and thawed when frozen)');

export const Submission = z.strictObject({
  id: ID,
  language_id: ID,
  problem_id: ID,
  team_id: ID,
  time: TIME,
  contest_time: RELTIME,
  entry_point: z.string().nullable(),
  files: z.array(FILE).length(1).optional(),
});

export const Judgement = z
  .strictObject({
    id: ID,
    submission_id: ID,
    judgement_type_id: ID.nullable(),
    score: z.number().optional(),
    start_time: TIME,
    start_contest_time: RELTIME,
    end_time: TIME.nullable(),
    end_contest_time: RELTIME.nullable(),
    max_run_time: Seconds.nullable(),
  })
  .refine((j) => (j.judgement_type_id === null) === (j.end_time === null && j.end_contest_time === null), 'end times iff a verdict');

export const Run = z.strictObject({
  id: ID,
  judgement_id: ID,
  ordinal: z.number().int().positive(),
  judgement_type_id: ID,
  time: TIME,
  contest_time: RELTIME,
  run_time: Seconds,
});

export const Clarification = z.strictObject({
  id: ID,
  from_team_id: ID.nullable(),
  to_team_id: ID.nullable(),
  reply_to_id: ID.nullable(),
  problem_id: ID.nullable(),
  text: z.string(),
  time: TIME,
  contest_time: RELTIME,
});

export const Award = z.strictObject({ id: ID, citation: z.string(), team_ids: z.array(ID).nullable() });

const ProblemData = z.strictObject({
  problem_id: ID,
  num_judged: z.number().int().nonnegative(),
  num_pending: z.number().int().nonnegative(),
  solved: z.boolean().optional(),
  score: z.number().optional(),
  time: z.number().int().optional(),
});

export const ScoreboardRow = z.strictObject({
  rank: z.number().int().positive(),
  team_id: ID,
  score: z.strictObject({
    num_solved: z.number().int().optional(),
    total_time: z.number().int().optional(),
    score: z.number().optional(),
    time: z.number().int().nullable().optional(),
  }),
  problems: z.array(ProblemData),
});

export const Scoreboard = z.strictObject({ time: TIME, contest_time: RELTIME, state: State, rows: z.array(ScoreboardRow) });

/** Each collection endpoint's object schema, by the endpoint's name (the `type` of the access endpoint). */
export const COLLECTIONS = {
  'judgement-types': JudgementType,
  languages: Language,
  problems: Problem,
  groups: Group,
  organizations: Organization,
  teams: Team,
  accounts: Account,
  submissions: Submission,
  judgements: Judgement,
  runs: Run,
  clarifications: Clarification,
  awards: Award,
} as const;
export type CollectionName = keyof typeof COLLECTIONS;

export type Contest = z.infer<typeof Contest>;
export type JudgementType = z.infer<typeof JudgementType>;
export type Language = z.infer<typeof Language>;
export type Problem = z.infer<typeof Problem>;
export type Group = z.infer<typeof Group>;
export type Organization = z.infer<typeof Organization>;
export type Team = z.infer<typeof Team>;
export type Account = z.infer<typeof Account>;
export type State = z.infer<typeof State>;
export type Submission = z.infer<typeof Submission>;
export type Judgement = z.infer<typeof Judgement>;
export type Run = z.infer<typeof Run>;
export type Clarification = z.infer<typeof Clarification>;
export type Award = z.infer<typeof Award>;
export type Scoreboard = z.infer<typeof Scoreboard>;
export type ScoreboardRow = z.infer<typeof ScoreboardRow>;
export type Access = z.infer<typeof Access>;
export type ApiInfo = z.infer<typeof ApiInfo>;
