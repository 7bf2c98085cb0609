import { z } from 'zod';
import { Props, QueryBoolean, Timestamp, Uuid, freeForm } from '../wire.js';
import { RankingType, RunnerTags, TypeTag } from './content.js';

// ---- submissions ----

/** submission and attempt `state` (decisions §6); a submission's is its newest attempt's. */
export const SubmissionState = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type SubmissionState = z.infer<typeof SubmissionState>;

export const SubmissionFile = z.object({
  name: z.string(),
  fileName: z.string(),
  language: z.string().optional(),
  fileId: z.string(),
  sha256: z.string(),
  sizeBytes: z.number().int(),
});
export type SubmissionFile = z.infer<typeof SubmissionFile>;

/**
 * A submission as lists show it. `score` and `maxScore` are rescaled to the assignment's
 * `maxPoints` when it has them (decisions §9), on every surface.
 */
export const SubmissionSummary = z.object({
  id: z.string(),
  activityId: z.string(),
  activitySlug: z.string(),
  seriesId: z.string(),
  seriesName: z.string(),
  seriesProblemId: z.string(),
  problemSlug: z.string(),
  problemName: z.string(),
  userId: z.string(),
  userName: z.string(),
  submittedAt: Timestamp,
  props: z.record(z.string(), z.unknown()).optional(),
  language: z.string().optional().meta({ description: "The language's id: props.language, else the one its files' extensions give (extension)" }),
  languageName: z.string().optional().meta({ description: "The language's name as the server's language table gives it (extension)" }),
  state: SubmissionState,
  verdict: z.string().optional(),
  score: z.number().optional(),
  maxScore: z.number().optional(),
  attempts: z.number().int(),
  excluded: z.boolean(),
  progress: z
    .object({ done: z.number().int(), total: z.number().int() })
    .optional()
    .meta({ description: 'While the newest attempt runs: the test cases judged so far of all, as the runner last reported (extension)' }),
});
export type SubmissionSummary = z.infer<typeof SubmissionSummary>;

export const Attempt = z.object({
  id: z.string(),
  attempt: z.number().int(),
  state: SubmissionState,
  createdAt: Timestamp.meta({ description: 'When the attempt was queued (extension)' }),
  startedAt: Timestamp.optional(),
  finishedAt: Timestamp.optional(),
  runnerName: z.string().optional(),
  verdict: z.string().optional().meta({ description: 'extension' }),
  score: z.number().optional().meta({ description: 'Rescaled like the submission (extension)' }),
  maxScore: z.number().optional().meta({ description: 'extension' }),
  failureReason: z.string().optional().meta({ description: 'Why the attempt failed or was given up (extension; managers only)' }),
  files: z.array(SubmissionFile),
});
export type Attempt = z.infer<typeof Attempt>;

export const SubmissionDetail = SubmissionSummary.extend({
  problemType: z.string(),
  ipAddress: z.string().optional(),
  sessionId: z.string().optional(),
  deviceId: z.string().optional(),
  excludedAt: Timestamp.optional(),
  excludedBy: z.string().optional(),
  exclusionReason: z.string().optional(),
  attemptList: z.array(Attempt).meta({ description: 'Newest first' }),
  files: z.array(SubmissionFile),
});
export type SubmissionDetail = z.infer<typeof SubmissionDetail>;

/** The multipart parts of a participant's submission (decisions §9). */
export const SubmitForm = z.object({
  file: z
    .string()
    .meta({ format: 'binary', description: "A source file; repeat the part for several files (up to the assignment's maxAttachments, each a plain file name, no two alike); or send code and fileName" })
    .optional(),
  code: z.string().optional().meta({ description: 'Pasted source, stored as UTF-8 with LF line breaks (multipart sends them as CRLF); sha256 is of those bytes' }),
  fileName: z.string().optional().meta({ description: 'The file name of pasted code (its extension names the language)' }),
  props: z.string().optional().meta({ description: 'JSON object as text, e.g. {"language":"cpp"}' }),
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}(\s*,\s*[0-9a-fA-F]{64})*$/)
    .meta({ description: 'SHA-256 of the stored bytes; with several file parts, one digest per part in their order, comma-separated' }),
  deviceId: z.string().max(128).optional().meta({ description: "An identifier the client keeps for its device (recorded, shown to managers)" }),
});

/** A time in a query: an ISO 8601 date and time with its offset (Z or ±hh:mm). */
const QueryTime = z.iso.datetime({ offset: true });

export const OwnSubmissionsQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  seriesProblemId: Uuid.optional(),
});

export const SubmissionsQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  activityId: Uuid.optional(),
  seriesId: Uuid.optional(),
  seriesProblemId: Uuid.optional(),
  userId: z.string().max(64).optional(),
  state: SubmissionState.optional(),
  verdict: z.string().max(64).optional(),
  search: z.string().max(200).optional().meta({ description: "Part of the author's login or name, or of the problem's slug or name" }),
  excluded: QueryBoolean.optional().meta({ description: 'Only excluded (true) or only counted (false) submissions (extension)' }),
  submittedFrom: QueryTime.optional().meta({ description: 'Only submissions made at or after this time (extension)' }),
  submittedBefore: QueryTime.optional().meta({ description: 'Only submissions made before this time (extension)' }),
});

export const ExcludedRequest = z.object({
  excluded: z.boolean(),
  reason: z.string().trim().max(500).optional().meta({ description: 'Why it is excluded; kept as exclusionReason' }),
});

// ---- runners ----

export const RunnerState = z.enum(['pendingApproval', 'approved', 'revoked']);

/**
 * What a runner is doing now (extension): the newest job it holds, for the staff who watch the
 * runners. Submissions, trials and sample runs are all work a runner holds under a lease.
 */
export const RunnerCurrentJob = z.object({
  kind: z.enum(['submission', 'trial', 'sampleRun']),
  id: z.string().meta({ description: 'The job (attempt), trial or sample run id' }),
  since: Timestamp.optional().meta({ description: 'When the runner claimed it' }),
  submissionId: z.string().optional().meta({ description: 'kind submission: the submission it judges' }),
  attempt: z.number().int().optional().meta({ description: 'kind submission: which judging of the submission (2 and up: a rejudge)' }),
  activityId: z.string().optional(),
  activitySlug: z.string().optional(),
  activityName: z.string().optional(),
  problemSlug: z.string().optional().meta({ description: "The assignment's slug (kind submission or sampleRun)" }),
  problemName: z.string().optional(),
  progress: z.object({ done: z.number().int(), total: z.number().int().optional() }).optional().meta({ description: 'kind submission: tests judged so far, as the runner reported' }),
});
export type RunnerCurrentJob = z.infer<typeof RunnerCurrentJob>;

export const Runner = z.object({
  id: z.string(),
  name: z.string(),
  state: RunnerState,
  fingerprint: z.string(),
  problemTypes: z.array(z.string()),
  tags: z.array(z.string()),
  address: z.string().optional(),
  version: z.string().optional(),
  registeredAt: Timestamp,
  approvedAt: Timestamp.optional(),
  revokedAt: Timestamp.optional(),
  revokedReason: z.string().optional(),
  lastSeenAt: Timestamp.optional(),
  isConnected: z.boolean().meta({ description: 'Seen within the last 2 minutes' }),
  completedJobs: z.number().int(),
  languages: z.array(z.string()).optional().meta({ description: 'The languages it reported at its last authentication; absent when it reported none' }),
  currentJobId: z.string().optional().meta({ description: 'The job (attempt) it judges now, if it judges a submission' }),
  currentJob: RunnerCurrentJob.optional().meta({ description: 'What it holds now: a submission, a trial or a sample run; absent when idle' }),
  files: z.array(z.object({ name: z.string(), fileId: z.string(), sizeBytes: z.number().int(), sha256: z.string() })).meta({ description: 'Files the runner attached to itself' }),
});
export type Runner = z.infer<typeof Runner>;

export const RunnersQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  state: RunnerState.optional(),
  search: z.string().max(200).optional(),
});
export const RevokeRunnerRequest = z.object({ reason: z.string().trim().max(500).optional() });
export const RunnerTagsRequest = z.object({ tags: RunnerTags });

export const RegisterRunnerRequest = z.object({
  name: z.string().trim().min(1).max(100),
  publicKey: z.string().max(256).meta({ description: 'base64 of the raw 32-byte Ed25519 public key' }),
  problemTypes: z.array(TypeTag).min(1).max(32),
  version: z.string().max(64).optional(),
  tags: RunnerTags.optional().meta({ description: 'Tags of a new runner; afterwards administrators set them' }),
  enrolmentCode: z
    .string()
    .max(64)
    .optional()
    .meta({ description: 'A one-time enrolment code from an administrator (extension): the runner is approved at once, with the name and tags the code carries' }),
});
export const RunnerRegistration = z.object({
  runnerId: z.string(),
  fingerprint: z.string(),
  state: RunnerState,
  name: z.string().optional().meta({ description: 'Only when an enrolment code approved the runner: the name it now has' }),
  tags: z.array(z.string()).optional().meta({ description: 'Only when an enrolment code approved the runner: the tags it now has' }),
});

/** At most a week: a code is meant for the machines being set up now, not as a standing password. */
export const ENROLMENT_CODE_MAX_SECONDS = 7 * 24 * 3600;
export const CreateEnrolmentCodeRequest = z.object({
  name: z.string().trim().min(1).max(100).optional().meta({ description: 'The name a runner enrolled with the code gets' }),
  tags: RunnerTags.optional().meta({ description: 'The tags a runner enrolled with the code gets' }),
  expiresInSeconds: z.number().int().min(60).max(ENROLMENT_CODE_MAX_SECONDS).default(3600),
  uses: z.number().int().min(1).max(1000).default(1).meta({ description: 'How many runners may enrol with it' }),
});
export const EnrolmentCode = z.object({
  id: z.string(),
  name: z.string().optional(),
  tags: z.array(z.string()),
  uses: z.number().int(),
  used: z.number().int(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  lastUsedAt: Timestamp.optional(),
  createdBy: z.string().optional().meta({ description: "The creator's user id; absent once that account is deleted" }),
  createdByName: z.string().optional(),
});
export type EnrolmentCode = z.infer<typeof EnrolmentCode>;
export const CreatedEnrolmentCode = EnrolmentCode.extend({
  code: z.string().meta({ description: 'The code itself: shown this once, the server keeps only its SHA-256' }),
});
export type CreatedEnrolmentCode = z.infer<typeof CreatedEnrolmentCode>;

const Fingerprint = z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256 of the public key');
export const ChallengeRequest = z.object({ fingerprint: Fingerprint });
export const Challenge = z.object({ nonce: z.string(), expiresAt: Timestamp });
export const TokenRequest = z.object({
  fingerprint: Fingerprint,
  nonce: z.string().max(128),
  signature: z.string().max(256).meta({ description: 'base64 Ed25519 signature of the UTF-8 bytes of the nonce as received' }),
  languages: z
    .array(z.string().min(1).max(64))
    .max(200)
    .optional()
    .meta({ description: 'Extension: the language ids (of the language table) this runner has installed; a runner that sends none counts as able to judge any' }),
});
export const RunnerToken = z.object({ token: z.string(), expiresAt: Timestamp });

export const ClaimRequest = z.object({
  leaseSeconds: z.number().int().optional().meta({ description: 'Default 60, clamped to 15..3600' }),
  waitSeconds: z.number().int().min(0).max(30).optional().meta({ description: 'Hold the request open until work arrives (long poll); default 0' }),
  sampleRuns: z.boolean().optional().meta({ description: 'This runner also takes sample runs (claimSampleRun): a long poll that finds no job ends early (204) when a sample run it could take is waiting' }),
});

export const JudgingMaxima = z
  .object({
    timeLimitSeconds: z.number().positive(),
    memoryMiB: z.number().positive(),
    outputMiB: z.number().positive(),
  })
  .meta({
    description:
      "The instance's maxima (its administrator's setting): every limit a runner applies is capped by them. Sent only when they differ from the defaults (60 s, 2048 MiB, 64 MiB), which a runner applies without",
  });
export type JudgingMaxima = z.infer<typeof JudgingMaxima>;

export const ClaimedJob = z.object({
  jobId: z.string(),
  submissionId: z.string(),
  attempt: z.number().int(),
  leaseToken: z.string(),
  leaseExpiresAt: Timestamp,
  problemType: z.string(),
  problemVersionId: z.string(),
  packageFileId: z.string().meta({ description: 'Empty when the version has no package' }),
  packageSha256: z.string(),
  files: z.array(SubmissionFile),
  props: z.record(z.string(), z.unknown()).optional(),
  problemVersionProps: z.record(z.string(), z.unknown()).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  maxima: JudgingMaxima.optional(),
  timeLimitSeconds: z.number().positive().optional().meta({
    description:
      "Extension: the time limit a calibration trial computed for this version, sent only when its package names none; the runner takes it as the package's figure (the assignment's config.timeLimitSeconds still wins, the maxima still cap)",
  }),
});
export type ClaimedJob = z.infer<typeof ClaimedJob>;

const LeaseToken = z.string().min(1).max(128);
export const LeaseRequest = z.object({ leaseToken: LeaseToken, leaseSeconds: z.number().int().optional() });
export const LeaseTokenRequest = z.object({ leaseToken: LeaseToken });
export const ProgressRequest = z.object({ leaseToken: LeaseToken, done: z.number().int().min(0).optional(), total: z.number().int().min(0).optional() });
export const JobLease = z.object({ jobId: z.string(), leaseToken: z.string(), leaseExpiresAt: Timestamp });

const AttachmentName = z.string().min(1).max(64).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash and underscore');
export const ReportRequest = z.object({
  leaseToken: LeaseToken,
  verdict: z.string().min(1).max(64).optional(),
  score: z.number().finite().optional(),
  maxScore: z.number().finite().optional(),
  infrastructureFailure: z.boolean().optional(),
  failureReason: z.string().max(2000).optional(),
  runnerVersion: z.string().max(64).optional(),
  extra: freeForm(2048).optional(),
  props: Props.optional(),
  files: z.array(z.object({ name: AttachmentName, fileId: Uuid })).max(20).optional(),
});
export const ReportResult = z.object({ resultId: z.string(), state: z.enum(['completed', 'failed']), duplicate: z.boolean() });

export const AttachJobFileRequest = z.object({ leaseToken: LeaseToken, fileId: Uuid, name: AttachmentName });
export const AttachRunnerFileRequest = z.object({ fileId: Uuid, name: AttachmentName });

// ---- trials ----

/** What a runner reports of a trial: the table `judgectl problems verify` prints. */
const TRIAL_MEASUREMENT = [
  'JSON text, as the runner measured it: {problem: {name, format, type, interactive}, ok (every example that ran agrees and, when the package',
  'names no time limit, one was computed), timing: {timeLimitSeconds (in force for the verdicts), timeLimitSource (the package file, or',
  '"computed by this trial"), calibrated (the package names none: accepted examples ran under calibrationTimeLimitSeconds), multiplier,',
  'multiplierKey, safetyMargin, safetyMarginKey (problemtools\' rule: limit = max(1, round(slowest accepted test × multiplier)), margin =',
  'max(limit + 1, round(slowest × multiplier × safetyMargin)); a named limit keeps it, margin = limit × safetyMargin), slowestAcceptedMs',
  '(CPU time; when calibrated, the least of the slowest accepted example\'s runs, slowestAcceptedRunsMs?: [ms]), slowestAccepted, suggestedTimeLimitSeconds, tleMarginSeconds, acceptedWithinMargin?, fastestTimeLimitExceededMs?}, submissions: [{path,',
  'expected (its directory under submissions/), language, verdict, score, maxScore?, ok (agrees; null when nothing is expected), why?,',
  'verdicts (count per test verdict), slowestTest, slowestMs (its largest CPU time), timeLimitSeconds, beyondMargin? (time-limit-exceeded',
  'examples: still out of time at the margin), infrastructureFailure?}], notRun: [{path, expected, language?, reason}] (what this runner',
  'could not run and why), errors?: [text], warnings?: [text]}',
].join(' ');

export const TrialState = z.enum(['queued', 'running', 'completed', 'failed']);
export const Trial = z.object({
  id: z.string(),
  activityId: z.string().optional(),
  state: TrialState,
  problemType: z.string(),
  packageFileId: z.string(),
  createdAt: Timestamp,
  startedAt: Timestamp.optional(),
  finishedAt: Timestamp.optional(),
  runnerName: z.string().optional(),
  failureReason: z.string().optional(),
  measurement: z.string().optional().meta({ description: TRIAL_MEASUREMENT }),
});
export type Trial = z.infer<typeof Trial>;
export const CreateTrialRequest = z.object({ problemType: TypeTag, packageFileId: Uuid, activityIdOrSlug: z.string().min(1).max(64).optional() });
export const ClaimedTrial = z.object({
  trialId: z.string(),
  leaseToken: z.string(),
  leaseExpiresAt: Timestamp,
  problemType: z.string(),
  packageFileId: z.string(),
  packageSha256: z.string(),
  maxima: JudgingMaxima.optional(),
});
export const TrialLease = z.object({ trialId: z.string(), leaseToken: z.string(), leaseExpiresAt: Timestamp });
export const TrialReportRequest = z.object({
  leaseToken: LeaseToken,
  measurement: z.string().max(256 * 1024).optional(),
  failureReason: z.string().max(2000).optional(),
});
export const TrialReportResult = z.object({ trialId: z.string(), state: z.enum(['completed', 'failed']), duplicate: z.boolean() });

// ---- ranking ----

export const RankingQuery = z.object({
  seriesId: Uuid.optional().meta({ description: 'Only this series (its own standings)' }),
  view: z
    .enum(['own', 'public'])
    .optional()
    .meta({
      description:
        "Extension. own (default): as the caller may see it. public: as a participant sees it, whatever the caller's permissions: the freeze and the ranking " +
        'windows apply, rows follow scoreVisibility, and no username is given (what a projector in the room may show)',
    }),
});

export const RankingCell = z.object({
  problemId: z.string().meta({ description: 'The assignment id' }),
  attempts: z.number().int().meta({ description: 'Judged submissions counted (icpc: up to and including the first accepted)' }),
  solved: z.boolean(),
  points: z.number().optional(),
  penalty: z.number().int().optional(),
  solvedAt: Timestamp.optional(),
  pending: z.number().int().meta({ description: 'Submissions not judged yet' }),
  frozen: z.number().int().meta({ description: 'Submissions whose results the freeze hides' }),
});
export const RankingRow = z.object({
  rank: z.number().int(),
  userId: z.string(),
  userName: z.string(),
  username: z
    .string()
    .optional()
    .meta({ description: "The participant's login (extension): only to holders of result:read:all in the activity, never in the public view" }),
  solved: z.number().int(),
  penalty: z.number().int().optional(),
  points: z.number().optional(),
  cells: z.array(RankingCell),
});
export const Ranking = z.object({
  rankingType: RankingType,
  frozen: z.boolean().meta({ description: 'Some results are hidden from the caller by a freeze' }),
  problems: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string(), seriesId: z.string(), maxPoints: z.number().optional() })),
  rows: z.array(RankingRow),
});
export type Ranking = z.infer<typeof Ranking>;
export type RankingRow = z.infer<typeof RankingRow>;
export type RankingCell = z.infer<typeof RankingCell>;
