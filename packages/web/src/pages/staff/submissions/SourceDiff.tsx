import type { SubmissionDetail, SubmissionFile } from '@judge/contract';
import { Link } from 'react-router';
import { ErrorBox, Loading } from '../../../components/Status';
import { useVerdictWords } from '../../../components/Verdict';
import { useI18n, useT } from '../../../i18n/I18n';
import { formatInZone } from '../../../i18n/time';
import { useFileText } from '../../submissions/files';
import { lineDiff, withContext } from './lineDiff';
import { usePreviousSubmission } from './queries';
import { staffSubmissionPath } from './StreamTable';

const SIGN = { same: ' ', added: '+', removed: '−' } as const;

/** What changed since the same author's previous submission to this problem, file by file, as a line diff. */
export function SourceDiff({ s, timeZone }: { s: SubmissionDetail; timeZone: string }) {
  const { t, locale } = useI18n();
  const words = useVerdictWords();
  const prev = usePreviousSubmission(s);
  const previous = prev.previous;
  return (
    <section aria-labelledby="diff-title" className="source-diff">
      <h2 id="diff-title">{t('staff.sub.diff')}</h2>
      {prev.pending && <Loading />}
      {prev.error && <ErrorBox error={prev.error} />}
      {!prev.pending && !prev.error && !previous && <p className="muted">{t('staff.sub.noPrevious')}</p>}
      {previous && (
        <>
          <p>
            <Link to={staffSubmissionPath(s.activitySlug, previous.id)}>
              {t('staff.sub.diffAgainst', { time: formatInZone(previous.submittedAt, timeZone, locale), verdict: words(previous) })}
            </Link>
          </p>
          {s.files.map((f) => (
            <FileDiff key={f.fileId} now={f} before={previous.files.find((p) => p.fileName === f.fileName) ?? (s.files.length === 1 ? previous.files[0] : undefined)} />
          ))}
          {previous.files
            .filter((p) => !s.files.some((f) => f.fileName === p.fileName) && s.files.length > 1)
            .map((p) => (
              <p key={p.fileId}>{t('staff.sub.fileGone', { name: p.fileName })}</p>
            ))}
        </>
      )}
    </section>
  );
}

function FileDiff({ now, before }: { now: SubmissionFile; before?: SubmissionFile }) {
  const t = useT();
  const a = useFileText(before?.fileId);
  const b = useFileText(now.fileId);
  if ((before && a.isPending) || b.isPending) return <Loading />;
  if (a.isError || b.isError) return <ErrorBox error={a.error ?? b.error} />;
  const lines = lineDiff(before ? (a.data ?? '') : '', b.data ?? '');
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  const name = before && before.fileName !== now.fileName ? `${before.fileName} → ${now.fileName}` : now.fileName;
  return (
    <figure className="file-diff" data-file={now.fileName}>
      <figcaption>
        <span className="file-name">{name}</span> <span className="muted">{t('staff.sub.diffCounts', { added, removed })}</span>
      </figcaption>
      {added + removed === 0 ? (
        <p className="muted">{t('staff.sub.diffSame')}</p>
      ) : (
        <pre className="diff" tabIndex={0} aria-label={`${t('staff.sub.diffLabel')}: ${name}`}>
          {withContext(lines).map((l, i) =>
            l === null ? (
              <span key={i} className="diff-gap">
                {'⋯\n'}
              </span>
            ) : (
              <span key={i} className={`diff-${l.kind}`}>
                {SIGN[l.kind]} {l.text}
                {'\n'}
              </span>
            ),
          )}
        </pre>
      )}
    </figure>
  );
}
