import type { Question } from '@judge/contract';
import { useMay } from '../../../app/permissions';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { AnswerPanel } from './AnswerForm';
import { DeleteButton, PublishButton } from './QuestionActions';

const STATE_LABEL = {
  open: 'staff.q.state.open',
  answered: 'staff.q.state.answered',
  published: 'staff.q.state.published',
  announcement: 'staff.q.state.announcement',
} as const;

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** What a question is about: the problem, else the series, else the whole activity. */
function about(q: Question, activityName: string | undefined): string {
  return q.problemName ?? q.seriesName ?? activityName ?? q.activitySlug;
}

/** One question or announcement of the queue, with what the reader may do to it. */
export function QuestionItem({ question: q, timeZone = localZone, activityName }: { question: Question; timeZone?: string; activityName?: string }) {
  const t = useT();
  const mayAnswer = useMay(q.activityId, 'question:answer');
  const mayPublish = useMay(q.activityId, 'question:publish');
  const mayAnnounce = useMay(q.activityId, 'announcement:create');
  const isQuestion = q.kind === 'question';
  const state = !isQuestion ? 'announcement' : !q.answer ? 'open' : q.isPublished ? 'published' : 'answered';
  const headingId = `q-${q.id}`;
  return (
    <li className={`card question ${state}`} data-question={q.id} aria-labelledby={headingId}>
      <header>
        <span className={`badge ${state}`}>{t(STATE_LABEL[state])}</span>
        <h2 id={headingId}>{q.topic}</h2>
      </header>
      <p className="question-meta">
        {isQuestion ? t('staff.q.askedBy', { who: q.authorName ?? '?' }) : t('staff.q.announcedBy', { who: q.authorName ?? '?' })}
        {' · '}
        {t('staff.q.about', { what: about(q, activityName) })}
        {' · '}
        <Time iso={q.createdAt} timeZone={timeZone} />
      </p>
      <p className="question-body">{q.body}</p>
      {q.answer && (
        <div className="question-answer">
          <strong>{t('staff.q.answerBy', { who: q.answer.authorName })}</strong> <Time iso={q.answer.answeredAt} timeZone={timeZone} />
          <p>{q.answer.body}</p>
        </div>
      )}
      <div className="question-actions">
        {isQuestion && mayPublish && q.answer && <PublishButton question={q} />}
        {(isQuestion ? mayAnswer : mayAnnounce) && <DeleteButton question={q} />}
      </div>
      {isQuestion && mayAnswer && <AnswerPanel question={q} mayPublish={!!mayPublish} />}
    </li>
  );
}
