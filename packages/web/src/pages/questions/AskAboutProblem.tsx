import { Link } from 'react-router';
import { useT } from '../../i18n/I18n';
import { subjectValue } from './model';

/** The problem page's way into the ask form, with this problem (its assignment) chosen. */
export function AskAboutProblem({ activity, problemId }: { activity: string; problemId: string }) {
  const t = useT();
  const about = encodeURIComponent(subjectValue({ kind: 'problem', problemId }));
  return (
    <p className="ask-about-problem">
      <Link to={`/a/${encodeURIComponent(activity)}/questions?about=${about}#ask`}>{t('questions.askAboutProblem')}</Link>
    </p>
  );
}
