import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ErrorBox } from '../../components/Status';
import { ProviderSignIn, useProviderRedirect } from './ProviderSignIn';
import { SecondFactor } from './SecondFactor';
import { useAuthPage } from './useAuthPage';
import { useSignIn } from './useSignIn';

export default function SignIn() {
  const { t, next, onTheWay, account, instance, linkTo, enter, goOn } = useAuthPage('auth.signIn.title');
  // off unless the instance says otherwise: on a shared lab PC the next class must not start signed
  // in as the last student (a browser-session cookie ends when the browser closes)
  const [chosen, setRemember] = useState<boolean | null>(null);
  const remember = chosen ?? instance.data?.keepSignedInByDefault ?? false;
  const f = useSignIn({ t, remember, signedIn: async () => (await enter(), goOn()) });
  const [params] = useSearchParams();
  const providers = instance.data?.providers ?? [];
  // showLocalSignIn off: the password form is for the few without the school's accounts, behind ?local=1
  const local = instance.data?.showLocalSignIn !== false || params.get('local') === '1' || providers.length === 0;
  const leaving = useProviderRedirect(account.data ? undefined : instance.data?.signInRedirectProvider, next, remember);

  if (account.data) return <Navigate to={next} replace />;
  if (leaving) return <p className="notice">{t('auth.provider.leaving')}</p>;

  return (
    <section className="narrow card">
      <h1>{t('auth.signIn.title')}</h1>
      {onTheWay && <p className="notice">{t('auth.continue')}</p>}
      {!f.second && <ProviderSignIn providers={providers} next={next} remember={remember} local={local} />}
      {local && (
      <form onSubmit={(e) => void f.submit(e)} className="form" noValidate={f.second !== null}>
        {f.second ? (
          <SecondFactor step={f.second} login={f.login.trim()} value={f.code} onChange={f.setCode} error={f.codeError} remember={remember} attempt={f.attempt} onSwitch={f.switchTo} />
        ) : (
          <>
            <label>
              {t('auth.login')}
              <input name="login" autoComplete="username" required value={f.login} onChange={(e) => f.setLogin(e.target.value)} autoFocus />
            </label>
            <label>
              {t('auth.password')}
              <input name="password" type="password" autoComplete="current-password" required value={f.password} onChange={(e) => f.setPassword(e.target.value)} />
            </label>
          </>
        )}
        <label className="check">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> {t('auth.remember')}
        </label>
        {f.error !== null && (typeof f.error === 'string' ? <div className="error-box" role="alert">{f.error}</div> : <ErrorBox error={f.error} />)}
        {f.notAllowed && (
          <div className="error-box" role="alert">
            {t('auth.notAllowed')} <Link to="/confirm-email">{t('auth.confirmLink')}</Link>
          </div>
        )}
        <button type="submit" className="primary" disabled={f.busy}>
          {f.busy ? t('auth.signingIn') : t('auth.submit')}
        </button>
        {f.second && (
          <button type="button" className="link-button second-back" onClick={f.startOver}>
            {t('auth.second.back')}
          </button>
        )}
      </form>
      )}
      <p>
        <Link to={linkTo('/forgot-password')}>{t('forgot.link')}</Link>
      </p>
      {instance.data?.localRegistrationEnabled && (
        <p>
          {t('auth.noAccount')} <Link to={linkTo('/register')}>{t('auth.registerLink')}</Link>
        </p>
      )}
    </section>
  );
}
