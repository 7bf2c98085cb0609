import { useAccount } from '../../app/session';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { AddressForm } from './AddressForm';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';
import { SessionsList } from './SessionsList';
import './account.css';

/** The signed-in user's own account: profile, address, password and sessions. */
export default function AccountPage() {
  const t = useT();
  usePageTitle(t('account.title'));
  const account = useAccount();
  if (account.isPending) return <Loading />;
  if (account.isError) return <ErrorBox error={account.error} />;
  if (!account.data) return null;
  return (
    <section className="account-page">
      <h1>{t('account.title')}</h1>
      <div className="account-forms">
        <div className="card">
          <ProfileForm account={account.data} />
        </div>
        <div className="card">
          <AddressForm />
        </div>
        {account.data.isLocal && (
          <div className="card">
            <PasswordForm />
          </div>
        )}
      </div>
      <SessionsList />
    </section>
  );
}
