import { z } from 'zod';
import { ActivityTimeInput, Props, QueryBoolean, Timestamp, Uuid } from '../wire.js';

// ---- shared pieces ----

/** Slugs name problems, activities, series and assignments in URLs; unique regardless of case. */
export const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, dash and underscore, starting with a letter or digit');
export const Name = z.string().trim().min(1).max(200);
/** `name@version`, matched exactly by runners (decisions §6). */
export const TypeTag = z.string().max(64).regex(/^[a-z0-9][a-z0-9-]*@[0-9]+$/, 'name@version, e.g. standard-io@1');
export const TimeZone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone, e.g. Europe/Warsaw');
export const RunnerTags = z.array(z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/)).max(32);
const Limit = z.number().int().min(1);

// ---- problems ----

export const ProblemVisibility = z.enum(['private', 'shared', 'instance']);
export const FileScope = z.enum(['participant', 'manager', 'runner']);

export const Problem = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  type: z.string(),
  external: z.boolean(),
  ownerUserId: z.string().optional(),
  ownerName: z.string().optional(),
  visibility: ProblemVisibility,
  sharedWith: z.array(z.string()),
  archivedAt: Timestamp.optional(),
  currentVersion: z.number().int(),
  versionCount: z.number().int(),
  attachedCount: z.number().int(),
  createdAt: Timestamp,
});
export type Problem = z.infer<typeof Problem>;

export const ProblemsQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  search: z.string().max(200).optional(),
  mineOnly: QueryBoolean.optional(),
  /** Only problems others own that are shared with the caller, by name or with the whole instance. */
  sharedOnly: QueryBoolean.optional(),
  includeArchived: QueryBoolean.optional(),
});

export const CreateProblemRequest = z.object({ slug: Slug, name: Name, type: TypeTag, external: z.boolean().optional() });
export const UpdateProblemRequest = z.object({ slug: Slug, name: Name, type: TypeTag });
export const ArchivedRequest = z.object({ archived: z.boolean() });
export const VisibilityRequest = z.object({
  visibility: ProblemVisibility,
  sharedWith: z.array(z.string().max(64)).max(500).optional().meta({ description: 'User ids; kept only with visibility shared' }),
});

export const PackageInfo = z.object({
  name: z.string().optional(),
  timeLimitSeconds: z.number().optional(),
  timeLimitSource: z.enum(['trial']).optional().meta({
    description:
      "Present when the package names no time limit and the server's calibration trial computed timeLimitSeconds by problemtools' rule (slowest accepted example × time_multiplier). Until that trial reports, the version is judged at the runner's default",
  }),
  memoryMiB: z.number().optional(),
  outputMiB: z.number().optional(),
  capped: z
    .object({ timeLimitSeconds: z.number().optional(), memoryMiB: z.number().optional(), outputMiB: z.number().optional() })
    .optional()
    .meta({ description: "The limits the instance's maxima cut, as judged (the figures above are the package's)" }),
  validation: z.string().optional(),
  sampleCount: z.number().int(),
  secretCount: z.number().int(),
  format: z.enum(['legacy', '2023-07']),
});

export const ProblemVersionFile = z.object({
  name: z.string(),
  scope: FileScope,
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  fileId: z.string(),
});

export const ProblemVersion = z.object({
  id: z.string(),
  version: z.number().int(),
  createdAt: Timestamp,
  createdByName: z.string().optional(),
  note: z.string().optional(),
  props: z.record(z.string(), z.unknown()).optional(),
  hasPackage: z.boolean(),
  package: PackageInfo.optional().meta({ description: 'What the package says of itself (extension)' }),
  files: z.array(ProblemVersionFile),
});
export type ProblemVersion = z.infer<typeof ProblemVersion>;

export const CreateVersionRequest = z.object({
  note: z.string().max(2000).optional(),
  statements: z
    .array(z.object({ language: z.string().min(2).max(16).regex(/^[A-Za-z-]+$/).optional(), fileId: Uuid }))
    .max(20)
    .optional(),
  files: z.array(z.object({ fileId: Uuid, name: z.string().min(1).max(255).regex(/^[^/\\\0]+$/, 'a plain file name'), scope: FileScope })).max(200).optional(),
  removedFiles: z.array(z.string().min(1).max(255)).max(200).optional(),
  props: Props.optional(),
  package: z.object({ fileId: Uuid, samplesFileId: Uuid.optional() }).optional(),
});

export const StatementFormat = z.enum(['markdown', 'html', 'pdf']);

export const ProblemVersionContentItem = z.object({
  name: z.string(),
  language: z.string().optional(),
  format: StatementFormat.meta({
    description:
      'How to show the statement: markdown (Markdown with $..$ math, rendered by the client), html (a sanitized HTML fragment, LaTeX converted at upload, math already typeset by KaTeX as HTML and MathML; its images are /api/v1/files/{id} URLs), pdf (a PDF document)',
  }),
  fileId: z.string(),
  sha256: z.string(),
  sizeBytes: z.number().int(),
});

// ---- activities ----

export const RankingType = z.enum(['icpc', 'points']);
export const ScoreVisibility = z.enum(['everyone', 'participantOnly', 'managersOnly']);
export const JoinPolicy = z.enum(['closed', 'password', 'open']);
export const AttachmentVisibility = z.enum(['participant', 'managersOnly']);
export const DocumentKind = z.enum(['terms', 'privacy', 'rules', 'welcome', 'home', 'cookies', 'accessibility']);

export const ActivityDocument = z.object({
  kind: z.string(),
  language: z.string(),
  title: z.string(),
  validFrom: Timestamp,
  fileId: z.string(),
  sha256: z.string(),
  sizeBytes: z.number().int(),
});

export const Modules = z.object({
  questions: z.boolean(),
  printouts: z.boolean(),
  sampleRuns: z.boolean().meta({ description: 'Participants may run their code on the samples (never a submission); on unless switched off' }),
});

/** Medals given at finalisation (decisions §24): the first `gold` ranks gold, the next `silver` silver, then `bronze` + `extraBronze` bronze. */
export const AwardRules = z.object({
  gold: z.number().int().min(0).max(1000),
  silver: z.number().int().min(0).max(1000),
  bronze: z.number().int().min(0).max(1000),
  extraBronze: z.number().int().min(0).max(1000),
});
export type AwardRules = z.infer<typeof AwardRules>;

export const Activity = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  type: z.string(),
  rankingType: RankingType,
  timeZone: z.string(),
  startDate: Timestamp.optional(),
  endDate: Timestamp.optional(),
  modules: Modules,
  documents: z.array(ActivityDocument),
  scoreVisibility: ScoreVisibility,
  attachmentVisibility: z.array(z.object({ name: z.string(), visibility: AttachmentVisibility })),
  props: z.record(z.string(), z.unknown()).optional(),
  joinPolicy: JoinPolicy,
  unlisted: z.boolean(),
  joinPassword: z.string().optional(),
  hideEndedSeriesProblems: z.boolean(),
  showGroupMembers: z.boolean(),
  publicScoreboard: z
    .boolean()
    .meta({ description: 'Anyone, signed in or not, may read the public view of the standings and open the scoreboard page (decisions §23); off by default' }),
  maxUploadBytes: z.number().int(),
  maxAttachments: z.number().int(),
  maxSubmissionsPerProblem: z.number().int().optional(),
  archivedAt: Timestamp.optional(),
  publishedAt: Timestamp.optional(),
  seriesCount: z.number().int(),
  problemCount: z.number().int(),
  participantCount: z.number().int(),
  runnerTags: z.array(z.string()),
  matchingRunners: z.number().int(),
  awardRules: AwardRules.meta({ description: "The medal counts in force (extension): the activity's own, else the judge's defaults" }),
  finalizedAt: Timestamp.optional().meta({ description: 'When the standings were declared final and the awards computed (extension); absent while not finalised' }),
});
export type Activity = z.infer<typeof Activity>;

/** Writable activity members. On update an absent member keeps its value and null clears it. */
const activityWritable = {
  startDate: ActivityTimeInput.nullable().optional(),
  endDate: ActivityTimeInput.nullable().optional(),
  modules: z.object({ questions: z.boolean().optional(), printouts: z.boolean().optional(), sampleRuns: z.boolean().optional() }).optional(),
  scoreVisibility: ScoreVisibility.optional(),
  attachmentVisibility: z.array(z.object({ name: z.string().min(1).max(64), visibility: AttachmentVisibility })).max(50).optional(),
  props: Props.nullable().optional(),
  joinPolicy: JoinPolicy.optional(),
  unlisted: z.boolean().optional(),
  joinPassword: z.string().min(1).max(128).nullable().optional(),
  hideEndedSeriesProblems: z.boolean().optional(),
  showGroupMembers: z.boolean().optional(),
  publicScoreboard: z.boolean().optional(),
  maxUploadBytes: Limit.max(128 * 1024 * 1024).optional(),
  maxAttachments: Limit.max(100).optional(),
  maxSubmissionsPerProblem: Limit.nullable().optional(),
  runnerTags: RunnerTags.optional(),
  awardRules: AwardRules.nullable().optional().meta({ description: "Medal counts for the awards; null: back to the judge's defaults" }),
};

export const CreateActivityRequest = z.object({ slug: Slug, name: Name, type: TypeTag, rankingType: RankingType, timeZone: TimeZone, ...activityWritable });
export const UpdateActivityRequest = z.object({
  slug: Slug.meta({ description: 'Must equal the stored slug: slugs never change' }),
  name: Name.optional(),
  type: TypeTag.optional(),
  rankingType: RankingType.optional(),
  timeZone: TimeZone.optional(),
  ...activityWritable,
});
export const PublishedRequest = z.object({ published: z.boolean() });
export const DuplicateActivityRequest = z.object({ slug: Slug, startsAt: ActivityTimeInput });
export const ActivityDocumentsRequest = z.object({
  documents: z
    .array(z.object({ language: z.string().min(2).max(16).regex(/^[A-Za-z-]+$/), title: z.string().trim().min(1).max(200), fileId: Uuid, validFrom: ActivityTimeInput.optional() }))
    .min(1)
    .max(20),
});
export const ManagerActivitiesQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  search: z.string().max(200).optional(),
  includeArchived: QueryBoolean.optional(),
});
export const ActivitySummary = z.object({ id: z.string(), slug: z.string(), name: z.string() });

export const ActivityState = z.enum(['upcoming', 'ongoing', 'finished']);

/** What a participant sees of an activity (decisions §9). */
export const ParticipantActivity = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  type: z.string(),
  rankingType: RankingType,
  timeZone: z.string(),
  state: ActivityState,
  startDate: Timestamp.optional(),
  endDate: Timestamp.optional(),
  enrolled: z.boolean(),
  canManage: z.boolean(),
  joinPolicy: JoinPolicy,
  scoreVisibility: ScoreVisibility,
  hideEndedSeriesProblems: z.boolean(),
  modules: Modules,
  documents: z.array(ActivityDocument),
  props: z.record(z.string(), z.unknown()).optional(),
  archivedAt: Timestamp.optional(),
  finalizedAt: Timestamp.optional().meta({ description: 'When the standings were declared final (extension)' }),
});
export type ParticipantActivity = z.infer<typeof ParticipantActivity>;

export const ActivitiesQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  state: z
    .string()
    .max(64)
    .regex(/^(upcoming|ongoing|finished)(,(upcoming|ongoing|finished))*$/, 'a comma list of upcoming, ongoing, finished')
    .optional(),
  search: z.string().max(200).optional(),
});
export const EnrolmentRequest = z.object({ password: z.string().max(128).optional() });

// ---- series and assignments ----

export const ImportanceScope = z.enum(['activity', 'none']);
export const AddressRule = z.object({
  network: z
    .string()
    .max(64)
    .regex(/^(\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?|[0-9a-fA-F:]+(\/\d{1,3})?)$/, 'an IPv4 or IPv6 address or CIDR network'),
  note: z.string().max(200).optional(),
});

export const SeriesProblem = z.object({
  id: z.string(),
  seriesId: z.string(),
  problemId: z.string(),
  problemSlug: z.string(),
  problemName: z.string(),
  slug: z.string(),
  name: z.string(),
  order: z.number().int(),
  pinnedProblemVersionId: z.string().optional(),
  pinnedVersion: z.number().int().optional(),
  currentVersion: z.number().int(),
  hasPackage: z.boolean(),
  submissionCount: z.number().int(),
  config: z.record(z.string(), z.unknown()).optional(),
  spec: z.record(z.string(), z.unknown()).optional(),
  props: z.record(z.string(), z.unknown()).optional(),
  maxPoints: z.number().int().optional(),
  maxUploadBytes: z.number().int().optional(),
  maxAttachments: z.number().int().optional(),
  maxSubmissions: z.number().int().optional(),
});
export type SeriesProblem = z.infer<typeof SeriesProblem>;

export const Series = z.object({
  id: z.string(),
  activityId: z.string(),
  slug: z.string(),
  name: z.string(),
  order: z.number().int(),
  startDate: Timestamp.optional(),
  endDate: Timestamp.optional(),
  isOpen: z.boolean(),
  pausedAt: Timestamp.optional(),
  hideProblemsWhilePaused: z.boolean(),
  revealProblemCount: z.boolean(),
  rankingFreezeAt: Timestamp.optional(),
  rankingRevealAt: Timestamp.optional(),
  rankingVisibleFrom: Timestamp.optional(),
  rankingVisibleTo: Timestamp.optional(),
  importance: z.number().int(),
  importanceScope: ImportanceScope,
  addressRules: z.array(AddressRule),
  restrictionsEnabled: z.boolean(),
  runnerTags: z.array(z.string()),
  matchingRunners: z.number().int(),
  problems: z.array(SeriesProblem),
});
export type Series = z.infer<typeof Series>;

/** Writable series members. On update an absent member keeps its value and null clears it. */
const seriesWritable = {
  startDate: ActivityTimeInput.nullable().optional(),
  endDate: ActivityTimeInput.nullable().optional(),
  revealProblemCount: z.boolean().optional(),
  rankingFreezeAt: ActivityTimeInput.nullable().optional(),
  rankingRevealAt: ActivityTimeInput.nullable().optional(),
  rankingVisibleFrom: ActivityTimeInput.nullable().optional(),
  rankingVisibleTo: ActivityTimeInput.nullable().optional(),
  importance: z.number().int().min(0).max(1000).optional(),
  importanceScope: ImportanceScope.optional(),
  addressRules: z.array(AddressRule).max(100).optional(),
  restrictionsEnabled: z.boolean().optional(),
  runnerTags: RunnerTags.optional(),
};
export const CreateSeriesRequest = z.object({ slug: Slug, name: Name, ...seriesWritable });
export const UpdateSeriesRequest = z.object({ slug: Slug.optional(), name: Name.optional(), ...seriesWritable });
export const ShiftRequest = z.object({ minutes: z.number().int().min(-525_600).max(525_600) });
export const PauseRequest = z.object({ hideProblems: z.boolean() });
export const ResumeRequest = z.object({ extendEnd: z.boolean() });
export const OrderRequest = z.object({ orderedIds: z.array(Uuid).max(500) });

const assignmentWritable = {
  name: Name.nullable().optional(),
  pinnedProblemVersionId: Uuid.nullable().optional().meta({ description: 'A version of the problem; absent or null follows the newest' }),
  config: Props.nullable().optional(),
  spec: Props.nullable().optional(),
  props: Props.nullable().optional(),
  maxPoints: Limit.max(1_000_000).nullable().optional(),
  maxUploadBytes: Limit.max(128 * 1024 * 1024).nullable().optional(),
  maxAttachments: Limit.max(100).nullable().optional(),
  maxSubmissions: Limit.max(100_000).nullable().optional(),
};
export const CreateAssignmentRequest = z.object({ problemId: Uuid, slug: Slug.optional().meta({ description: "Defaults to the problem's slug" }), ...assignmentWritable });
export const UpdateAssignmentRequest = z.object({ problemId: Uuid, slug: Slug, ...assignmentWritable });

export const ProblemStatus = z.enum(['untouched', 'attempted', 'partial', 'solved']);

export const ParticipantProblemSummary = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  order: z.number().int(),
  status: ProblemStatus,
  bestScore: z.number().optional(),
  maxScore: z.number().optional(),
  attempts: z.number().int(),
});

/** What a participant sees of a series: problems only once it has opened (decisions §7, §9). */
export const ParticipantSeries = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  order: z.number().int(),
  startDate: Timestamp.optional(),
  endDate: Timestamp.optional(),
  isOpen: z.boolean(),
  pausedAt: Timestamp.optional(),
  rankingVisibleFrom: Timestamp.optional(),
  rankingVisibleTo: Timestamp.optional(),
  rankingFreezeAt: Timestamp.optional().meta({
    description: 'From then on the ranking hides new results from participants, until rankingRevealAt (extension: contest clocks show the freeze)',
  }),
  rankingRevealAt: Timestamp.optional().meta({ description: 'When a frozen ranking shows every result again (extension)' }),
  problemCount: z.number().int().optional(),
  problems: z.array(ParticipantProblemSummary).optional(),
});
export type ParticipantSeries = z.infer<typeof ParticipantSeries>;

/** A language of the table as participants choose it: its id for props.language, and the file extensions that name it. */
export const LanguageChoice = z.object({ id: z.string(), name: z.string(), extensions: z.array(z.string()) });
export type LanguageChoice = z.infer<typeof LanguageChoice>;

export const ParticipantProblem = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  type: z.string(),
  seriesId: z.string(),
  seriesSlug: z.string(),
  statements: z.array(ProblemVersionContentItem),
  attachments: z.array(z.object({ name: z.string(), fileId: z.string(), mimeType: z.string(), sizeBytes: z.number().int(), sha256: z.string() })),
  timeLimitSeconds: z.number().optional().meta({ description: 'Effective: the assignment or package figure, capped by the instance maximum' }),
  memoryMiB: z.number().optional().meta({ description: 'Effective, as timeLimitSeconds' }),
  outputMiB: z.number().optional().meta({ description: 'Effective, as timeLimitSeconds' }),
  languages: z.array(z.string()).optional().meta({ description: "The assignment's config.languages, when it names a list" }),
  allowedLanguages: z.array(LanguageChoice).meta({
    description:
      'The languages a submission here may use: those of the language table that config.languages allows and some approved runner matching the assignment reported (while no such runner reported its languages, every one); a submission in another is refused with 422 submission.language',
  }),
  maxUploadBytes: z.number().int(),
  maxAttachments: z.number().int(),
  maxSubmissions: z.number().int().optional(),
  submissionsLeft: z.number().int().optional(),
  canSubmit: z.boolean(),
  status: ProblemStatus,
  bestScore: z.number().optional(),
  maxScore: z.number().optional(),
  attempts: z.number().int(),
  maxPoints: z.number().int().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  spec: z.record(z.string(), z.unknown()).meta({
    description: "The assignment's spec, with `languages` set to the ids of allowedLanguages (the list a client's language select offers)",
  }),
  props: z.record(z.string(), z.unknown()).optional(),
});
export type ParticipantProblem = z.infer<typeof ParticipantProblem>;
