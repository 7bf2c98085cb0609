import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useT } from '../../../i18n/I18n';
import { commandFor, type TerminalGroup } from './tasks';
import './terminal.css';

interface Props {
  groups: TerminalGroup[];
  /** The activity whose slug the commands name. */
  activitySlug?: string;
  /** The address of a group's staff page, when the reader has one. */
  pageOf?: (section: string) => string | undefined;
  /** Where the headings start (h2 on a page of its own, h3 under one). */
  level?: 2 | 3;
  /** Said before the list instead of the usual line (the staff home tells how to sign judgectl in). */
  intro?: ReactNode;
}

/**
 * "From a terminal": the judgectl command of each task no page does yet, grouped by the staff page
 * it belongs to, folded away until opened (a summary is a button to the keyboard).
 */
export function TerminalTasks({ groups, activitySlug, pageOf, level = 2, intro }: Props) {
  const t = useT();
  const Heading = level === 2 ? 'h2' : 'h3';
  const Sub = level === 2 ? 'h3' : 'h4';
  if (!groups.length) return null;
  return (
    <section className="terminal-tasks" aria-labelledby="terminal-tasks-title">
      <Heading id="terminal-tasks-title">{t('staff.terminal.title')}</Heading>
      {intro ?? <p className="muted">{t('staff.terminal.intro')}</p>}
      <details>
        <summary>{t('staff.terminal.show', { count: groups.reduce((n, g) => n + g.tasks.length, 0) })}</summary>
        <div className="terminal-groups">
          {groups.map((g) => {
            const page = pageOf?.(g.section);
            return (
              <section key={g.section} className="terminal-group" data-terminal-group={g.section}>
                <Sub>{page ? <Link to={page}>{t(g.label)}</Link> : t(g.label)}</Sub>
                <dl>
                  {g.tasks.map((task) => (
                    <div key={task.command}>
                      <dt>{t(task.label)}</dt>
                      <dd>
                        <code>{commandFor(task, activitySlug)}</code>
                      </dd>
                    </div>
                  ))}
                </dl>
              </section>
            );
          })}
        </div>
      </details>
    </section>
  );
}
