import { Link, NavLink, Outlet } from 'react-router';
import { useStaffAccess } from '../../app/permissions';
import { GLOBAL_SECTIONS } from './sections';
import { Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { TwoFactorRequiredHint } from '../account/TwoFactorRequired';
import './staff.css';

/** Said in words to someone without any staff permission who opens a /staff address. */
function NotStaff() {
  const t = useT();
  usePageTitle(t('staff.refused.title'));
  return (
    <section className="staff-refused">
      <h1>{t('staff.refused.title')}</h1>
      <p role="alert">{t('staff.refused.text')}</p>
      <TwoFactorRequiredHint />
      <Link to="/">{t('staff.refused.home')}</Link>
    </section>
  );
}

/**
 * The frame of the staff pages: their own navigation (the pages of GLOBAL_SECTIONS), shown
 * only to holders of a staff permission. The server refuses the requests of anybody else anyway;
 * this keeps them from a page of errors.
 */
export default function StaffLayout() {
  const t = useT();
  const staff = useStaffAccess();
  if (staff.pending) return <Loading />;
  if (!staff.any) return <NotStaff />;
  const sections = GLOBAL_SECTIONS.filter((s) => s.shown(staff));
  return (
    <div className="staff">
      <nav className="tabs staff-tabs" aria-label={t('staff.nav.label')}>
        {sections.map((s) => (
          <NavLink key={s.key} to={s.path ? `/staff/${s.path}` : '/staff'} end={!s.path} data-section={s.key}>
            {t(s.label)}
          </NavLink>
        ))}
        {staff.creates && (
          <Link to="/staff/new" className="staff-new-link" data-section="new">
            {t('staff.activities.nav.new')}
          </Link>
        )}
      </nav>
      <Outlet />
    </div>
  );
}
