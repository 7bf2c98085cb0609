import { useOutletContext } from 'react-router';
import { useAccount } from '../../app/session';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import type { ActivityContext } from '../activity/ActivityLayout';
import { AskForm } from './AskForm';
import { QuestionList } from './QuestionList';
import { useMarkShownRead, useQuestions } from './queries';
import './questions.css';

/** The participant's questions panel: ask, and read the announcements and answers (live, marked read as shown). */
export default function QuestionsPage() {
  const t = useT();
  const { activity } = useOutletContext<ActivityContext>();
  const on = activity.modules.questions;
  const account = useAccount();
  const q = useQuestions(activity.slug, on);
  useMarkShownRead(activity.slug, q.data?.items);
  usePageTitle(t('questions.title'));
  if (!on) return <p className="notice">{t('questions.ask.disabled')}</p>;
  return (
    <section className="questions-page" aria-labelledby="questions-title">
      <h1 id="questions-title" className="page-title">
        {t('questions.title')}
      </h1>
      <p className="muted">{t('questions.intro')}</p>
      <div className="main-side">
        <div className="questions-main">
          {q.isPending ? <Loading /> : q.isError ? <ErrorBox error={q.error} /> : <QuestionList questions={q.data.items} me={account.data?.userId} timeZone={activity.timeZone} />}
        </div>
        <div className="questions-side">{!activity.archivedAt && <AskForm slug={activity.slug} />}</div>
      </div>
    </section>
  );
}
