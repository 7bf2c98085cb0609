import { AdminGate } from '../AdminGate';
import { useInstance } from '../../../app/session';
import { useStaffAccess } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { BroadcastForm } from './BroadcastForm';
import { DocumentsCard } from './DocumentsCard';
import { FontsCard } from './FontsCard';
import { KeysCard } from './KeysCard';
import { LogoCard } from './LogoCard';
import { RedirectsCard } from './RedirectsCard';
import { ThemeCard } from './ThemeCard';
import { InstanceSettingsForm } from './InstanceSettingsForm';
import { MaintenanceForm } from './MaintenanceForm';
import '../users/users.css';
import './instance.css';

/** The cards below the switches, by the anchor the page's contents link. */
const PARTS = [
  ['look-logo', 'staff.look.logo'],
  ['look-theme', 'staff.look.theme'],
  ['look-fonts', 'staff.look.fonts'],
  ['look-documents', 'staff.look.docs'],
  ['look-keys', 'staff.look.keys'],
  ['look-redirects', 'staff.look.redirects'],
] as const;

/**
 * The installation: its name and switches (instance:update), and for administrators the
 * maintenance level and a broadcast to everyone signed in; then its look, documents, access keys
 * and sign-in redirects, each a jump from the top.
 */
function InstancePageBody() {
  const t = useT();
  usePageTitle(t('staff.instance.title'));
  const instance = useInstance();
  const { system } = useStaffAccess();
  const admin = system.has('system:administrator');
  const providers = admin || system.has('provider:manage');
  return (
    <section className="staff-instance">
      <h1 className="page-title">{t('staff.instance.title')}</h1>
      {instance.isPending && <Loading />}
      {instance.isError && <ErrorBox error={instance.error} />}
      <nav className="page-contents" aria-label={t('staff.look.jump')}>
        {PARTS.filter(([anchor]) => anchor !== 'look-redirects' || providers).map(([anchor, label]) => (
          <a key={anchor} href={`#${anchor}`}>
            {t(label)}
          </a>
        ))}
      </nav>
      <div className="admin-columns">
        {instance.data && <InstanceSettingsForm settings={instance.data} />}
        {admin && (
          <div className="admin-stack">
            <MaintenanceForm />
            <BroadcastForm />
          </div>
        )}
      </div>
      {instance.data && (
        <div className="look-grid">
          <LogoCard settings={instance.data} />
          <ThemeCard key={instance.data.theme.custom ? 'custom' : 'own'} settings={instance.data} />
          <FontsCard settings={instance.data} />
          <DocumentsCard shownFiles={instance.data.documents.map((d) => d.fileId)} />
          <KeysCard />
          {providers && <RedirectsCard />}
        </div>
      )}
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
