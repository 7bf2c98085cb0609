import { ops } from '@judge/sdk/browser';
import { useId, useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { call, isProblem } from '../../api/client';
import { useInstance } from '../../app/session';
import { ErrorBox, Loading } from '../../components/Status';
import { useI18n, useT } from '../../i18n/I18n';
import { documentsFor } from '../../app/instance-look';
import { Field, fieldErrors } from './Field';
import { useAuthPage } from './useAuthPage';
import { useProviderRedirect } from './ProviderSignIn';

type T = ReturnType<typeof useT>;
interface Form {
  email: string;
  username: string;
  password: string;
  repeat: string;
  acceptedTerms: boolean;
}

/** The server's refusal as messages per field, or what to show above the form. */
function refusal(t: T, err: unknown): { fields: Record<string, string[]>; general: unknown } {
  if (isProblem(err, undefined, 'user.email.taken')) return { fields: fieldErrors(undefined, { email: t('register.taken.email') }), general: null };
  if (isProblem(err, undefined, 'user.username.taken')) return { fields: fieldErrors(undefined, { username: t('register.taken.username') }), general: null };
  if (isProblem(err, undefined, 'registration.closed')) return { fields: {}, general: t('register.closed') };
  if (isProblem(err, 422)) return { fields: fieldErrors(err.errors), general: err.errors ? null : err };
  return { fields: {}, general: err };
}

/** The terms of use in force, linked, to accept before the account is made. */
function TermsCheckbox({ title, checked, onChange, errors }: { title: string; checked: boolean; onChange(v: boolean): void; errors: string[] | undefined }) {
  const t = useT();
  const id = useId();
  return (
    <div className="field check-field">
      <input id={id} type="checkbox" name="acceptedTerms" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-invalid={errors ? true : undefined} aria-describedby={errors ? `${id}-error` : undefined} />
      <label htmlFor={id}>
        {t('register.terms.accept')}{' '}
        <Link to="/documents/terms" target="_blank" rel="noopener">
          {title}
        </Link>
      </label>
      {errors && (
        <small id={`${id}-error`} className="field-error">
          {errors.join(' ')}
        </small>
      )}
    </div>
  );
}

/** What the new account waits for before it may take part: nothing, an administrator's approval, or its address confirmed. */
type Outcome = 'ready' | 'approval' | 'confirm';

/**
 * Creates the account, then signs in with it, unless the instance wants the address confirmed
 * first: then the server would refuse the sign-in until the mailed link is followed.
 */
async function registerAndSignIn(f: Form, instance: { requireApproval?: boolean; requireConfirmedEmail?: boolean } | undefined): Promise<Outcome> {
  const username = f.username.trim();
  await call(ops.register, { body: { email: f.email.trim(), password: f.password, ...(username ? { username } : {}), ...(f.acceptedTerms ? { acceptedTerms: true } : {}) } });
  if (instance?.requireConfirmedEmail) return 'confirm';
  await call(ops.login, { query: { useCookies: 'true' }, body: { email: f.email.trim(), password: f.password } });
  return instance?.requireApproval ? 'approval' : 'ready';
}

function RegisterForm({ onDone }: { onDone(outcome: Outcome, email: string): void }) {
  const t = useT();
  const instance = useInstance();
  const [f, setF] = useState<Form>({ email: '', username: '', password: '', repeat: '', acceptedTerms: false });
  const { lang } = useI18n();
  const terms = documentsFor(instance.data, lang).get('terms');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Form) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setGeneral(null);
    if (f.password !== f.repeat) return setErrors({ repeat: [t('register.mismatch')] });
    if (terms && !f.acceptedTerms) return setErrors({ acceptedTerms: [t('register.terms.required')] });
    setErrors({});
    setBusy(true);
    try {
      onDone(await registerAndSignIn(f, instance.data), f.email.trim());
    } catch (err) {
      const r = refusal(t, err);
      setErrors(r.fields);
      setGeneral(r.general);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="form" noValidate>
      <Field label={t('register.email')} name="email" type="email" autoComplete="email" required value={f.email} onChange={set('email')} errors={errors.email} autoFocus />
      <Field label={t('register.username')} name="username" autoComplete="username" value={f.username} onChange={set('username')} hint={t('register.usernameHint')} errors={errors.username} />
      <Field label={t('register.password')} name="password" type="password" autoComplete="new-password" required value={f.password} onChange={set('password')} hint={t('register.passwordHint')} errors={errors.password} />
      <Field label={t('register.repeat')} name="repeat" type="password" autoComplete="new-password" required value={f.repeat} onChange={set('repeat')} errors={errors.repeat} />
      {terms && <TermsCheckbox title={terms.title} checked={f.acceptedTerms} onChange={(acceptedTerms) => setF({ ...f, acceptedTerms })} errors={errors.acceptedTerms} />}
      {general !== null && (typeof general === 'string' ? <div className="error-box" role="alert">{general}</div> : <ErrorBox error={general} />)}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('register.busy') : t('register.submit')}
      </button>
    </form>
  );
}

/** Self-registration, when the instance takes it; the new account is signed in at once unless its address needs confirming first. */
export default function Register() {
  const { t, next, account, instance, linkTo, enter, goOn } = useAuthPage('register.title');
  const [waiting, setWaiting] = useState<{ outcome: 'approval' | 'confirm'; email: string } | null>(null);
  // the instance's provider makes the account at its first sign-in there
  const leaving = useProviderRedirect(account.data ? undefined : instance.data?.registerRedirectProvider, next, false);

  async function done(outcome: Outcome, email: string) {
    // said before the account arrives, which would otherwise send the page straight on
    if (outcome !== 'ready') setWaiting({ outcome, email });
    if (outcome === 'confirm') return;
    await enter();
    if (outcome === 'ready') goOn();
  }

  if (waiting?.outcome === 'approval') {
    return (
      <section className="narrow card">
        <h1>{t('register.title')}</h1>
        <p className="notice" role="status">{t('register.approval')}</p>
        <Link to={next}>{t('register.continue')}</Link>
      </section>
    );
  }
  if (waiting?.outcome === 'confirm') {
    return (
      <section className="narrow card">
        <h1>{t('register.title')}</h1>
        <p className="ok-box" role="status">{t('register.confirm', { email: waiting.email })}</p>
        <p>
          {t('register.noMail')} <Link to="/confirm-email">{t('register.askAgain')}</Link>
        </p>
        <p>
          <Link to={linkTo('/sign-in')}>{t('register.signIn')}</Link>
        </p>
      </section>
    );
  }
  if (account.data) return <Navigate to={next} replace />;
  if (instance.isPending) return <Loading />;
  if (leaving) return <p className="notice">{t('auth.provider.leaving')}</p>;
  return (
    <section className="narrow card">
      <h1>{t('register.title')}</h1>
      {instance.data?.localRegistrationEnabled === false ? <p className="notice">{t('register.closed')}</p> : <RegisterForm onDone={(o, email) => void done(o, email)} />}
      <p>
        {t('register.haveAccount')} <Link to={linkTo('/sign-in')}>{t('register.signIn')}</Link>
      </p>
    </section>
  );
}
