import { useT } from '../../i18n/I18n';

/**
 * Names the judgectl command that does a task from a terminal, on the page where the task belongs:
 * staff who script their contests, or who need a task no page offers, find the command where they
 * look for the task.
 */
export function JudgectlHint({ command }: { command: string }) {
  const t = useT();
  return (
    <p className="judgectl-hint">
      {t('staff.judgectl.inTerminal')} <code>{command}</code>
    </p>
  );
}
