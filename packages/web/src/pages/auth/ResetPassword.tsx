import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call, isProblem } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Field, fieldErrors } from './Field';
import { CODE_INPUT, forgotLink } from './mail-links';
import { useAuthPage } from './useAuthPage';

type T = ReturnType<typeof useT>;
interface Form {
  email: string;
  resetCode: string;
  newPassword: string;
  repeat: string;
}

interface Refusal {
  fields: Record<string, string[]>;
  /** The code did not work: said above the button, with the way to a new one. */
  codeInvalid: boolean;
  general: unknown;
}

function refusal(t: T, err: unknown): Refusal {
  // the server answers a wrong code and an address without an account alike, so the page cannot tell them apart either
  if (isProblem(err, undefined, 'identity.code.invalid')) return { fields: fieldErrors(undefined, { resetCode: t('reset.invalidField') }), codeInvalid: true, general: null };
  if (isProblem(err, 422) && err.errors) return { fields: fieldErrors(err.errors), codeInvalid: false, general: null };
  return { fields: {}, codeInvalid: false, general: err };
}

function ResetForm({ onDone }: { onDone(): void }) {
  const t = useT();
  const [params] = useSearchParams();
  const [f, setF] = useState<Form>({ email: params.get('email') ?? '', resetCode: params.get('code') ?? '', newPassword: '', repeat: '' });
  const [r, setR] = useState<Refusal>({ fields: {}, codeInvalid: false, general: null });
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Form) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });
  // a link from the message brings address and code: the reader has only the password left to type
  const fromLink = !!(f.email && f.resetCode && params.get('code'));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (f.newPassword !== f.repeat) return setR({ fields: { repeat: [t('reset.mismatch')] }, codeInvalid: false, general: null });
    setR({ fields: {}, codeInvalid: false, general: null });
    setBusy(true);
    try {
      await call(ops.resetPassword, { body: { email: f.email.trim(), resetCode: f.resetCode.trim(), newPassword: f.newPassword } });
      onDone();
    } catch (err) {
      setR(refusal(t, err));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="form" noValidate>
      <Field label={t('reset.email')} name="email" type="email" autoComplete="username" required value={f.email} onChange={set('email')} errors={r.fields.email} autoFocus={!f.email} />
      <Field label={t('reset.code')} name="code" {...CODE_INPUT} required value={f.resetCode} onChange={set('resetCode')} hint={t('reset.codeHint')} errors={r.fields.resetCode} autoFocus={!!f.email && !f.resetCode} />
      <Field label={t('reset.password')} name="newPassword" type="password" autoComplete="new-password" required value={f.newPassword} onChange={set('newPassword')} hint={t('reset.passwordHint')} errors={r.fields.newPassword} autoFocus={fromLink} />
      <Field label={t('reset.repeat')} name="repeat" type="password" autoComplete="new-password" required value={f.repeat} onChange={set('repeat')} errors={r.fields.repeat} />
      {r.codeInvalid && (
        <div className="error-box" role="alert">
          {t('reset.invalid')} <Link to={forgotLink(f.email)}>{t('reset.askAgain')}</Link>
        </div>
      )}
      {r.general !== null && <ErrorBox error={r.general} />}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('reset.busy') : t('reset.submit')}
      </button>
    </form>
  );
}

/**
 * Sets a new password with the mailed code (from the message's link, or typed). Every session of the
 * account ends, this browser's too when it was signed in as that account: the page says so.
 */
export default function ResetPassword() {
  const { t, linkTo } = useAuthPage('reset.title');
  const qc = useQueryClient();
  const [done, setDone] = useState(false);

  function finished() {
    setDone(true);
    // whoever this browser was signed in as, the header must not go on showing a session that may have ended
    void qc.invalidateQueries({ queryKey: keys.account });
  }

  return (
    <section className="narrow card">
      <h1>{t('reset.title')}</h1>
      {done ? (
        <>
          <div className="ok-box" role="status">
            <strong>{t('reset.done')}</strong> {t('reset.sessionsEnded')}
          </div>
          <p>
            <Link to={linkTo('/sign-in')}>{t('reset.signIn')}</Link>
          </p>
        </>
      ) : (
        <>
          <p>{t('reset.intro')}</p>
          <ResetForm onDone={finished} />
        </>
      )}
    </section>
  );
}
