import { Link } from 'react-router';
import { useMay, useStaffAccess } from '../../../app/permissions';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { GLOBAL_SECTIONS } from '../sections';
import { TerminalTasks } from '../terminal/TerminalTasks';
import { GLOBAL_TASKS } from '../terminal/tasks';
import { ManagedActivities } from './ManagedActivities';
import './home.css';

/** The staff pages that span activities, as a list with what each is for. */
function GlobalSections() {
  const t = useT();
  const staff = useStaffAccess();
  const sections = GLOBAL_SECTIONS.filter((s) => s.path && s.shown(staff));
  if (!sections.length) return null;
  return (
    <section aria-labelledby="global-title">
      <h2 id="global-title">{t('staff.home.global')}</h2>
      <ul className="global-sections">
        {sections.map((s) => (
          <li key={s.key}>
            <Link to={`/staff/${s.path}`}>{t(s.label)}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * /staff: the activities the reader manages (each a link to its dashboard), a way to make a new
 * one for those who may, the staff pages across activities, and that judgectl does the rest.
 */
export default function StaffHome() {
  const t = useT();
  usePageTitle(t('staff.home.title'));
  const staff = useStaffAccess();
  const mayCreate = useMay(undefined, 'activity:create') ?? false;
  const pageOf = (key: string) => {
    const s = GLOBAL_SECTIONS.find((x) => x.key === key && x.path && x.shown(staff));
    return s ? `/staff/${s.path}` : undefined;
  };
  return (
    <section className="staff-home">
      <h1 className="page-title">{t('staff.home.title')}</h1>
      <ManagedActivities mayCreate={mayCreate} />
      <GlobalSections />
      <TerminalTasks
        groups={GLOBAL_TASKS}
        pageOf={pageOf}
        intro={
          <>
            <p>{t('staff.home.judgectl')}</p>
            <p>
              <code>judgectl login --server {window.location.origin} --username {'<you>'}</code>
            </p>
            <p>{t('staff.home.guide')}</p>
            <p className="muted">{t('staff.home.noPageYet')}</p>
          </>
        }
      />
    </section>
  );
}
