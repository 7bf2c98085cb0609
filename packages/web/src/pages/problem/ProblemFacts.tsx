import type { ParticipantProblem } from '@judge/contract';
import { fileUrl } from '../../api/client';
import { formatBytes } from '../../i18n/bytes';
import { useI18n, useT } from '../../i18n/I18n';
import { isSampleFile, isStatementFile } from './samples';

function Limits({ p }: { p: ParticipantProblem }) {
  const { t, locale } = useI18n();
  const num = (v: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(v);
  const rows: [string, string][] = [];
  if (p.timeLimitSeconds !== undefined) rows.push([t('problem.limits.time'), t('problem.limits.seconds', { value: num(p.timeLimitSeconds) })]);
  if (p.memoryMiB !== undefined) rows.push([t('problem.limits.memory'), t('problem.limits.mib', { value: num(p.memoryMiB) })]);
  if (p.outputMiB !== undefined) rows.push([t('problem.limits.output'), t('problem.limits.mib', { value: num(p.outputMiB) })]);
  if (p.maxSubmissions !== undefined) rows.push([t('problem.limits.submissions'), t('problem.limits.left', { left: p.submissionsLeft ?? p.maxSubmissions, max: p.maxSubmissions })]);
  if (!rows.length) return null;
  return (
    <dl className="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Beyond a few, the languages fold away: a school's table lists thirty. */
const LANGUAGES_SHOWN = 6;

function Languages({ p }: { p: ParticipantProblem }) {
  const t = useT();
  const names = p.allowedLanguages.map((l) => l.name);
  if (!names.length) return null;
  if (names.length <= LANGUAGES_SHOWN)
    return (
      <p className="languages">
        <span className="muted">{t('problem.limits.languages')}:</span> {names.join(', ')}
      </p>
    );
  return (
    <details className="languages">
      <summary>{t('problem.limits.languageCount', { count: names.length })}</summary>
      <p>{names.join(', ')}</p>
    </details>
  );
}

function Attachments({ p }: { p: ParticipantProblem }) {
  const { t, locale } = useI18n();
  const files = p.attachments.filter((a) => !isSampleFile(a.name) && !isStatementFile(a.name));
  if (!files.length) return null;
  return (
    <section className="attachments" aria-labelledby="attachments-title">
      <h2 id="attachments-title">{t('problem.attachments')}</h2>
      <ul>
        {files.map((f) => (
          <li key={f.fileId}>
            <a href={fileUrl(f.fileId)} download={f.name.split('/').pop()}>
              {f.name}
            </a>{' '}
            <span className="muted">({formatBytes(f.sizeBytes, locale, t)})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The limits a solution runs under, the languages allowed, the submissions left, and the files to download. */
export function ProblemFacts({ problem }: { problem: ParticipantProblem }) {
  const t = useT();
  return (
    <section className="problem-facts card" aria-label={t('problem.facts')}>
      <Limits p={problem} />
      <Languages p={problem} />
      <Attachments p={problem} />
    </section>
  );
}
