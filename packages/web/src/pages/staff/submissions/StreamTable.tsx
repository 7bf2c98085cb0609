import type { SubmissionSummary } from '@judge/contract';
import { Link } from 'react-router';
import { VerdictBadge } from '../../../components/Verdict';
import { useI18n } from '../../../i18n/I18n';
import { formatInZone, Time } from '../../../i18n/time';
import type { ProblemLabel } from './queries';

export const staffSubmissionPath = (activity: string, id: string) => `/staff/a/${encodeURIComponent(activity)}/submissions/${encodeURIComponent(id)}`;

/** "A · Sum", or the problem's name while its letter is not known. */
export function problemText(s: Pick<SubmissionSummary, 'seriesProblemId' | 'problemName'>, labels: Map<string, ProblemLabel>): string {
  const l = labels.get(s.seriesProblemId);
  return l ? `${l.letter} · ${s.problemName}` : s.problemName;
}

interface Props {
  items: SubmissionSummary[];
  activity: string;
  timeZone: string;
  labels: Map<string, ProblemLabel>;
  /** Narrows the stream to one author (their name is a button in each row). */
  onlyAuthor(userId: string): void;
  caption: string;
}

/**
 * The stream as a table, newest first: when, who, which problem, the language by name, the result
 * (live) with the excluded mark, and a link to each. On a phone each row becomes a card.
 */
export function StreamTable({ items, activity, timeZone, labels, onlyAuthor, caption }: Props) {
  const { t, locale } = useI18n();
  return (
    <div className="submissions-wrap">
      <table className="submissions-table staff-stream">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('staff.subs.col.time')}</th>
            <th scope="col">{t('staff.subs.col.author')}</th>
            <th scope="col">{t('staff.subs.col.problem')}</th>
            <th scope="col">{t('staff.subs.col.language')}</th>
            <th scope="col">{t('staff.subs.col.result')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('staff.subs.col.open')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((s) => (
            <tr key={s.id} data-submission={s.id} data-state={s.state} data-verdict={s.verdict ?? ''} className={s.excluded ? 'excluded' : undefined}>
              <td data-label={t('staff.subs.col.time')}>
                {/* the page says the zone once above the table */}
                <Time iso={s.submittedAt} timeZone={timeZone} withZone={false} />
              </td>
              <td data-label={t('staff.subs.col.author')}>
                <button type="button" className="link-button" onClick={() => onlyAuthor(s.userId)} title={t('staff.subs.onlyAuthor', { name: s.userName })}>
                  {s.userName}
                </button>
              </td>
              <td data-label={t('staff.subs.col.problem')}>{problemText(s, labels)}</td>
              <td data-label={t('staff.subs.col.language')}>{s.languageName ?? s.language ?? ''}</td>
              <td data-label={t('staff.subs.col.result')}>
                <VerdictBadge of={s} />
                {s.excluded && <span className="badge excluded-mark">{t('staff.subs.excluded')}</span>}
              </td>
              <td>
                <Link
                  to={staffSubmissionPath(activity, s.id)}
                  aria-label={t('staff.subs.open', { who: s.userName, problem: problemText(s, labels), time: formatInZone(s.submittedAt, timeZone, locale, false) })}
                >
                  {t('staff.subs.col.open')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
