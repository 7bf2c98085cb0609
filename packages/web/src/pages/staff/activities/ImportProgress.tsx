import { Link } from 'react-router';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import type { ArchivePackage } from './archive';
import type { ImportOutcome, PackageProgress } from './import-run';
import type { Phase } from './useContestImport';

/** Each package's step and upload bar while the import runs, and what it came to. */
export function ImportProgress({ packages, progress }: { packages: ArchivePackage[]; progress: PackageProgress[] }) {
  const t = useT();
  return (
    <ol className="import-progress">
      {packages.map((p, i) => {
        const s = progress[i] ?? { step: 'waiting', sent: 0, total: p.zip.length };
        return (
          <li key={p.path} data-package={p.slug} data-step={s.step} className={s.step === 'refused' ? 'refused' : undefined}>
            <span className="import-name">
              <strong>{p.slug}</strong> {p.name && <span className="muted">({p.name})</span>}
            </span>
            <progress max={s.total || 1} value={s.sent} aria-label={t('staff.activities.new.import.uploadOf', { slug: p.slug })} />
            <span className="import-step">{t(`staff.activities.new.import.step.${s.step}`, { slug: s.assigned ?? p.slug })}</span>
            {s.why && (
              <span className="field-error" lang="en">
                {s.why}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

interface OutcomeProps {
  outcome: ImportOutcome;
  progress: PackageProgress[];
  packages: ArchivePackage[];
  phase: Phase;
  removal: string[] | null;
  failure: unknown;
  onRemove: () => void;
}

/** What was made and what was refused, in words, with the choice to keep it or remove it all. */
export function ImportOutcomeBox({ outcome, progress, packages, phase, removal, failure, onRemove }: OutcomeProps) {
  const t = useT();
  if (failure) return <ErrorBox error={failure} />;
  const refused = packages.filter((_, i) => progress[i]?.step === 'refused');
  const a = outcome.activity;
  const made = outcome.made.map((m) => `${t(`staff.activities.new.import.made.${m.kind}`)} ${m.slug}`).join(', ');
  if (phase === 'removed') {
    return (
      <div className={removal?.length ? 'error-box' : 'ok-box'} role="status">
        {removal?.length ? t('staff.activities.new.import.removeFailed', { list: removal.join('; ') }) : t('staff.activities.new.import.removed', { list: made })}
      </div>
    );
  }
  const link = a && (
    <p>
      <Link to={`/staff/a/${encodeURIComponent(a.slug)}/series`}>{t('staff.activities.new.import.openSeries', { name: a.name })}</Link> ·{' '}
      <Link to={`/staff/a/${encodeURIComponent(a.slug)}/settings`}>{t('staff.activities.new.import.openSettings')}</Link>
    </p>
  );
  if (!outcome.stopped && !refused.length) {
    return (
      <div className="ok-box" role="status">
        {t('staff.activities.new.import.done', { name: a?.name ?? '', count: packages.length })}
        {link}
      </div>
    );
  }
  return (
    <div className="error-box" role="alert">
      {outcome.stopped && <p>{t('staff.activities.new.import.stopped', { why: outcome.stopped })}</p>}
      {refused.length > 0 && (
        <>
          <p>{t('staff.activities.new.import.refused', { count: refused.length })}</p>
          <ul>
            {refused.map((p) => (
              <li key={p.path}>
                <strong>{p.slug}</strong>: <span lang="en">{progress[packages.indexOf(p)]?.why}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <p>{made ? t('staff.activities.new.import.madeList', { list: made }) : t('staff.activities.new.import.nothingMade')}</p>
      {outcome.made.length > 0 && (
        <div className="staff-actions">
          <button type="button" className="danger" onClick={onRemove}>
            {t('staff.activities.new.import.removeAll')}
          </button>
        </div>
      )}
      {link}
    </div>
  );
}
