import {
  ApiError,
  clampPaging,
  DEFAULT_CANNED_ANSWERS,
  forbidden,
  notFound,
  type CannedAnswers,
  type OperationInput,
  type ops,
  type Page,
  type Permission,
  type Question,
} from '@judge/contract';
import type { OwnQuestionsQuery, QuestionsQuery } from '@judge/contract';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { Outbox } from '../../db/transactor.js';
import { event, type Audience } from '../../events/bus.js';
import { readActivity, requireNotArchived, visibleActivity, type ActivityRow } from '../policy/index.js';
import type { Deps } from '../../services.js';
import { iso, newId, statements } from '../../util.js';
import { likePattern, QUESTION_SELECT, toQuestion, type QuestionRow } from './queries.js';

type AskInput = OperationInput<typeof ops.askQuestion>['body'];
type ListQuery = z.output<typeof QuestionsQuery>;
type OwnQuery = z.output<typeof OwnQuestionsQuery>;

const CANNED_ROW = 1;

/** Refuses everything about questions where the activity switched them off. */
function requireModule(a: ActivityRow): void {
  if (!a.modules.questions) throw ApiError.of('questions.disabled', 'Questions are switched off in this activity');
}

/**
 * Questions and announcements (decisions §9, interface "Manager questions"): participants ask and
 * read their own and the published ones; staff answer, publish, withdraw and delete; every write
 * tells the staff (questionChanged) and the participants it concerns.
 */
export class QuestionsService {
  private readonly st: ReturnType<typeof statements>;

  constructor(private readonly d: Deps) {
    this.st = statements(d.sqlite);
  }

  private row(id: string, me: string): QuestionRow | undefined {
    return this.st<[{ id: string; me: string }], QuestionRow>(`${QUESTION_SELECT} WHERE q.id = @id`).get({ id, me });
  }

  private has(userId: string, key: Permission, activityId: string): boolean {
    return this.d.permissions.has(userId, key, activityId);
  }

  /** The activity of a participant call: visible, a member's (or staff's), questions on. */
  private async participantActivity(actor: Actor, idOrSlug: string, key: Permission): Promise<ActivityRow> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    this.d.permissions.require(actor, key, a.id);
    requireModule(a);
    return a;
  }

  /** A question a member of staff acts on with `key`: 404 unless they may read every question there. */
  private async staffQuestion(actor: Actor, id: string, key: Permission): Promise<{ q: QuestionRow; a: ActivityRow }> {
    const q = this.row(id, actor.userId);
    if (!q || !this.has(actor.userId, 'question:read:all', q.activity_id)) throw notFound('question');
    const a = (await readActivity(this.d, q.activity_id))!;
    this.d.permissions.require(actor, key, a.id);
    requireModule(a);
    return { q, a };
  }

  private view(q: QuestionRow, viewer: string): Question {
    return toQuestion(q, q.author_user_id === viewer || this.has(viewer, 'question:read:all', q.activity_id));
  }

  /** The manager's list: every filter in SQL, so paging counts only what matches. */
  async list(actor: Actor, q: ListQuery): Promise<Page<Question>> {
    let ids: string[];
    if (q.activityId) {
      const a = await readActivity(this.d, q.activityId);
      if (!a) return { items: [], total: 0, ...clampPaging(q) };
      this.d.permissions.require(actor, 'question:read:all', a.id);
      ids = [a.id];
    } else {
      const all = this.st<[], { id: string }>('SELECT id FROM activities').all();
      ids = all.map((r) => r.id).filter((id) => this.has(actor.userId, 'question:read:all', id));
      if (!ids.length && !this.d.permissions.holdsAnywhere(actor.userId, 'question:read:all')) throw forbidden('question:read:all');
    }
    const where = [
      'q.activity_id IN (SELECT value FROM json_each(@ids))',
      '(@series IS NULL OR q.series_id = @series)',
      '(@kind IS NULL OR q.kind = @kind)',
      "(@unanswered = 0 OR (q.kind = 'question' AND q.answered_at IS NULL))",
      `(@search IS NULL OR q.topic LIKE @search ESCAPE '\\' OR q.body LIKE @search ESCAPE '\\' OR q.answer_body LIKE @search ESCAPE '\\'
        OR au.username LIKE @search ESCAPE '\\' OR (COALESCE(au.first_name, '') || ' ' || COALESCE(au.last_name, '')) LIKE @search ESCAPE '\\')`,
    ].join(' AND ');
    const params = {
      ids: JSON.stringify(ids),
      series: q.seriesId ?? null,
      kind: q.kind ?? null,
      unanswered: q.unansweredOnly ? 1 : 0,
      search: q.search ? likePattern(q.search) : null,
      me: actor.userId,
    };
    return this.page(where, params, q, actor.userId);
  }

  private page(where: string, params: Record<string, unknown>, q: { page?: number | undefined; pageSize?: number | undefined }, viewer: string): Page<Question> {
    const { page, pageSize } = clampPaging(q);
    const from = QUESTION_SELECT.slice(QUESTION_SELECT.indexOf('FROM questions'));
    const total = this.st<[Record<string, unknown>], { n: number }>(`SELECT count(*) AS n ${from} WHERE ${where}`).get(params)!.n;
    const rows = this.st<[Record<string, unknown>], QuestionRow>(`${QUESTION_SELECT} WHERE ${where} ORDER BY q.created_at DESC, q.id DESC LIMIT @limit OFFSET @offset`).all({
      ...params,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { items: rows.map((r) => this.view(r, viewer)), total, page, pageSize };
  }

  /** A participant's list: own, published and announcements (everything with question:read:all). */
  async listOwn(actor: Actor, idOrSlug: string, q: OwnQuery): Promise<Page<Question>> {
    const a = await this.participantActivity(actor, idOrSlug, 'question:read:own');
    const where = [
      'q.activity_id = @activity',
      '(@all = 1 OR q.is_published = 1 OR q.author_user_id = @me)',
      '(@series IS NULL OR q.series_id = @series)',
      '(@kind IS NULL OR q.kind = @kind)',
      `(@search IS NULL OR q.topic LIKE @search ESCAPE '\\' OR q.body LIKE @search ESCAPE '\\' OR q.answer_body LIKE @search ESCAPE '\\')`,
    ].join(' AND ');
    const params = {
      activity: a.id,
      all: this.has(actor.userId, 'question:read:all', a.id) ? 1 : 0,
      series: q.seriesId ?? null,
      kind: q.kind ?? null,
      search: q.search ? likePattern(q.search) : null,
      me: actor.userId,
    };
    return this.page(where, params, q, actor.userId);
  }

  /** The series and assignment a question or announcement is about, checked to lie in the activity. */
  private subject(a: ActivityRow, body: { seriesId?: string | undefined; problemId?: string | undefined }): { seriesId: string | null; seriesProblemId: string | null } {
    if (body.problemId) {
      const sp = this.st<[string, string], { series_id: string }>('SELECT series_id FROM series_problems WHERE id = ? AND activity_id = ?').get(body.problemId, a.id);
      if (!sp || (body.seriesId && body.seriesId !== sp.series_id)) throw ApiError.of('validation_failed', 'No such problem in this activity', { problemId: ['no such problem in this activity'] });
      return { seriesId: sp.series_id, seriesProblemId: body.problemId };
    }
    if (body.seriesId) {
      const s = this.st<[string, string], { id: string }>('SELECT id FROM series WHERE id = ? AND activity_id = ?').get(body.seriesId, a.id);
      if (!s) throw ApiError.of('validation_failed', 'No such series in this activity', { seriesId: ['no such series in this activity'] });
    }
    return { seriesId: body.seriesId ?? null, seriesProblemId: null };
  }

  private insert(out: Outbox, a: ActivityRow, actor: Actor, kind: 'question' | 'announcement', body: AskInput): QuestionRow {
    const id = newId();
    const { seriesId, seriesProblemId } = this.subject(a, body);
    this.st('INSERT INTO questions (id, activity_id, kind, topic, body, author_user_id, series_id, series_problem_id, is_published, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      id,
      a.id,
      kind,
      body.topic,
      body.body,
      actor.userId,
      seriesId,
      seriesProblemId,
      kind === 'announcement' ? 1 : 0,
      iso(this.d.clock.now()),
    );
    const q = this.row(id, actor.userId)!;
    out.emit(event('questionChanged', { activityId: a.id, question: toQuestion(q, true) }, staff(a.id)));
    return q;
  }

  async ask(actor: Actor, idOrSlug: string, body: AskInput): Promise<Question> {
    const a = await this.participantActivity(actor, idOrSlug, 'question:create');
    requireNotArchived(a);
    return this.d.tx.run((out) => this.view(this.insert(out, a, actor, 'question', body), actor.userId));
  }

  async announce(actor: Actor, idOrSlug: string, body: AskInput): Promise<Question> {
    const a = await this.participantActivity(actor, idOrSlug, 'announcement:create');
    requireNotArchived(a);
    return this.d.tx.run((out) => {
      const q = this.insert(out, a, actor, 'announcement', body);
      out.emit(event('announcementPublished', { activityId: a.id, question: toQuestion({ ...q, is_read: 0 }, false) }, members(a.id)));
      return this.view(q, actor.userId);
    });
  }

  async answer(actor: Actor, id: string, body: { body: string; publish?: boolean | undefined }): Promise<Question> {
    const { q, a } = await this.staffQuestion(actor, id, 'question:answer');
    if (q.kind === 'announcement') throw ApiError.of('question.isAnnouncement', 'An announcement is not answered');
    if (body.publish) this.d.permissions.require(actor, 'question:publish', a.id);
    return this.d.tx.run((out) => {
      const published = body.publish ? 1 : q.is_published;
      this.st('UPDATE questions SET answer_body = ?, answer_user_id = ?, answered_at = ?, is_published = ? WHERE id = ?').run(body.body, actor.userId, iso(this.d.clock.now()), published, id);
      const after = this.row(id, actor.userId)!;
      out.emit(event('questionChanged', { activityId: a.id, question: toQuestion(after, true) }, staff(a.id)));
      // published: one frame for every reader, the asker among them; else the asker's own view
      if (published) out.emit(event('questionAnswered', { activityId: a.id, question: toQuestion({ ...after, is_read: 0 }, false) }, readers(a.id, after.author_user_id)));
      else if (after.author_user_id) {
        const forAsker = this.row(id, after.author_user_id)!;
        out.emit(event('questionAnswered', { activityId: a.id, question: toQuestion(forAsker, true) }, { kind: 'users', userIds: [after.author_user_id] }));
      }
      if (published && !q.is_published) out.emit(event('questionPublished', { activityId: a.id, question: toQuestion({ ...after, is_read: 0 }, false) }, readers(a.id, after.author_user_id)));
      return this.view(after, actor.userId);
    });
  }

  async setPublished(actor: Actor, id: string, published: boolean): Promise<Question> {
    const q0 = this.row(id, actor.userId);
    const key: Permission = q0?.kind === 'announcement' && q0 && !this.has(actor.userId, 'question:publish', q0.activity_id) ? 'announcement:create' : 'question:publish';
    const { q, a } = await this.staffQuestion(actor, id, key);
    if (published && q.kind === 'question' && !q.answered_at) throw ApiError.of('question.unanswered', 'Answer the question before publishing it');
    return this.d.tx.run((out) => {
      this.st('UPDATE questions SET is_published = ? WHERE id = ?').run(published ? 1 : 0, id);
      const after = this.row(id, actor.userId)!;
      out.emit(event('questionChanged', { activityId: a.id, question: toQuestion(after, true) }, staff(a.id)));
      const audience = readers(a.id, after.author_user_id);
      if (published) out.emit(event('questionPublished', { activityId: a.id, question: toQuestion({ ...after, is_read: 0 }, false) }, audience));
      else if (q.is_published) out.emit(event('questionPublished', { activityId: a.id, withdrawnId: id }, audience));
      return this.view(after, actor.userId);
    });
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const q0 = this.row(id, actor.userId);
    const { q, a } = await this.staffQuestion(actor, id, q0?.kind === 'announcement' ? 'announcement:create' : 'question:answer');
    this.d.tx.run((out) => {
      this.st('DELETE FROM questions WHERE id = ?').run(id);
      out.emit(event('questionChanged', { activityId: a.id, deletedId: id }, staff(a.id)));
      if (q.is_published) out.emit(event('questionPublished', { activityId: a.id, withdrawnId: id }, readers(a.id, q.author_user_id)));
    });
  }

  /** Idempotent; only what the caller may read can be marked. */
  async markRead(actor: Actor, idOrSlug: string, id: string): Promise<void> {
    const a = await this.participantActivity(actor, idOrSlug, 'question:read:own');
    const q = this.row(id, actor.userId);
    const readable = q && q.activity_id === a.id && (q.is_published === 1 || q.author_user_id === actor.userId || this.has(actor.userId, 'question:read:all', a.id));
    if (!readable) throw notFound('question');
    this.st('INSERT OR IGNORE INTO question_reads (question_id, user_id, read_at) VALUES (?, ?, ?)').run(id, actor.userId, iso(this.d.clock.now()));
  }

  cannedAnswers(): CannedAnswers {
    const row = this.st<[number], { answers: string }>('SELECT answers FROM canned_answers WHERE id = ?').get(CANNED_ROW);
    return { answers: row ? (JSON.parse(row.answers) as string[]) : [...DEFAULT_CANNED_ANSWERS] };
  }

  setCannedAnswers(actor: Actor, body: CannedAnswers): CannedAnswers {
    this.d.permissions.require(actor, 'instance:update');
    this.st('INSERT INTO canned_answers (id, answers, updated_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET answers = excluded.answers, updated_at = excluded.updated_at').run(
      CANNED_ROW,
      JSON.stringify(body.answers),
      iso(this.d.clock.now()),
    );
    return this.cannedAnswers();
  }
}

/** Those told of every question in the activity. */
const staff = (activityId: string): Audience => ({ kind: 'permission', key: 'question:read:all', activityId });
/** Every member who may read the activity's published questions, and the asker whatever they hold. */
const readers = (activityId: string, author: string | null): Audience => ({ kind: 'permission', key: 'question:read:own', activityId, ...(author ? { alsoUsers: [author] } : {}) });
/** Every member of the activity. */
const members = (activityId: string): Audience => ({ kind: 'permission', key: 'activity:read', activityId });
