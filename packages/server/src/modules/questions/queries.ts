import type { Question } from '@judge/contract';
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { activities, problems, questionReads, questions, series, seriesProblems, users } from '../../db/schema.js';
import { portableAlias } from '../../db/portable-alias.js';
import type { Q } from '../../db/storage.js';
import { compact } from '../../util.js';
import { containsFolded } from '../submissions/index.js';

const author = portableAlias(users, 'au');
const answerer = portableAlias(users, 'an');

/** Every column a view needs; `me` is the reader whose `isRead` is asked. */
function questionFields(me: string) {
  return {
    id: questions.id,
    activity_id: questions.activityId,
    activity_slug: activities.slug,
    kind: sql<'question' | 'announcement'>`${questions.kind}`,
    topic: questions.topic,
    body: questions.body,
    author_user_id: questions.authorUserId,
    author_username: author.username,
    author_first: author.firstName,
    author_last: author.lastName,
    series_id: questions.seriesId,
    series_name: series.name,
    series_problem_id: questions.seriesProblemId,
    problem_slug: seriesProblems.slug,
    problem_name: sql<string | null>`coalesce(${seriesProblems.name}, ${problems.name})`,
    answer_body: questions.answerBody,
    answered_at: questions.answeredAt,
    answer_username: answerer.username,
    answer_first: answerer.firstName,
    answer_last: answerer.lastName,
    is_published: questions.isPublished,
    created_at: questions.createdAt,
    read_count: sql<number>`(SELECT count(*) FROM ${questionReads} WHERE ${questionReads.questionId} = ${questions.id})`.mapWith(Number),
    // CASE: SQLite answers EXISTS with 0/1, PostgreSQL with a boolean
    is_read: sql<boolean>`CASE WHEN EXISTS (SELECT 1 FROM ${questionReads} WHERE ${questionReads.questionId} = ${questions.id} AND ${questionReads.userId} = ${me}) THEN 1 ELSE 0 END`.mapWith(
      (v) => Number(v) === 1,
    ),
  };
}

/** The questions matching `where` with everything their views need, in the order given. */
export function selectQuestions(q: Q, me: string, where: SQL | undefined) {
  return q
    .select(questionFields(me))
    .from(questions)
    .innerJoin(activities, eq(activities.id, questions.activityId))
    .leftJoin(author, eq(author.id, questions.authorUserId))
    .leftJoin(series, eq(series.id, questions.seriesId))
    .leftJoin(seriesProblems, eq(seriesProblems.id, questions.seriesProblemId))
    .leftJoin(problems, eq(problems.id, seriesProblems.problemId))
    .leftJoin(answerer, eq(answerer.id, questions.answerUserId))
    .where(where);
}

/** A question with what its view needs from the rows around it. */
export type QuestionRow = Awaited<ReturnType<typeof selectQuestions>>[number];

/** One question as `me` reads it. */
export async function questionRow(q: Q, id: string, me: string): Promise<QuestionRow | undefined> {
  return (await selectQuestions(q, me, eq(questions.id, id)).limit(1))[0];
}

/** One page of the questions matching `where`, newest first, and how many match. */
export async function questionPage(q: Q, me: string, where: SQL | undefined, limit: number, offset: number): Promise<{ rows: QuestionRow[]; total: number }> {
  // the count joins the asker only: the search reads their name, and a left join adds no rows
  const [counted] = await q.select({ n: count() }).from(questions).leftJoin(author, eq(author.id, questions.authorUserId)).where(where);
  const rows = await selectQuestions(q, me, where).orderBy(desc(questions.createdAt), desc(questions.id)).limit(limit).offset(offset);
  return { rows, total: counted?.n ?? 0 };
}

/** The search of the staff's list: the question, its answer, and the asker's login and name. */
export function staffSearch(text: string): SQL | undefined {
  return or(ownSearch(text), containsFolded(text, author.username, sql`coalesce(${author.firstName}, '') || ' ' || coalesce(${author.lastName}, '')`));
}

/** The search of a participant's list: the question and its answer. */
export function ownSearch(text: string): SQL | undefined {
  return containsFolded(text, questions.topic, questions.body, questions.answerBody);
}

/** Unanswered questions only (announcements are never answered). */
export const unanswered = (): SQL | undefined => and(eq(questions.kind, 'question'), sql`${questions.answeredAt} IS NULL`);

function nameOf(username: string | null, first: string | null, last: string | null): string | undefined {
  if (!username) return undefined;
  return [first, last].filter(Boolean).join(' ') || username;
}

/**
 * The record. `withAuthor` is false for what participants read of other people's questions:
 * who asked stays between the asker and the staff.
 */
export function toQuestion(r: QuestionRow, withAuthor: boolean): Question {
  const answerBy = nameOf(r.answer_username, r.answer_first, r.answer_last) ?? 'Staff';
  return compact({
    id: r.id,
    activityId: r.activity_id,
    activitySlug: r.activity_slug,
    kind: r.kind,
    topic: r.topic,
    body: r.body,
    authorUserId: withAuthor ? r.author_user_id : undefined,
    authorName: withAuthor ? nameOf(r.author_username, r.author_first, r.author_last) : undefined,
    createdAt: r.created_at,
    seriesId: r.series_id,
    seriesName: r.series_name,
    seriesProblemId: r.series_problem_id,
    problemSlug: r.problem_slug,
    problemName: r.problem_name,
    answer: r.answer_body !== null && r.answered_at ? { body: r.answer_body, authorName: answerBy, answeredAt: r.answered_at } : undefined,
    isPublished: r.is_published,
    readCount: r.read_count,
    isRead: r.is_read,
  }) as Question;
}
