import type { SubmissionDetail } from '@judge/contract';
import { Link } from 'react-router';
import { VerdictBadge } from '../../components/Verdict';
import { useT } from '../../i18n/I18n';
import { Time } from '../../i18n/time';
import { formatMemory, formatMs, peaks, type Details } from './details';
import { languageOf, scoreText } from './SubmissionRows';
import { useActivityZone } from './useActivityZone';
import { useIcpc } from '../activity/useIcpc';

/** The facts of a submission as a definition list: problem, time, language, result (live), score, peaks. */
export function SubmissionFacts({ activity, s, details, language }: { activity: string; s: SubmissionDetail; details?: Details; language?: string }) {
  const t = useT();
  const zone = useActivityZone(activity);
  const peak = details ? peaks(details) : {};
  const scored = !useIcpc();
  return (
    <dl className="submission-facts" aria-live="polite">
      <div>
        <dt>{t('submissions.col.problem')}</dt>
        <dd>
          <Link to={`/a/${encodeURIComponent(activity)}/p/${encodeURIComponent(s.problemSlug)}`}>{s.problemName}</Link>
        </dd>
      </div>
      <div>
        <dt>{t('submissions.col.time')}</dt>
        <dd>
          <Time iso={s.submittedAt} timeZone={zone} />
        </dd>
      </div>
      <div>
        <dt>{t('submissions.col.language')}</dt>
        <dd>{language ?? languageOf(s)}</dd>
      </div>
      <div>
        <dt>{t('submissions.col.result')}</dt>
        <dd className="facts-verdict">
          <VerdictBadge of={s} />
          {s.excluded && <span className="badge">{t('verdict.excluded')}</span>}
        </dd>
      </div>
      {scored && s.score !== undefined && (
        <div>
          <dt>{t('submissions.col.score')}</dt>
          <dd>{scoreText(s)}</dd>
        </div>
      )}
      {peak.cpuMs !== undefined && (
        <div>
          <dt>{t('submission.maxTime')}</dt>
          <dd>{formatMs(peak.cpuMs)}</dd>
        </div>
      )}
      {peak.memoryBytes !== undefined && (
        <div>
          <dt>{t('submission.maxMemory')}</dt>
          <dd>{formatMemory(peak.memoryBytes)}</dd>
        </div>
      )}
    </dl>
  );
}
