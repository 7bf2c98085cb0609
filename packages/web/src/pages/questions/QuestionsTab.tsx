import type { ParticipantActivity, Question } from '@judge/contract';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useT } from '../../i18n/I18n';
import { useLiveFrames } from '../../live/Live';
import { unreadCount } from './model';
import { useQuestions } from './queries';
import './questions.css';

const base = (slug: string) => `/a/${encodeURIComponent(slug)}/questions`;

/** The Questions tab, with the number of answers and announcements the reader has not read yet. */
export function QuestionsTab({ activity }: { activity: ParticipantActivity }) {
  const t = useT();
  const q = useQuestions(activity.slug, true);
  const unread = unreadCount(q.data?.items);
  return (
    <NavLink to={base(activity.slug)} className="questions-tab">
      {t('activity.tab.questions')}
      {unread > 0 && (
        <span className="badge unread-badge" data-unread={unread}>
          <span aria-hidden="true">{unread}</span>
          <span className="visually-hidden">{t('questions.unread', { count: unread })}</span>
        </span>
      )}
    </NavLink>
  );
}

type News = { kind: 'answer' | 'announcement'; topic: string; at: number };

/**
 * Says politely, on every page of the activity, that an answer or an announcement came in, with a
 * link to read it; the list itself refetches through the live invalidation.
 */
export function QuestionsNews({ activity }: { activity: ParticipantActivity }) {
  const t = useT();
  const { pathname } = useLocation();
  const [news, setNews] = useState<News | null>(null);
  const take = (kind: News['kind']) => (data: Record<string, unknown>) => {
    const question = data.question as Question | undefined;
    if (data.activityId !== activity.id || !question) return;
    setNews({ kind, topic: question.topic, at: Date.now() });
  };
  useLiveFrames('questionAnswered', take('answer'));
  useLiveFrames('announcementPublished', take('announcement'));
  const onQuestions = pathname.startsWith(base(activity.slug));
  return (
    <p className="questions-news" role="status" aria-live="polite">
      {news && (
        <span key={news.at} className="news-line">
          {t(news.kind === 'answer' ? 'questions.news.answer' : 'questions.news.announcement', { topic: news.topic })}{' '}
          {!onQuestions && <Link to={base(activity.slug)}>{t('questions.news.open')}</Link>}
          <button type="button" className="link-button" onClick={() => setNews(null)} aria-label={t('banner.dismiss')}>
            ×
          </button>
        </span>
      )}
    </p>
  );
}
