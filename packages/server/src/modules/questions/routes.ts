import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { QuestionsService } from './service.js';

export function questionsRoutes(api: Api, questions: QuestionsService): void {
  api.bind(ops.listQuestions, ({ actor, query }) => questions.list(actor, query));
  api.bind(ops.answerQuestion, ({ actor, params, body }) => questions.answer(actor, params.id, body));
  api.bind(ops.setQuestionPublished, ({ actor, params, body }) => questions.setPublished(actor, params.id, body.published));
  api.bind(ops.deleteQuestion, ({ actor, params }) => questions.delete(actor, params.id));
  api.bind(ops.listOwnQuestions, ({ actor, params, query }) => questions.listOwn(actor, params.idOrSlug, query));
  api.bind(ops.askQuestion, async ({ actor, params, body, ctx }) => {
    const q = await questions.ask(actor, params.idOrSlug, body);
    ctx.set('Location', `/api/v1/activities/${q.activitySlug}/questions/${q.id}`);
    return q;
  });
  api.bind(ops.markQuestionRead, ({ actor, params }) => questions.markRead(actor, params.idOrSlug, params.id));
  api.bind(ops.createAnnouncement, async ({ actor, params, body, ctx }) => {
    const q = await questions.announce(actor, params.idOrSlug, body);
    ctx.set('Location', `/api/v1/activities/${q.activitySlug}/questions/${q.id}`);
    return q;
  });
  api.bind(ops.getCannedAnswers, () => questions.cannedAnswers());
  api.bind(ops.setCannedAnswers, ({ actor, body }) => questions.setCannedAnswers(actor, body));
}
