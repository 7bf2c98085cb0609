import { useAccount } from '../../app/session';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { AddressForm } from './AddressForm';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';
import { SessionsList } from './SessionsList';
import { TwoFactorForm } from './TwoFactorForm';
import { TwoFactorRequired } from './TwoFactorRequired';
import { useTwoFactor } from './useTwoFactor';
import { YourData } from './YourData';
import './account.css';

/** The signed-in user's own account: profile, address, password, two-factor sign-in, their data and sessions. */
export default function AccountPage() {
  const t = useT();
  usePageTitle(t('account.title'));
  const account = useAccount();
  const twoFactor = useTwoFactor(!!account.data?.isLocal);
  if (account.isPending) return <Loading />;
  if (account.isError) return <ErrorBox error={account.error} />;
  if (!account.data) return null;
  return (
    <section className="account-page">
      <h1>{t('account.title')}</h1>
      {account.data.isLocal && twoFactor.data?.required && !twoFactor.data.isTwoFactorEnabled && <TwoFactorRequired link="#two-factor" />}
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
        {account.data.isLocal && (
          <div className="card">
            <TwoFactorForm username={account.data.username} />
          </div>
        )}
        <div className="card">
          <YourData account={account.data} />
        </div>
      </div>
      <SessionsList />
    </section>
  );
}
