import { useId } from 'react';
import { useT } from '../../../i18n/I18n';
import { problemLetter } from '../../activity/letters';
import type { AssignmentDraft } from './assignment';

interface Props {
  draft: AssignmentDraft;
  set(d: AssignmentDraft): void;
  /** How many letters the series will have with this assignment in it. */
  letters: number;
  /** The slug a blank slug field stands for (the problem's own), when it may be left blank. */
  slugDefault?: string;
}

/** The fields an assignment is given: letter, slug, time and memory limits, points and languages. */
export function AssignmentFields({ draft, set, letters, slugDefault }: Props) {
  const t = useT();
  const id = useId();
  const field = (key: keyof AssignmentDraft) => (e: { target: { value: string } }) => set({ ...draft, [key]: key === 'letter' ? Number(e.target.value) : e.target.value });
  return (
    <div className="assignment-fields">
      <label htmlFor={`${id}-letter`}>{t('staff.problems.assign.letter')}</label>
      <select id={`${id}-letter`} value={draft.letter} onChange={field('letter')}>
        {Array.from({ length: letters }, (_, i) => (
          <option key={i} value={i}>
            {problemLetter(i)}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-slug`}>{t('staff.problems.assign.slug')}</label>
      <input id={`${id}-slug`} value={draft.slug} onChange={field('slug')} required={slugDefault === undefined} placeholder={slugDefault} pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" maxLength={64} />
      <label htmlFor={`${id}-time`}>{t('staff.problems.assign.timeLimitField')}</label>
      <input id={`${id}-time`} type="number" min="0.1" step="0.1" inputMode="decimal" value={draft.timeLimit} onChange={field('timeLimit')} placeholder={t('staff.problems.assign.fromPackage')} />
      <label htmlFor={`${id}-memory`}>{t('staff.problems.assign.memoryField')}</label>
      <input id={`${id}-memory`} type="number" min="1" step="1" value={draft.memory} onChange={field('memory')} placeholder={t('staff.problems.assign.fromPackage')} />
      <label htmlFor={`${id}-points`}>{t('staff.problems.assign.points')}</label>
      <input id={`${id}-points`} type="number" min="1" step="1" value={draft.points} onChange={field('points')} placeholder={t('staff.problems.assign.noPoints')} />
      <label htmlFor={`${id}-languages`}>{t('staff.problems.assign.languagesField')}</label>
      <input id={`${id}-languages`} value={draft.languages} onChange={field('languages')} placeholder="c, cpp, python3" aria-describedby={`${id}-languages-help`} />
      <p id={`${id}-languages-help`} className="field-help muted">
        {t('staff.problems.assign.languagesHelp')}
      </p>
    </div>
  );
}
