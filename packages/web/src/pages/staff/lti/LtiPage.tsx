import { useState } from 'react';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { AdminGate } from '../AdminGate';
import { JudgectlHint } from '../JudgectlHint';
import { PlatformForm } from './PlatformForm';
import { PlatformList } from './PlatformList';
import { usePlatforms } from './queries';
import { RotateKey } from './RotateKey';
import '../activities/activities.css';
import '../users/users.css';
import '../providers/providers.css';
import './lti.css';

/**
 * The LMSs that open the judge from a course (LTI 1.3 platforms, decisions §21): each as a card
 * with what to enter in the LMS and a way to link an account to one of its people, a form that
 * registers or changes one, removal, and the judge's signing key.
 */
function LtiPageBody() {
  const t = useT();
  usePageTitle(t('staff.lti.title'));
  const platforms = usePlatforms();
  const [adding, setAdding] = useState(false);
  const [fresh, setFresh] = useState<string>();
  const [said, setSaid] = useState('');
  return (
    <section className="staff-lti">
      <h1 className="page-title">{t('staff.lti.title')}</h1>
      <p className="muted">{t('staff.lti.intro')}</p>
      {!adding && (
        <button type="button" className="primary" onClick={() => (setSaid(''), setAdding(true))}>
          {t('staff.lti.add')}
        </button>
      )}
      <p role="status" className="said">
        {said}
      </p>
      {adding && <PlatformForm done={(m, created) => (setAdding(false), setSaid(m), setFresh(created?.id))} />}
      {platforms.isPending && <Loading />}
      {platforms.isError && <ErrorBox error={platforms.error} />}
      {platforms.data && <PlatformList platforms={platforms.data} fresh={fresh} said={setSaid} />}
      <RotateKey />
      <JudgectlHint command="judgectl lti list  ·  judgectl lti add --display-name <text> --issuer <url> --client-id <id> --deployment-id <id> --key-set-url <url> --auth-token-url <url> --auth-login-url <url> [--identity-authority --identity-namespace <prefix>]  ·  judgectl lti show-registration <platform>  ·  judgectl lti link <platform> <subject> <user>  ·  judgectl lti remove <platform>  ·  judgectl lti rotate-key" />
    </section>
  );
}

export default function LtiPage() {
  return (
    <AdminGate keys={['provider:manage']}>
      <LtiPageBody />
    </AdminGate>
  );
}
