import { z } from 'zod';
import { QueryBoolean, Timestamp, Uuid } from '../wire.js';

/** An optional query value where an empty one (`kind=`) means no filter (decisions §2). */
const orNone = <T extends z.ZodType>(t: T) => z.preprocess((v) => (v === '' ? undefined : v), t.optional());

export const QuestionKind = z.enum(['question', 'announcement']);
export type QuestionKind = z.infer<typeof QuestionKind>;

/**
 * A question or an announcement. Participants see the author only of their own questions;
 * `isRead` (extension) says whether the caller marked it read, `readCount` how many did.
 */
export const Question = z.object({
  id: z.string(),
  activityId: z.string(),
  activitySlug: z.string(),
  kind: QuestionKind,
  topic: z.string(),
  body: z.string(),
  authorUserId: z.string().optional(),
  authorName: z.string().optional(),
  createdAt: Timestamp,
  seriesId: z.string().optional(),
  seriesName: z.string().optional(),
  seriesProblemId: z.string().optional(),
  problemSlug: z.string().optional(),
  problemName: z.string().optional(),
  answer: z.object({ body: z.string(), authorName: z.string(), answeredAt: Timestamp }).optional(),
  isPublished: z.boolean(),
  readCount: z.number().int(),
  isRead: z.boolean().meta({ description: 'Whether the caller marked it read (extension)' }),
});
export type Question = z.infer<typeof Question>;

const Topic = z.string().trim().min(1, 'must not be empty').max(200);
const Text = z.string().trim().min(1, 'must not be empty').max(8000);

export const QuestionsQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  activityId: orNone(Uuid),
  seriesId: orNone(Uuid),
  kind: orNone(QuestionKind),
  unansweredOnly: orNone(QueryBoolean),
  search: orNone(z.string().max(200)),
});

export const OwnQuestionsQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  seriesId: orNone(Uuid),
  kind: orNone(QuestionKind),
  search: orNone(z.string().max(200)),
});

/** `problemId` is the assignment (series problem) id, as the peer's client sends it; its series is filled in. */
export const AskQuestionRequest = z.object({
  topic: Topic,
  body: Text,
  seriesId: Uuid.optional(),
  problemId: Uuid.optional(),
});

export const AnnouncementRequest = z.object({
  topic: Topic,
  body: Text,
  seriesId: Uuid.optional(),
  problemId: Uuid.optional(),
});

/** `publish: true` publishes the question with its answer in one step. */
export const AnswerRequest = z.object({ body: Text, publish: z.boolean().optional() });

/** The canned answers staff pick from (instance data, extension). */
export const CannedAnswers = z.object({ answers: z.array(z.string().trim().min(1).max(2000)).max(50) });
export type CannedAnswers = z.infer<typeof CannedAnswers>;
export const DEFAULT_CANNED_ANSWERS = ['Read the statement.', 'No comment.', 'Yes.', 'No.'];
