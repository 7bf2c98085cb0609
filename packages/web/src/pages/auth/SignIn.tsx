import { ops } from '@judge/sdk/browser';
import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { call, isProblem } from '../../api/client';
import { ErrorBox } from '../../components/Status';
import { useAuthPage } from './useAuthPage';

export default function SignIn() {
  const { t, next, onTheWay, account, instance, linkTo, enter, goOn } = useAuthPage('auth.signIn.title');
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  // off unless the instance says otherwise: on a shared lab PC the next class must not start signed
  // in as the last student (a browser-session cookie ends when the browser closes)
  const [chosen, setRemember] = useState<boolean | null>(null);
  const remember = chosen ?? instance.data?.keepSignedInByDefault ?? false;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | unknown>(null);
  // the right password, but the account may not sign in (yet): an address to confirm, or its time is over
  const [notAllowed, setNotAllowed] = useState(false);

  if (account.data) return <Navigate to={next} replace />;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNotAllowed(false);
    try {
      await call(ops.login, { query: remember ? { useCookies: 'true' } : { useSessionCookies: 'true' }, body: { email: login.trim(), password } });
      await enter();
      goOn();
    } catch (err) {
      if (isProblem(err, 401) && err.detail === 'NotAllowed') setNotAllowed(true);
      else if (isProblem(err, 401)) setError(t('auth.failed'));
      else if (isProblem(err, 429)) setError(t('auth.locked', { seconds: err.retryAfter ?? 60 }));
      else setError(err);
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="narrow card">
      <h1>{t('auth.signIn.title')}</h1>
      {onTheWay && <p className="notice">{t('auth.continue')}</p>}
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          {t('auth.login')}
          <input name="login" autoComplete="username" required value={login} onChange={(e) => setLogin(e.target.value)} autoFocus />
        </label>
        <label>
          {t('auth.password')}
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label className="check">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> {t('auth.remember')}
        </label>
        {error !== null && (typeof error === 'string' ? <div className="error-box" role="alert">{error}</div> : <ErrorBox error={error} />)}
        {notAllowed && (
          <div className="error-box" role="alert">
            {t('auth.notAllowed')} <Link to="/confirm-email">{t('auth.confirmLink')}</Link>
          </div>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('auth.signingIn') : t('auth.submit')}
        </button>
      </form>
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
