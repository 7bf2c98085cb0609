import { z } from 'zod';
import { Grant, Role } from './schemas/roles.js';
import { ManagedUser } from './schemas/users.js';
import { InstanceSettings, MaintenanceState, SystemMessageType } from './schemas/instance.js';
import { Activity, ParticipantProblemSummary, Problem } from './schemas/content.js';
import { Runner, SubmissionSummary } from './schemas/judging.js';
import { Timestamp } from './wire.js';
import { Question } from './schemas/questions.js';
import { Printout } from './schemas/printouts.js';

/** A printout as events tell it: `claimedByMe` depends on who reads it, so the event leaves it out. */
const PrintoutSignal = Printout.omit({ claimedByMe: true });

/**
 * The series as `seriesChanged` tells it: `problems` only with `opened` (inside the series, as the
 * peer's client reads them), never anyone's status: one frame goes to every member, who refetches.
 */
const SeriesSignal = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  order: z.number().int(),
  startDate: Timestamp.optional(),
  endDate: Timestamp.optional(),
  isOpen: z.boolean(),
  pausedAt: Timestamp.optional(),
  problems: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string(), order: z.number().int() })).optional(),
});

/**
 * The socket's event catalogue: each type, who receives it, and its payload (decisions §10).
 * `events.json` is generated from this list.
 */
export const EVENTS = {
  systemMessage: {
    audience: 'core',
    description: "An administrator's broadcast (POST /admin/system-message); to every signed-in session",
    data: z.object({ type: SystemMessageType, message: z.string() }),
  },
  maintenanceChanged: {
    audience: 'core',
    description: 'The maintenance level changed (open, draining, closed); to every signed-in session, once per change',
    data: z.object({ maintenance: MaintenanceState }),
  },
  sessionExpired: {
    audience: 'core',
    description: 'The session ended (logout, block, password change, ended by an administrator); the socket closes after it',
    data: z.object({ reason: z.enum(['logout', 'blocked', 'passwordChanged', 'ended', 'expired']).optional() }),
  },
  roleChanged: {
    audience: 'manager',
    description: 'A role was created, edited or deleted; to holders of role:read where the role applies',
    data: z.union([z.object({ role: Role }), z.object({ deletedId: z.string() })]),
  },
  grantChanged: {
    audience: 'manager',
    description: 'A grant was given or taken; to holders of grant:read:all in its scope and to the user it names',
    data: z.union([z.object({ grant: Grant }), z.object({ deletedId: z.string(), userId: z.string(), activityId: z.string().optional() })]),
  },
  userChanged: {
    audience: 'manager',
    description: 'An account was created, edited, blocked or unblocked; to holders of user:read:all',
    data: z.object({ user: ManagedUser }),
  },
  activityCreated: {
    audience: 'participant',
    description: 'An activity appeared: to those who may see it (everyone signed in for a listed open or password activity, else its members and managers)',
    data: z.object({ activityId: z.string(), slug: z.string(), name: z.string() }),
  },
  activityUpdated: {
    audience: 'participant',
    description: 'An activity changed as participants see it (settings, publication, archiving, documents); to those who may see it',
    data: z.object({ activityId: z.string(), slug: z.string(), name: z.string() }),
  },
  activityDeleted: {
    audience: 'participant',
    description: 'An activity was deleted, or withdrawn from participants by unpublishing; to those who could see it',
    data: z.object({ activityId: z.string() }),
  },
  activityTimesChanged: {
    audience: 'participant',
    description: "An activity's start or end changed; to those who may see it",
    data: z.object({ activityId: z.string(), startDate: Timestamp.optional(), endDate: Timestamp.optional() }),
  },
  seriesChanged: {
    audience: 'participant',
    description:
      'A series opened, closed, paused, resumed or was rescheduled; to the members of its published activity. `opened` carries the problems withheld until then in `series.problems`.',
    data: z.object({
      activityId: z.string(),
      change: z.enum(['opened', 'closed', 'paused', 'resumed', 'rescheduled']),
      series: SeriesSignal,
    }),
  },
  activityFinalized: {
    audience: 'participant',
    description: 'An activity was finalised (finalizedAt set: the standings are final, the awards computed) or reopened (no finalizedAt); to those who may see it',
    data: z.object({ activityId: z.string(), finalizedAt: Timestamp.optional() }),
  },
  activityChanged: {
    audience: 'manager',
    description: 'An activity was created, changed or deleted; to holders of activity:update in it',
    data: z.union([z.object({ activity: Activity }), z.object({ deletedId: z.string() })]),
  },
  managerSeriesChanged: {
    audience: 'manager',
    description: 'A series or its assignments changed (or it was deleted: deletedId); to holders of activity:update in the activity',
    data: z.object({ activityId: z.string(), seriesId: z.string().optional(), deletedId: z.string().optional() }),
  },
  problemChanged: {
    audience: 'manager',
    description: 'A problem was created, changed, versioned, archived, shared or deleted; to its owner, those it is shared with and holders of problem:read:all',
    data: z.union([z.object({ problem: Problem }), z.object({ deletedId: z.string() })]),
  },
  submissionStateChanged: {
    audience: 'participant',
    description:
      "The author's submission was queued, claimed by a runner, judged further (the runner reported progress: the submission's progress), finished or cancelled; to its author only. The submission is the participant projection (score rescaled to the assignment's maxPoints).",
    data: z.object({
      activityId: z.string(),
      submission: SubmissionSummary.extend({ problemId: z.string().meta({ description: "seriesProblemId again, as the peer's participant summary names it" }) }),
    }),
  },
  problemStatusChanged: {
    audience: 'participant',
    description:
      "The author's standing on a problem changed (a result arrived, a submission was excluded or counted again); to the author only. " +
      '`problem` is the problem as the series list shows it to the author (the peer\'s shape); `seriesId` says which series holds it.',
    data: z.object({
      activityId: z.string(),
      seriesId: z.string(),
      problem: ParticipantProblemSummary.meta({ description: 'id is the assignment id' }),
    }),
  },
  rankingChanged: {
    audience: 'participant',
    description:
      'The standings changed. `result` carries the submission whose outcome changed, to those who may see it in the ranking (a result the freeze hides goes only to holders of ranking:read:unfrozen). ' +
      '`unfrozen` (a series passed its rankingRevealAt) and `windowOpened` (a series passed its rankingVisibleFrom) carry no result: the held data is incomplete, refetch. ' +
      'Results are coalesced: a result waits at most `socket.rankingIntervalMs` (1 s by default) to go out with the others of its activity, and at the end of that interval each series sends one frame to each audience: ' +
      'the result as above when it was the only one, else `{activityId, change: "result", seriesId}` without a result (several changed: refetch). So a member gets at most one a series per interval, after the last change of it. ' +
      "The author's own verdict (submissionStateChanged, problemStatusChanged) never waits.",
    data: z.object({
      activityId: z.string(),
      change: z.enum(['result', 'unfrozen', 'windowOpened']),
      seriesId: z.string().optional(),
      result: z
        .object({
          submissionId: z.string(),
          userId: z.string(),
          problemId: z.string(),
          submittedAt: Timestamp,
          state: z.string(),
          verdict: z.string().optional(),
          score: z.number().optional(),
          maxScore: z.number().optional(),
          excluded: z.boolean(),
          id: z.string().meta({ description: "The submission id again, as the peer's ContestantResult names it" }),
          contestantId: z.string().meta({ description: 'The userId again (peer name)' }),
          seriesId: z.string(),
          problemSlug: z.string(),
          points: z.number().optional().meta({ description: 'The score again (peer name): rescaled to the assignment maxPoints when it has them' }),
        })
        .optional(),
    }),
  },
  submissionChanged: {
    audience: 'manager',
    description: 'A submission was made, claimed, judged further (runner progress), judged, rejudged, cancelled, excluded or counted again; to holders of submission:read:all in its activity',
    data: z.object({ activityId: z.string(), submission: SubmissionSummary }),
  },
  runnerChanged: {
    audience: 'manager',
    description: 'A runner registered, was approved, revoked, tagged or deleted; to holders of runner:read',
    data: z.union([z.object({ runner: Runner }), z.object({ deletedId: z.string() })]),
  },
  instanceChanged: {
    audience: 'core',
    description: 'The instance settings changed; to every signed-in session',
    data: z.object({ instance: InstanceSettings }),
  },
  questionChanged: {
    audience: 'manager',
    description: 'A question was asked, answered, published, withdrawn or deleted, or an announcement made or deleted; to holders of question:read:all in its activity',
    data: z.union([z.object({ activityId: z.string(), question: Question }), z.object({ activityId: z.string(), deletedId: z.string() })]),
  },
  questionAnswered: {
    audience: 'participant',
    description:
      'A question was answered. Unpublished: to its asker, as the asker reads it. Published: to every member who may read questions, the asker included, without naming the asker.',
    data: z.object({ activityId: z.string(), question: Question }),
  },
  questionPublished: {
    audience: 'participant',
    description:
      'A question was published or withdrawn. Published: the question to every member who may read questions. Withdrawn: the question to its asker, `withdrawnId` to the other members, who can no longer read it.',
    data: z.union([z.object({ activityId: z.string(), question: Question }), z.object({ activityId: z.string(), withdrawnId: z.string() })]),
  },
  announcementPublished: {
    audience: 'participant',
    description: 'An announcement was made; to every member of the activity',
    data: z.object({ activityId: z.string(), question: Question }),
  },
  printoutStateChanged: {
    audience: 'participant',
    description: "The recipient's own printout request was taken, handed back or resolved; to its requester only",
    data: z.object({ activityId: z.string(), printout: PrintoutSignal }),
  },
  ceremonyStepChanged: {
    audience: 'manager',
    description: "The award ceremony's presenter moved to another step; to holders of ranking:read:unfrozen in its activity (the screens following the presenter)",
    data: z.object({ activityId: z.string(), step: z.number().int() }),
  },
  printoutChanged: {
    audience: 'manager',
    description: 'A printout was requested, taken, handed back or resolved; only to holders of printout:manage in its activity',
    data: z.object({ activityId: z.string(), printout: PrintoutSignal }),
  },
} as const satisfies Record<string, { audience: 'core' | 'participant' | 'manager'; description: string; data: z.ZodType }>;

export type EventType = keyof typeof EVENTS;
export type EventData<T extends EventType> = z.input<(typeof EVENTS)[T]['data']>;

/** A socket frame; `ping` is a transport frame outside the catalogue. */
export interface EventFrame<T extends EventType = EventType> {
  type: T;
  data: EventData<T>;
}

export const PING_FRAME = '{"type":"ping","data":{}}';

export function eventsDocument(version: string): Record<string, unknown> {
  const types: Record<string, unknown> = {};
  for (const [name, e] of Object.entries(EVENTS)) {
    types[name] = { audience: e.audience, description: e.description, data: z.toJSONSchema(e.data, { io: 'output', unrepresentable: 'any' }) };
  }
  return {
    version,
    transport: {
      path: '/api/v1/ws',
      frame: '{type: string, data: object}; members whose value is null are omitted',
      ping: { frame: { type: 'ping', data: {} }, intervalSeconds: 25 },
    },
    events: types,
  };
}
