import { NavLink } from 'react-router';
import { useT } from '../i18n/I18n';
import { useStaffAccess } from './permissions';

/** The header's "Staff" entry, only for those who hold some staff permission. */
export function StaffNavLink() {
  const t = useT();
  const staff = useStaffAccess();
  if (!staff.any) return null;
  return <NavLink to="/staff">{t('staff.nav')}</NavLink>;
}
