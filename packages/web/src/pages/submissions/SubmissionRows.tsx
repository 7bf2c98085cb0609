import type { LanguageChoice, SubmissionSummary } from '@judge/contract';
import { Link } from 'react-router';
import { VerdictBadge } from '../../components/Verdict';
import { useI18n } from '../../i18n/I18n';
import { formatInZone, Time } from '../../i18n/time';
import { useIcpc } from '../activity/useIcpc';
import './submissions.css';

export const submissionPath = (activity: string, id: string) => `/a/${encodeURIComponent(activity)}/submissions/${encodeURIComponent(id)}`;

/** A submission's score as "7 / 10", or nothing while it has none. */
export function scoreText(s: Pick<SubmissionSummary, 'score' | 'maxScore'>): string {
  if (s.score === undefined) return '';
  return s.maxScore !== undefined ? `${s.score} / ${s.maxScore}` : String(s.score);
}

/** The language a submission names, by its name where the caller knows the languages. */
export function languageOf(s: SubmissionSummary, languages?: LanguageChoice[]): string {
  const id = typeof s.props?.language === 'string' ? s.props.language : '';
  return languages?.find((l) => l.id === id)?.name ?? id;
}

/**
 * Submissions as a table: when, (problem), language, verdict or state (live), score (not in an
 * icpc contest, where a submission is accepted or not), a link to each. Where it is narrow (a
 * phone, a side column) each submission becomes a card (submissions.css).
 */
export function SubmissionRows(props: { items: SubmissionSummary[]; activity: string; timeZone: string; withProblem: boolean; caption: string; languages?: LanguageChoice[] }) {
  const { t } = useI18n();
  const scored = !useIcpc();
  return (
    <div className="submissions-wrap">
      <table className="submissions-table">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('submissions.col.time')}</th>
            {props.withProblem && <th scope="col">{t('submissions.col.problem')}</th>}
            <th scope="col">{t('submissions.col.language')}</th>
            <th scope="col">{t('submissions.col.result')}</th>
            {scored && <th scope="col">{t('submissions.col.score')}</th>}
            <th scope="col">
              <span className="visually-hidden">{t('submissions.col.link')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((s) => (
            <SubmissionRow key={s.id} s={s} scored={scored} {...props} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SubmissionRow({ s, activity, timeZone, withProblem, languages, scored }: { s: SubmissionSummary; activity: string; timeZone: string; withProblem: boolean; languages?: LanguageChoice[]; scored: boolean }) {
  const { t, locale } = useI18n();
  return (
    <tr data-submission={s.id} data-state={s.state} data-verdict={s.verdict ?? ''}>
      <td data-label={t('submissions.col.time')}>
        <Time iso={s.submittedAt} timeZone={timeZone} />
      </td>
      {withProblem && <td data-label={t('submissions.col.problem')}>{s.problemName}</td>}
      <td data-label={t('submissions.col.language')}>{languageOf(s, languages)}</td>
      <td data-label={t('submissions.col.result')}>
        <VerdictBadge of={s} />
        {s.excluded && <span className="badge">{t('verdict.excluded')}</span>}
      </td>
      {scored && <td data-label={t('submissions.col.score')}>{scoreText(s)}</td>}
      <td>
        <Link to={submissionPath(activity, s.id)} aria-label={t('submissions.open', { time: formatInZone(s.submittedAt, timeZone, locale, false), problem: s.problemName })}>
          {t('submit.mine.details')}
        </Link>
      </td>
    </tr>
  );
}
