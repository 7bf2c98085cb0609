import type { ReactNode } from 'react';
import { useStaffAccess } from '../../app/permissions';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { TwoFactorRequiredHint } from '../account/TwoFactorRequired';

function NotYours({ keys }: { keys: readonly string[] }) {
  const t = useT();
  usePageTitle(t('staff.adminRefused.title'));
  return (
    <section className="staff-refused">
      <h1>{t('staff.adminRefused.title')}</h1>
      <p role="alert">{t('staff.adminRefused.text', { keys: keys.join(', ') })}</p>
      <TwoFactorRequiredHint />
    </section>
  );
}

/**
 * An administration page only for holders of one of `keys` system-wide: anybody else (a manager
 * of one activity who types the address) reads why, and the page asks the server nothing.
 */
export function AdminGate({ keys, children }: { keys: readonly string[]; children: ReactNode }) {
  const { system } = useStaffAccess();
  return keys.some((k) => system.has(k)) ? <>{children}</> : <NotYours keys={keys} />;
}
