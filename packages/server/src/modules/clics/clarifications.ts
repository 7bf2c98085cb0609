import type { clics, Question } from '@judge/contract';
import type { Contest } from './contest.js';
import { clicsTime, contestTime } from './times.js';

/**
 * Clarifications from the judge's questions and announcements (decisions §25): a question is a
 * request from its author's team (`q…`), its answer a reply from the jury (`a…`) to that team, or to
 * everybody once published; an announcement goes to everybody (`n…`). Staff see all; a team its own
 * and what goes to everybody; the public only what goes to everybody. A reply names the question it
 * answers only to those who see that question: who asked a published question stays private.
 */

const idOf = (prefix: 'q' | 'a' | 'n', id: string) => `${prefix}${id.replace(/-/g, '')}`.slice(0, 36);

function textOf(topic: string, body: string): string {
  return topic.trim() && topic.trim() !== body.trim() ? `${topic.trim()}\n${body}` : body;
}

function fromQuestion(c: Contest, q: Question, problems: Map<string, string>, teams: Set<string>): clics.Clarification[] {
  const problem_id = q.seriesProblemId ? (problems.get(q.seriesProblemId) ?? null) : null;
  const at = (time: string) => ({ time: clicsTime(time), contest_time: contestTime(c.start, time) });
  if (q.kind === 'announcement') return [{ id: idOf('n', q.id), from_team_id: null, to_team_id: null, reply_to_id: null, problem_id, text: textOf(q.topic, q.body), ...at(q.createdAt) }];
  const author = q.authorUserId && teams.has(q.authorUserId) ? q.authorUserId : null;
  // a question of somebody who is no team (staff trying the form) is none of the contest's
  if (!author) return [];
  const seesQuestion = c.role === 'admin' || !!c.everyTeam || c.teamId === author;
  const out: clics.Clarification[] = [];
  if (seesQuestion) out.push({ id: idOf('q', q.id), from_team_id: author, to_team_id: null, reply_to_id: null, problem_id, text: textOf(q.topic, q.body), ...at(q.createdAt) });
  if (q.answer && (seesQuestion || q.isPublished)) {
    out.push({
      id: idOf('a', q.id),
      from_team_id: null,
      to_team_id: q.isPublished ? null : author,
      reply_to_id: seesQuestion ? idOf('q', q.id) : null,
      problem_id,
      text: q.answer.body,
      ...at(q.answer.answeredAt),
    });
  }
  return out;
}

export function clarificationsOf(c: Contest, questions: readonly Question[], problems: Map<string, string>, teams: Set<string>): clics.Clarification[] {
  const all = questions.flatMap((q) => fromQuestion(c, q, problems, teams));
  return all.sort((x, y) => (x.time < y.time ? -1 : x.time > y.time ? 1 : x.id < y.id ? -1 : 1));
}
