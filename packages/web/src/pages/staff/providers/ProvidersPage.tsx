import { useState } from 'react';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { AdminGate } from '../AdminGate';
import { JudgectlHint } from '../JudgectlHint';
import { ProviderForm } from './ProviderForm';
import { ProviderList } from './ProviderList';
import { useProviders } from './queries';
import '../activities/activities.css';
import '../users/users.css';
import './providers.css';

/**
 * The OpenID Connect providers accounts may sign in with (decisions §4): each as a card with the
 * callback URL to register at the provider, a form that adds or changes one, and removal.
 */
function ProvidersPageBody() {
  const t = useT();
  usePageTitle(t('staff.providers.title'));
  const providers = useProviders();
  const [adding, setAdding] = useState(false);
  const [said, setSaid] = useState('');
  return (
    <section className="staff-providers">
      <h1 className="page-title">{t('staff.providers.title')}</h1>
      <p className="muted">{t('staff.providers.intro')}</p>
      {!adding && (
        <button type="button" className="primary" onClick={() => (setSaid(''), setAdding(true))}>
          {t('staff.providers.add')}
        </button>
      )}
      <p role="status" className="said">
        {said}
      </p>
      {adding && <ProviderForm done={(m) => (setAdding(false), setSaid(m))} />}
      {providers.isPending && <Loading />}
      {providers.isError && <ErrorBox error={providers.error} />}
      {providers.data && <ProviderList providers={providers.data} said={setSaid} />}
      <JudgectlHint command="judgectl providers list  ·  judgectl providers add <slug> --name <text> --issuer <url> --client-id <id> [--client-secret-file <file>] [--claim <path> --rule <value=role>] [--default-role <role>]  ·  judgectl providers show <slug>  ·  judgectl providers remove <slug>" />
    </section>
  );
}

export default function ProvidersPage() {
  return (
    <AdminGate keys={['provider:manage']}>
      <ProvidersPageBody />
    </AdminGate>
  );
}
