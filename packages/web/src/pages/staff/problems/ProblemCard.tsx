import type { Problem } from '@judge/contract';
import { Link } from 'react-router';
import { useT } from '../../../i18n/I18n';
import { VisibilityBadge } from './VisibilityBadge';

/** One problem of the library: its name (to its page), slug, owner, who may read it, versions and uses. */
export function ProblemCard({ problem: p }: { problem: Problem }) {
  const t = useT();
  return (
    <li className="card problem-card" data-problem={p.slug}>
      <h2>
        <Link to={`/staff/problems/${p.id}`}>{p.name}</Link>
      </h2>
      <p className="problem-card-facts">
        <code>{p.slug}</code>
        <VisibilityBadge problem={p} />
        {p.archivedAt && <span className="badge archived">{t('staff.problems.archived')}</span>}
        <span>{t('staff.problems.versions', { count: p.versionCount })}</span>
        <span>{t('staff.problems.usedIn', { count: p.attachedCount })}</span>
        {p.ownerName && <span>{t('staff.problems.owner', { name: p.ownerName })}</span>}
      </p>
    </li>
  );
}
