import { z } from 'zod';
import { Timestamp, Uuid } from '../wire.js';

export const PrintoutState = z.enum(['queued', 'claimed', 'resolved']);
export type PrintoutState = z.infer<typeof PrintoutState>;

/** The largest source a printout takes: a few hundred pages of Courier. */
export const PRINTOUT_SOURCE_MAX = 256 * 1024;
/** The most lines a printout prints; a longer source is refused (422 printout.tooLong). */
export const PRINTOUT_LINES_MAX = 5000;
/** The most A4 pages a printout takes (long lines wrap onto rows of about 90 characters, 67 rows a page); more is refused (422 printout.tooLong). */
export const PRINTOUT_PAGES_MAX = 100;

/** A request to print: `groupName` is the requester's first tag (their team or room), when they have one. */
export const Printout = z.object({
  id: z.string(),
  activityId: z.string(),
  activityName: z.string(),
  activitySlug: z.string(),
  requestedByName: z.string(),
  groupName: z.string().optional(),
  title: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  state: PrintoutState,
  requestedAt: Timestamp,
  claimedByName: z.string().optional(),
  claimedAt: Timestamp.optional(),
  claimedByMe: z.boolean(),
  resolvedAt: Timestamp.optional(),
  resolvedByName: z.string().optional(),
  sourceDisposedAt: Timestamp.optional(),
});
export type Printout = z.infer<typeof Printout>;

/** What the configured printing command did with the printout's PDF (extension). */
export const PrintJob = z.object({
  startedAt: Timestamp,
  finishedAt: Timestamp.optional(),
  exitCode: z.number().int().optional(),
  output: z.string().optional().meta({ description: "The command's standard output and error, at most 4 KiB" }),
});

export const PrintoutDetail = z.object({
  printout: Printout,
  timeZone: z.string(),
  problemSlug: z.string().optional(),
  problemName: z.string().optional(),
  source: z.string().meta({ description: 'Empty once the source was disposed' }),
  printJob: PrintJob.optional().meta({ description: 'The configured printing command run on it (extension); to holders of printout:manage' }),
});
export type PrintoutDetail = z.infer<typeof PrintoutDetail>;

const orNone = <T extends z.ZodType>(t: T) => z.preprocess((v) => (v === '' ? undefined : v), t.optional());

/** `state` is a comma-separated list (`queued,claimed`); empty is no filter. */
export const PrintoutsQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  activityId: orNone(Uuid),
  state: z
    .preprocess((v) => (typeof v === 'string' ? (v === '' ? undefined : v.split(',').map((s) => s.trim())) : v), z.array(PrintoutState).optional())
    .meta({ type: 'string', description: 'comma-separated printout states' }),
});

export const OwnPrintoutsQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
});

/** A file's text, or one of the caller's submissions in the activity. */
export const PrintoutRequest = z.union([
  z.object({
    title: z.string().trim().max(200).optional(),
    fileName: z.string().trim().min(1).max(255),
    source: z.string().min(1, 'must not be empty').max(PRINTOUT_SOURCE_MAX),
  }),
  z.object({ title: z.string().trim().max(200).optional(), submissionId: Uuid }),
]);
export type PrintoutRequest = z.infer<typeof PrintoutRequest>;

export const ResolvePrintoutRequest = z.object({ note: z.string().trim().max(1000).optional() });

export const PrintoutActivity = z.object({ id: z.string(), name: z.string(), slug: z.string() });
