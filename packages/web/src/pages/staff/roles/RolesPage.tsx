import { AdminGate } from '../AdminGate';
import { useStaffAccess } from '../../../app/permissions';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { GrantsSection } from './GrantsSection';
import { RolesSection } from './RolesSection';
import '../users/users.css';
import './roles.css';

/** Roles (named sets of permissions) and grants (who holds which role, where), for their system-wide holders. */
function RolesPageBody() {
  const t = useT();
  usePageTitle(t('staff.roles.title'));
  const { system } = useStaffAccess();
  const mayReadRoles = system.has('role:read') || system.has('role:manage');
  return (
    <section className="staff-roles">
      <h1 className="page-title">{t('staff.roles.title')}</h1>
      {mayReadRoles && <RolesSection mayManage={system.has('role:manage')} />}
      {(system.has('grant:read:all') || system.has('grant:update')) && (
        <GrantsSection mayRead={system.has('grant:read:all')} mayGive={system.has('grant:update')} mayReadRoles={mayReadRoles} />
      )}
    </section>
  );
}

export default function RolesPage() {
  return (
    <AdminGate keys={['role:read', 'role:manage', 'grant:read:all']}>
      <RolesPageBody />
    </AdminGate>
  );
}
