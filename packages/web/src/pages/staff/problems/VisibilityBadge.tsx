import type { Problem } from '@judge/contract';
import { useT } from '../../../i18n/I18n';

/** Who may read a problem besides its owner: nobody, some users, or every staff member of the instance. */
export function VisibilityBadge({ problem }: { problem: Pick<Problem, 'visibility' | 'sharedWith'> }) {
  const t = useT();
  const words =
    problem.visibility === 'shared'
      ? t('staff.problems.visibility.sharedWith', { count: problem.sharedWith.length })
      : t(problem.visibility === 'instance' ? 'staff.problems.visibility.instance' : 'staff.problems.visibility.private');
  return <span className={`badge visibility-${problem.visibility}`}>{words}</span>;
}
