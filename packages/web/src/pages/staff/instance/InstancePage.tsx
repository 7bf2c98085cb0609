import { AdminGate } from '../AdminGate';
import { useInstance } from '../../../app/session';
import { useStaffAccess } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { BroadcastForm } from './BroadcastForm';
import { InstanceSettingsForm } from './InstanceSettingsForm';
import { MaintenanceForm } from './MaintenanceForm';
import '../users/users.css';
import './instance.css';

/**
 * The installation: its name and switches (instance:update), and for administrators the
 * maintenance level and a broadcast to everyone signed in.
 */
function InstancePageBody() {
  const t = useT();
  usePageTitle(t('staff.instance.title'));
  const instance = useInstance();
  const { system } = useStaffAccess();
  const admin = system.has('system:administrator');
  return (
    <section className="staff-instance">
      <h1 className="page-title">{t('staff.instance.title')}</h1>
      {instance.isPending && <Loading />}
      {instance.isError && <ErrorBox error={instance.error} />}
      <div className="admin-columns">
        {instance.data && <InstanceSettingsForm settings={instance.data} />}
        {admin && (
          <div className="admin-stack">
            <MaintenanceForm />
            <BroadcastForm />
          </div>
        )}
      </div>
    </section>
  );
}

export default function InstancePage() {
  return (
    <AdminGate keys={['instance:update']}>
      <InstancePageBody />
    </AdminGate>
  );
}
