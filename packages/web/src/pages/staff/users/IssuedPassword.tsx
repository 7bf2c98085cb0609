import type { IssuedCredentials } from '@judge/contract';
import { CopyButton } from '../../problem/CopyButton';
import { useT } from '../../../i18n/I18n';

/**
 * A password the server just made, shown this once: it lives only in the component's state, so
 * leaving the page forgets it (the server keeps only its hash).
 */
export function IssuedPassword({ issued, text }: { issued: IssuedCredentials; text: string }) {
  const t = useT();
  return (
    <div className="ok-box issued" role="status" data-issued={issued.username}>
      <p>{text}</p>
      <dl className="issued-facts">
        <dt>{t('staff.users.login')}</dt>
        <dd>
          <code>{issued.username}</code>
        </dd>
        <dt>{t('staff.users.password')}</dt>
        <dd>
          <code className="issued-password">{issued.password}</code> <CopyButton text={issued.password} label={`${t('staff.users.copy')}: ${t('staff.users.password')}`} />
        </dd>
      </dl>
    </div>
  );
}
