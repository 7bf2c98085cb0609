import type { SubmissionDetail } from '@judge/contract';
import { Link } from 'react-router';
import { VerdictBadge } from '../../../components/Verdict';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { scoreText } from '../../submissions/SubmissionRows';

/** Whose submission it is (with a link to all of theirs), the problem, language, time and result (live). */
export function StaffSubmissionFacts({ s, problem, stream, timeZone }: { s: SubmissionDetail; problem: string; stream: string; timeZone: string }) {
  const t = useT();
  const from = [s.ipAddress, s.deviceId].filter(Boolean).join(' · ');
  return (
    <dl className="submission-facts" aria-live="polite">
      <div>
        <dt>{t('staff.sub.author')}</dt>
        <dd>
          <Link to={`${stream}?userId=${encodeURIComponent(s.userId)}`} aria-label={t('staff.sub.authorsOthers', { name: s.userName })} data-author={s.userId}>
            {s.userName}
          </Link>
        </dd>
      </div>
      <div>
        <dt>{t('staff.sub.problem')}</dt>
        <dd>
          <Link to={`${stream}?seriesProblemId=${encodeURIComponent(s.seriesProblemId)}`}>{problem}</Link>
        </dd>
      </div>
      <div>
        <dt>{t('staff.sub.series')}</dt>
        <dd>{s.seriesName}</dd>
      </div>
      <div>
        <dt>{t('staff.sub.language')}</dt>
        <dd>{s.languageName ?? s.language ?? '—'}</dd>
      </div>
      <div>
        <dt>{t('staff.sub.submitted')}</dt>
        <dd>
          <Time iso={s.submittedAt} timeZone={timeZone} />
        </dd>
      </div>
      <div>
        <dt>{t('staff.sub.result')}</dt>
        <dd className="facts-verdict">
          <VerdictBadge of={s} />
          {s.excluded && <span className="badge excluded-mark">{t('staff.subs.excluded')}</span>}
        </dd>
      </div>
      {s.score !== undefined && (
        <div>
          <dt>{t('staff.sub.score')}</dt>
          <dd>{scoreText(s)}</dd>
        </div>
      )}
      {from && (
        <div>
          <dt>{t('staff.sub.from')}</dt>
          <dd>{from}</dd>
        </div>
      )}
    </dl>
  );
}
