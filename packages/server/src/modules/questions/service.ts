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
import { and, asc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import { activities, cannedAnswers, questionReads, questions, series, seriesProblems } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { event, type Audience } from '../../events/bus.js';
import { requireNotArchived, visibleActivity, type ActivityRow } from '../policy/index.js';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { ownSearch, questionPage, questionRow, selectQuestions, staffSearch, toQuestion, unanswered, type QuestionRow } from './queries.js';

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
 *
 * On PostgreSQL: each staff action reads the question and decides (answered? published before?)
 * inside its write, whose SERIALIZABLE isolation (retried) keeps two staff acting at once from both
 * seeing the old state; marking read and the canned answers are single upserts (ON CONFLICT).
 */
export class QuestionsService {
  constructor(private readonly d: Deps) {}

  private has(userId: string, key: Permission, activityId: string, q?: Q): Promise<boolean> {
    return this.d.permissions.has(userId, key, activityId, q);
  }

  /** The activity of a participant call: visible, a member's (or staff's), questions on. */
  private async participantActivity(actor: Actor, idOrSlug: string, key: Permission): Promise<ActivityRow> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    await this.d.permissions.require(actor, key, a.id);
    requireModule(a);
    return a;
  }

  /** A question a member of staff acts on with `key`: 404 unless they may read every question there. */
  private async staffQuestion(q: Q, actor: Actor, id: string, key: (row: QuestionRow, q: Q) => Permission | Promise<Permission>): Promise<{ q: QuestionRow; a: ActivityRow }> {
    const row = await questionRow(q, id, actor.userId);
    if (!row || !(await this.has(actor.userId, 'question:read:all', row.activity_id, q))) throw notFound('question');
    const a = (await q.select().from(activities).where(eq(activities.id, row.activity_id)).limit(1))[0]!;
    await this.d.permissions.require(actor, await key(row, q), a.id, q);
    requireModule(a);
    return { q: row, a };
  }

  /** A question as `viewer` sees it; `tq`: the transaction it is read in. */
  private async view(tq: Q, q: QuestionRow, viewer: string): Promise<Question> {
    return toQuestion(q, q.author_user_id === viewer || (await this.has(viewer, 'question:read:all', q.activity_id, tq)));
  }

  /**
   * Every question and announcement of an activity, oldest first, each with its author: unchecked,
   * for an area that decided itself who reads which (the CLICS API, decisions §25).
   */
  async allInActivity(activityId: string): Promise<Question[]> {
    return this.d.tx.read(async (q) => {
      const rows = await selectQuestions(q, '', eq(questions.activityId, activityId)).orderBy(asc(questions.createdAt), asc(questions.id));
      return rows.map((r) => toQuestion(r, true));
    });
  }

  /** The manager's list: every filter in SQL, so paging counts only what matches. */
  async list(actor: Actor, query: ListQuery): Promise<Page<Question>> {
    return this.d.tx.read(async (q) => {
      let ids: string[];
      if (query.activityId) {
        const [a] = await q.select({ id: activities.id }).from(activities).where(eq(activities.id, query.activityId)).limit(1);
        if (!a) return { items: [], total: 0, ...clampPaging(query) };
        await this.d.permissions.require(actor, 'question:read:all', a.id, q);
        ids = [a.id];
      } else {
        const all = await q.select({ id: activities.id }).from(activities);
        const may = await this.d.permissions.of(actor.userId, q);
        ids = all.map((r) => r.id).filter((id) => may.has('question:read:all', id));
        if (!ids.length && !may.holdsAnywhere('question:read:all')) throw forbidden('question:read:all');
      }
      const where = and(
        inArray(questions.activityId, ids),
        query.seriesId ? eq(questions.seriesId, query.seriesId) : undefined,
        query.kind ? eq(questions.kind, query.kind) : undefined,
        query.unansweredOnly ? unanswered() : undefined,
        query.search ? staffSearch(query.search) : undefined,
      );
      return this.page(q, where, query, actor.userId);
    });
  }

  private async page(q: Q, where: SQL | undefined, paging: { page?: number | undefined; pageSize?: number | undefined }, viewer: string): Promise<Page<Question>> {
    const { page, pageSize } = clampPaging(paging);
    const { rows, total } = await questionPage(q, viewer, where, pageSize, (page - 1) * pageSize);
    const may = await this.d.permissions.of(viewer, q);
    const items = rows.map((r) => toQuestion(r, r.author_user_id === viewer || may.has('question:read:all', r.activity_id)));
    return { items, total, page, pageSize };
  }

  /** A participant's list: own, published and announcements (everything with question:read:all). */
  async listOwn(actor: Actor, idOrSlug: string, query: OwnQuery): Promise<Page<Question>> {
    const a = await this.participantActivity(actor, idOrSlug, 'question:read:own');
    const all = await this.has(actor.userId, 'question:read:all', a.id);
    const where = and(
      eq(questions.activityId, a.id),
      all ? undefined : or(eq(questions.isPublished, true), eq(questions.authorUserId, actor.userId)),
      query.seriesId ? eq(questions.seriesId, query.seriesId) : undefined,
      query.kind ? eq(questions.kind, query.kind) : undefined,
      query.search ? ownSearch(query.search) : undefined,
    );
    return this.d.tx.read((q) => this.page(q, where, query, actor.userId));
  }

  /** The series and assignment a question or announcement is about, checked to lie in the activity. */
  private async subject(q: Q, a: ActivityRow, body: { seriesId?: string | undefined; problemId?: string | undefined }): Promise<{ seriesId: string | null; seriesProblemId: string | null }> {
    if (body.problemId) {
      const [sp] = await q
        .select({ seriesId: seriesProblems.seriesId })
        .from(seriesProblems)
        .where(and(eq(seriesProblems.id, body.problemId), eq(seriesProblems.activityId, a.id)))
        .limit(1);
      if (!sp || (body.seriesId && body.seriesId !== sp.seriesId)) throw ApiError.of('validation_failed', 'No such problem in this activity', { problemId: ['no such problem in this activity'] });
      return { seriesId: sp.seriesId, seriesProblemId: body.problemId };
    }
    if (body.seriesId) {
      const [s] = await q
        .select({ id: series.id })
        .from(series)
        .where(and(eq(series.id, body.seriesId), eq(series.activityId, a.id)))
        .limit(1);
      if (!s) throw ApiError.of('validation_failed', 'No such series in this activity', { seriesId: ['no such series in this activity'] });
    }
    return { seriesId: body.seriesId ?? null, seriesProblemId: null };
  }

  private async insert(q: Q, out: Outbox, a: ActivityRow, actor: Actor, kind: 'question' | 'announcement', body: AskInput): Promise<QuestionRow> {
    const id = newId();
    const { seriesId, seriesProblemId } = await this.subject(q, a, body);
    await q.insert(questions).values({
      id,
      activityId: a.id,
      kind,
      topic: body.topic,
      body: body.body,
      authorUserId: actor.userId,
      seriesId,
      seriesProblemId,
      isPublished: kind === 'announcement',
      createdAt: iso(this.d.clock.now()),
    });
    const row = (await questionRow(q, id, actor.userId))!;
    out.emit(event('questionChanged', { activityId: a.id, question: toQuestion(row, true) }, staff(a.id)));
    return row;
  }

  async ask(actor: Actor, idOrSlug: string, body: AskInput): Promise<Question> {
    const a = await this.participantActivity(actor, idOrSlug, 'question:create');
    requireNotArchived(a);
    return this.d.tx.write(async (q, out) => this.view(q, await this.insert(q, out, a, actor, 'question', body), actor.userId));
  }

  async announce(actor: Actor, idOrSlug: string, body: AskInput): Promise<Question> {
    const a = await this.participantActivity(actor, idOrSlug, 'announcement:create');
    requireNotArchived(a);
    return this.d.tx.write(async (q, out) => {
      const row = await this.insert(q, out, a, actor, 'announcement', body);
      out.emit(event('announcementPublished', { activityId: a.id, question: toQuestion({ ...row, is_read: false }, false) }, members(a.id)));
      return this.view(q, row, actor.userId);
    });
  }

  async answer(actor: Actor, id: string, body: { body: string; publish?: boolean | undefined }): Promise<Question> {
    return this.d.tx.write(async (tq, out) => {
      const { q, a } = await this.staffQuestion(tq, actor, id, () => 'question:answer');
      if (q.kind === 'announcement') throw ApiError.of('question.isAnnouncement', 'An announcement is not answered');
      if (body.publish) await this.d.permissions.require(actor, 'question:publish', a.id, tq);
      const published = body.publish ? true : q.is_published;
      await tq
        .update(questions)
        .set({ answerBody: body.body, answerUserId: actor.userId, answeredAt: iso(this.d.clock.now()), isPublished: published })
        .where(eq(questions.id, id));
      const after = (await questionRow(tq, id, actor.userId))!;
      out.emit(event('questionChanged', { activityId: a.id, question: toQuestion(after, true) }, staff(a.id)));
      // published: one frame for every reader, the asker among them; else the asker's own view
      if (published) out.emit(event('questionAnswered', { activityId: a.id, question: toQuestion({ ...after, is_read: false }, false) }, readers(a.id, after.author_user_id)));
      else if (after.author_user_id) {
        const forAsker = (await questionRow(tq, id, after.author_user_id))!;
        out.emit(event('questionAnswered', { activityId: a.id, question: toQuestion(forAsker, true) }, { kind: 'users', userIds: [after.author_user_id] }));
      }
      if (published && !q.is_published) out.emit(event('questionPublished', { activityId: a.id, question: toQuestion({ ...after, is_read: false }, false) }, readers(a.id, after.author_user_id)));
      return this.view(tq, after, actor.userId);
    });
  }

  async setPublished(actor: Actor, id: string, published: boolean): Promise<Question> {
    // an announcement is published by whoever may make one, unless they may publish questions too
    const key = async (row: QuestionRow, q: Q): Promise<Permission> =>
      row.kind === 'announcement' && !(await this.has(actor.userId, 'question:publish', row.activity_id, q)) ? 'announcement:create' : 'question:publish';
    return this.d.tx.write(async (tq, out) => {
      const { q, a } = await this.staffQuestion(tq, actor, id, key);
      if (published && q.kind === 'question' && !q.answered_at) throw ApiError.of('question.unanswered', 'Answer the question before publishing it');
      await tq.update(questions).set({ isPublished: published }).where(eq(questions.id, id));
      const after = (await questionRow(tq, id, actor.userId))!;
      out.emit(event('questionChanged', { activityId: a.id, question: toQuestion(after, true) }, staff(a.id)));
      const audience = readers(a.id, after.author_user_id);
      if (published) out.emit(event('questionPublished', { activityId: a.id, question: toQuestion({ ...after, is_read: false }, false) }, audience));
      else if (q.is_published) out.emit(event('questionPublished', { activityId: a.id, withdrawnId: id }, audience));
      return this.view(tq, after, actor.userId);
    });
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.d.tx.write(async (tq, out) => {
      const { q, a } = await this.staffQuestion(tq, actor, id, (row) => (row.kind === 'announcement' ? 'announcement:create' : 'question:answer'));
      await tq.delete(questions).where(eq(questions.id, id));
      out.emit(event('questionChanged', { activityId: a.id, deletedId: id }, staff(a.id)));
      if (q.is_published) out.emit(event('questionPublished', { activityId: a.id, withdrawnId: id }, readers(a.id, q.author_user_id)));
    });
  }

  /** Idempotent; only what the caller may read can be marked. */
  async markRead(actor: Actor, idOrSlug: string, id: string): Promise<void> {
    const a = await this.participantActivity(actor, idOrSlug, 'question:read:own');
    await this.d.tx.write(async (tq) => {
      const q = await questionRow(tq, id, actor.userId);
      const readable = q && q.activity_id === a.id && (q.is_published || q.author_user_id === actor.userId || (await this.has(actor.userId, 'question:read:all', a.id, tq)));
      if (!readable) throw notFound('question');
      await tq.insert(questionReads).values({ questionId: id, userId: actor.userId, readAt: iso(this.d.clock.now()) }).onConflictDoNothing();
    });
  }

  async cannedAnswers(): Promise<CannedAnswers> {
    const [row] = await this.d.tx.read((q) => q.select({ answers: cannedAnswers.answers }).from(cannedAnswers).where(eq(cannedAnswers.id, CANNED_ROW)).limit(1));
    return { answers: row ? row.answers : [...DEFAULT_CANNED_ANSWERS] };
  }

  async setCannedAnswers(actor: Actor, body: CannedAnswers): Promise<CannedAnswers> {
    await this.d.permissions.require(actor, 'instance:update');
    const row = { id: CANNED_ROW, answers: body.answers, updatedAt: iso(this.d.clock.now()) };
    await this.d.tx.write((q) => q.insert(cannedAnswers).values(row).onConflictDoUpdate({ target: cannedAnswers.id, set: { answers: row.answers, updatedAt: row.updatedAt } }));
    return this.cannedAnswers();
  }
}

/** Those told of every question in the activity. */
const staff = (activityId: string): Audience => ({ kind: 'permission', key: 'question:read:all', activityId });
/** Every member who may read the activity's published questions, and the asker whatever they hold. */
const readers = (activityId: string, author: string | null): Audience => ({ kind: 'permission', key: 'question:read:own', activityId, ...(author ? { alsoUsers: [author] } : {}) });
/** Every member of the activity. */
const members = (activityId: string): Audience => ({ kind: 'permission', key: 'activity:read', activityId });
