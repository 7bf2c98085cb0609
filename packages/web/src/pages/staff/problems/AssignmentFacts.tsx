import type { SeriesProblem } from '@judge/contract';
import { useT } from '../../../i18n/I18n';
import { draftOf } from './assignment';

/** What an assignment is judged with: its own limits (else the package's), points, languages, version, and its submissions. */
export function AssignmentFacts({ sp }: { sp: SeriesProblem }) {
  const t = useT();
  const d = draftOf(sp, 0);
  const pkg = t('staff.problems.assign.fromPackage');
  return (
    <dl className="assignment-facts">
      <dt>{t('staff.problems.assign.timeLimit')}</dt>
      <dd>{d.timeLimit ? t('staff.problems.facts.seconds', { seconds: Number(d.timeLimit) }) : pkg}</dd>
      <dt>{t('staff.problems.assign.memory')}</dt>
      <dd>{d.memory ? t('staff.problems.facts.mib', { mib: Number(d.memory) }) : pkg}</dd>
      <dt>{t('staff.problems.assign.points')}</dt>
      <dd>{d.points || t('staff.problems.assign.noPoints')}</dd>
      <dt>{t('staff.problems.assign.languages')}</dt>
      <dd>{d.languages || t('staff.problems.assign.allLanguages')}</dd>
      <dt>{t('staff.problems.assign.version')}</dt>
      <dd>{sp.pinnedVersion !== undefined ? t('staff.problems.assign.pinned', { version: sp.pinnedVersion }) : t('staff.problems.assign.newest', { version: sp.currentVersion })}</dd>
      <dt>{t('staff.problems.assign.submissions')}</dt>
      <dd>{sp.submissionCount}</dd>
    </dl>
  );
}
