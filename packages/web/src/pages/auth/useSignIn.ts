import { ops } from '@judge/sdk/browser';
import { useState, type FormEvent } from 'react';
import { call, isProblem } from '../../api/client';
import type { useT } from '../../i18n/I18n';
import type { SecondStep } from './SecondFactor';

interface Options {
  t: ReturnType<typeof useT>;
  /** Whether "Keep me signed in" is ticked: a persistent cookie (and a remembered browser), else one for this browser session. */
  remember: boolean;
  /** Takes the new session in and goes on to the page asked for. */
  signedIn(): Promise<void>;
}

/**
 * The sign-in form's state and its sending: the password first, and for an account with
 * two-factor sign-in (401 RequiresTwoFactor) a second step that sends the same login and password
 * again with the authenticator's code or a recovery code.
 */
export function useSignIn({ t, remember, signedIn }: Options) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | unknown>(null);
  // the right password, but the account may not sign in (yet): an address to confirm, or its time is over
  const [notAllowed, setNotAllowed] = useState(false);
  const [second, setSecond] = useState<SecondStep | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  // codes refused so far: the code field is made anew (empty, focused) after each
  const [attempt, setAttempt] = useState(0);

  /** Back to the password (another account, or a refusal the second step cannot mend: a lock, an address to confirm). */
  function backToPassword() {
    setSecond(null);
    setCode('');
    setCodeError(null);
    setPassword('');
  }

  function refused(err: unknown) {
    if (isProblem(err, 401) && err.detail === 'RequiresTwoFactor') return setSecond((s) => s ?? 'code');
    if (second && isProblem(err, 401) && err.detail === 'Failed') {
      // the password was right a moment ago: it is the code that is wrong
      setCodeError(t(second === 'code' ? 'auth.second.wrongCode' : 'auth.second.wrongRecovery'));
      setCode('');
      setAttempt((n) => n + 1);
      return;
    }
    if (isProblem(err, 401) && err.detail === 'NotAllowed') setNotAllowed(true);
    else if (isProblem(err, 401)) setError(t('auth.failed'));
    else if (isProblem(err, 429)) setError(t('auth.locked', { seconds: err.retryAfter ?? 60 }));
    else setError(err);
    // a wait or a lost connection keeps the second step; a refusal of the account does not
    if (!second) setPassword('');
    else if (isProblem(err, 401)) backToPassword();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotAllowed(false);
    setCodeError(null);
    if (second && !code.trim()) return setCodeError(t('auth.second.empty'));
    setBusy(true);
    const factor = second === 'code' ? { twoFactorCode: code.replace(/\s/g, '') } : second === 'recovery' ? { twoFactorRecoveryCode: code.trim() } : {};
    try {
      await call(ops.login, { query: remember ? { useCookies: 'true' } : { useSessionCookies: 'true' }, body: { email: login.trim(), password, ...factor } });
      await signedIn();
    } catch (err) {
      refused(err);
    } finally {
      setBusy(false);
    }
  }

  return {
    login,
    setLogin,
    password,
    setPassword,
    busy,
    error,
    notAllowed,
    second,
    code,
    setCode,
    codeError,
    attempt,
    submit,
    /** The app's code or a recovery code instead. */
    switchTo: (s: SecondStep) => (setSecond(s), setCode(''), setCodeError(null)),
    startOver: () => (backToPassword(), setError(null)),
  };
}
