import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { call, isProblem } from '../../api/client';
import { safeNext, startOver, useAccount, useInstance } from '../../app/session';
import { ErrorBox } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';

export default function SignIn() {
  const t = useT();
  usePageTitle(t('auth.signIn.title'));
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const qc = useQueryClient();
  const account = useAccount();
  const instance = useInstance();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | unknown>(null);

  if (account.data) return <Navigate to={next} replace />;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await call(ops.login, { query: remember ? { useCookies: 'true' } : { useSessionCookies: 'true' }, body: { email: login.trim(), password } });
      // the socket and every screen start over with the new session
      startOver(qc, await call(ops.getAccount));
      navigate(next, { replace: true });
    } catch (err) {
      if (isProblem(err, 401)) setError(t('auth.failed'));
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
      {params.get('next') && <p className="notice">{t('auth.continue')}</p>}
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
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('auth.signingIn') : t('auth.submit')}
        </button>
      </form>
      {instance.data?.localRegistrationEnabled && (
        <p>
          {t('auth.noAccount')} <Link to={`/register${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>{t('auth.registerLink')}</Link>
        </p>
      )}
    </section>
  );
}
