import { z } from 'zod';
import { defineOperation } from '../operation.js';
import {
  AnnouncementRequest,
  AnswerRequest,
  AskQuestionRequest,
  CannedAnswers,
  OwnQuestionsQuery,
  Question,
  QuestionsQuery,
} from '../schemas/questions.js';
import { PublishedRequest } from '../schemas/content.js';
import { Uuid, paged } from '../wire.js';

const TAG = 'Manager questions';
const P = 'Participant questions';
const IdParam = z.object({ id: Uuid });
const ActivityParam = z.object({ idOrSlug: z.string() });

export const listQuestions = defineOperation({
  id: 'listQuestions',
  method: 'GET',
  path: '/questions',
  tag: TAG,
  summary: 'Questions and announcements of the activities where the caller holds question:read:all, newest first',
  description: 'Every filter applies before paging. `search` matches the topic, the body, the answer and the asker\'s login or name.',
  auth: 'user',
  query: QuestionsQuery,
  response: paged(Question),
  status: 200,
  errors: ['forbidden', 'validation_failed'],
  permission: 'question:read:all',
});

export const answerQuestion = defineOperation({
  id: 'answerQuestion',
  method: 'POST',
  path: '/questions/{id}/answer',
  tag: TAG,
  summary: 'Answer a question (or change the answer); questionAnswered goes to the asker, and to every reader when it is published',
  auth: 'user',
  params: IdParam,
  body: AnswerRequest,
  response: Question,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed', 'question.isAnnouncement', 'questions.disabled'],
  permission: 'question:answer',
});

export const setQuestionPublished = defineOperation({
  id: 'setQuestionPublished',
  method: 'POST',
  path: '/questions/{id}/published',
  tag: TAG,
  summary: 'Publish a question with its answer to every participant, or withdraw it; questionPublished tells them',
  description: 'An unanswered question cannot be published (409 question.unanswered). Announcements are published (question:publish or announcement:create).',
  auth: 'user',
  params: IdParam,
  body: PublishedRequest,
  response: Question,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed', 'question.unanswered', 'questions.disabled'],
  permission: 'question:publish',
});

export const deleteQuestion = defineOperation({
  id: 'deleteQuestion',
  method: 'DELETE',
  path: '/questions/{id}',
  tag: TAG,
  summary: 'Delete a question (question:answer) or an announcement (announcement:create)',
  auth: 'user',
  params: IdParam,
  status: 204,
  errors: ['forbidden', 'not_found'],
  permission: 'question:answer',
});

export const listOwnQuestions = defineOperation({
  id: 'listOwnQuestions',
  method: 'GET',
  path: '/activities/{idOrSlug}/questions',
  tag: P,
  summary: "The caller's own questions and the published ones and announcements (every one with question:read:all), newest first",
  auth: 'user',
  params: ActivityParam,
  query: OwnQuestionsQuery,
  response: paged(Question),
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed', 'questions.disabled'],
  permission: 'question:read:own',
  extension: true,
});

export const askQuestion = defineOperation({
  id: 'askQuestion',
  method: 'POST',
  path: '/activities/{idOrSlug}/questions',
  tag: P,
  summary: 'Ask about the activity, a series or a problem (problemId: the assignment id); questionChanged tells the staff',
  auth: 'user',
  params: ActivityParam,
  body: AskQuestionRequest,
  response: Question,
  status: 201,
  errors: ['forbidden', 'not_found', 'validation_failed', 'questions.disabled', 'activity.archived'],
  permission: 'question:create',
  extension: true,
});

export const markQuestionRead = defineOperation({
  id: 'markQuestionRead',
  method: 'POST',
  path: '/activities/{idOrSlug}/questions/{id}/read',
  tag: P,
  summary: 'Mark a question or announcement read by the caller (idempotent)',
  auth: 'user',
  params: z.object({ idOrSlug: z.string(), id: Uuid }),
  status: 204,
  errors: ['not_found', 'questions.disabled'],
  permission: 'question:read:own',
  extension: true,
});

export const createAnnouncement = defineOperation({
  id: 'createAnnouncement',
  method: 'POST',
  path: '/activities/{idOrSlug}/announcements',
  tag: P,
  summary: 'Announce something to every member, about the activity, a series or a problem (problemId: the assignment id); published at once',
  auth: 'user',
  params: ActivityParam,
  body: AnnouncementRequest,
  response: Question,
  status: 201,
  errors: ['forbidden', 'not_found', 'validation_failed', 'activity.archived'],
  permission: 'announcement:create',
  extension: true,
});

export const getCannedAnswers = defineOperation({
  id: 'getCannedAnswers',
  method: 'GET',
  path: '/instance/canned-answers',
  tag: 'Instance settings',
  summary: 'The canned answers staff pick from when answering questions',
  auth: 'user',
  response: CannedAnswers,
  status: 200,
  errors: [],
  extension: true,
});

export const setCannedAnswers = defineOperation({
  id: 'setCannedAnswers',
  method: 'PUT',
  path: '/instance/canned-answers',
  tag: 'Instance settings',
  summary: 'Replace the canned answers',
  auth: 'user',
  body: CannedAnswers,
  response: CannedAnswers,
  status: 200,
  errors: ['forbidden', 'validation_failed'],
  permission: 'instance:update',
  extension: true,
});
