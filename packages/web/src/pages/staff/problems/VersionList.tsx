import type { ProblemVersion } from '@judge/contract';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';

/** The reader's own zone: a problem version belongs to no activity, so no activity's zone applies. */
const OWN_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The versions of a problem, newest first, each with its note; choosing one shows its statement, limits and trial. */
export function VersionList({ versions, chosen, choose }: { versions: ProblemVersion[]; chosen: string | undefined; choose(id: string): void }) {
  const t = useT();
  if (!versions.length) return <p>{t('staff.problems.noVersions')}</p>;
  return (
    <ol className="version-list">
      {versions.map((v) => (
        <li key={v.id} className={v.id === chosen ? 'chosen' : undefined} data-version={v.version}>
          <div className="version-head">
            <strong>{t('staff.problems.versionN', { version: v.version })}</strong>
            <Time iso={v.createdAt} timeZone={OWN_ZONE} />
            {v.createdByName && <span className="muted">{t('staff.problems.by', { name: v.createdByName })}</span>}
            {v.id === chosen ? (
              <span className="badge">{t('staff.problems.shown')}</span>
            ) : (
              <button type="button" className="link-button" onClick={() => choose(v.id)}>
                {t('staff.problems.show', { version: v.version })}
              </button>
            )}
          </div>
          {v.note && <p className="version-note">{v.note}</p>}
        </li>
      ))}
    </ol>
  );
}
