import type { Question } from '@judge/contract';
import { compact } from '../../util.js';

/** A question with what its view needs from the rows around it. */
export interface QuestionRow {
  id: string;
  activity_id: string;
  activity_slug: string;
  kind: 'question' | 'announcement';
  topic: string;
  body: string;
  author_user_id: string | null;
  author_username: string | null;
  author_first: string | null;
  author_last: string | null;
  series_id: string | null;
  series_name: string | null;
  series_problem_id: string | null;
  problem_slug: string | null;
  problem_name: string | null;
  answer_body: string | null;
  answered_at: string | null;
  answer_username: string | null;
  answer_first: string | null;
  answer_last: string | null;
  is_published: number;
  created_at: string;
  read_count: number;
  is_read: number;
}

/** Every column a view needs; `@me` is the reader whose `isRead` is asked. */
export const QUESTION_SELECT = `
SELECT q.id, q.activity_id, a.slug AS activity_slug, q.kind, q.topic, q.body,
  q.author_user_id, au.username AS author_username, au.first_name AS author_first, au.last_name AS author_last,
  q.series_id, s.name AS series_name, q.series_problem_id, sp.slug AS problem_slug, COALESCE(sp.name, p.name) AS problem_name,
  q.answer_body, q.answered_at, an.username AS answer_username, an.first_name AS answer_first, an.last_name AS answer_last,
  q.is_published, q.created_at,
  (SELECT count(*) FROM question_reads r WHERE r.question_id = q.id) AS read_count,
  EXISTS (SELECT 1 FROM question_reads r WHERE r.question_id = q.id AND r.user_id = @me) AS is_read
FROM questions q
JOIN activities a ON a.id = q.activity_id
LEFT JOIN users au ON au.id = q.author_user_id
LEFT JOIN series s ON s.id = q.series_id
LEFT JOIN series_problems sp ON sp.id = q.series_problem_id
LEFT JOIN problems p ON p.id = sp.problem_id
LEFT JOIN users an ON an.id = q.answer_user_id`;

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
    isPublished: r.is_published === 1,
    readCount: r.read_count,
    isRead: r.is_read === 1,
  }) as Question;
}

/** `LIKE` pattern of a search text, its wildcards taken literally (ESCAPE '\\'). */
export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
