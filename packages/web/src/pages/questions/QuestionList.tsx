import type { Question } from '@judge/contract';
import { useOutletContext } from 'react-router';
import { useT } from '../../i18n/I18n';
import { Time } from '../../i18n/time';
import type { ActivityContext } from '../activity/ActivityLayout';
import { letterOf } from '../activity/letters';
import { needsReading, ordered } from './model';

function About({ q }: { q: Question }) {
  const t = useT();
  const { series } = useOutletContext<ActivityContext>();
  if (q.problemName && q.seriesProblemId) {
    const problems = series?.find((s) => s.id === q.seriesId)?.problems;
    const letter = (problems && letterOf(problems, q.seriesProblemId)) ?? q.problemSlug ?? '';
    return <>{t('questions.about.problem', { letter, name: q.problemName })}</>;
  }
  if (q.seriesName) return <>{t('questions.about.series', { name: q.seriesName })}</>;
  return <>{t('questions.about.activity')}</>;
}

function Answer({ q, timeZone }: { q: Question; timeZone: string }) {
  const t = useT();
  if (!q.answer) return <p className="muted question-waiting">{t('questions.waiting')}</p>;
  return (
    <div className="question-answer">
      <h4>{t('questions.answer')}</h4>
      <p className="question-text">{q.answer.body}</p>
      <p className="muted small">
        {t('questions.answeredBy', { name: q.answer.authorName })} · <Time iso={q.answer.answeredAt} timeZone={timeZone} />
      </p>
    </div>
  );
}

function Item({ q, mine, timeZone }: { q: Question; mine: boolean; timeZone: string }) {
  const t = useT();
  const isNew = needsReading(q);
  return (
    <li>
      <article className={`question-item kind-${q.kind}${isNew ? ' is-new' : ''}`} data-question={q.id} aria-labelledby={`q-${q.id}`}>
        <p className="question-meta">
          <span className={`badge kind-badge kind-${q.kind}`}>{t(q.kind === 'announcement' ? 'questions.announcement' : 'questions.question')}</span>
          {isNew && <span className="badge new-badge">{t('questions.new')}</span>}
          {mine && q.kind === 'question' && <span className="muted">{t('questions.yours')}</span>}
          {q.kind === 'question' && q.isPublished && <span className="muted">{t('questions.published')}</span>}
        </p>
        <h3 id={`q-${q.id}`}>{q.topic}</h3>
        <p className="muted small">
          <About q={q} /> · <Time iso={q.createdAt} timeZone={timeZone} />
        </p>
        <p className="question-text">{q.body}</p>
        {q.kind === 'question' && <Answer q={q} timeZone={timeZone} />}
      </article>
    </li>
  );
}

/** Announcements, then the questions, each with its answer under it. */
export function QuestionList({ questions, me, timeZone }: { questions: readonly Question[]; me: string | undefined; timeZone: string }) {
  const t = useT();
  if (!questions.length) return <p className="muted">{t('questions.none')}</p>;
  return (
    <ul className="question-list">
      {ordered(questions).map((q) => (
        <Item key={q.id} q={q} mine={!!me && q.authorUserId === me} timeZone={timeZone} />
      ))}
    </ul>
  );
}
