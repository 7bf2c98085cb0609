import { ops } from '@judge/sdk/browser';
import { useId, useState, type FormEvent } from 'react';
import { call, isProblem } from '../../api/client';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Field, fieldErrors } from './Field';
import { CODE_INPUT, sameAddress } from './mail-links';
import { useAddressRequest } from './useAddressRequest';

type T = ReturnType<typeof useT>;

/**
 * Asks for a new confirmation message. The server answers alike whether an unconfirmed account has
 * the address, and so does the page. Below the typed code's form it is the second way, not the first
 * (`primary` off).
 */
export function ResendForm({ intro, initialEmail = '', primary = true }: { intro: string; initialEmail?: string | undefined; primary?: boolean }) {
  const t = useT();
  const titleId = useId();
  const { email, setEmail, errors, general, state, submit } = useAddressRequest((address) => call(ops.resendConfirmationEmail, { body: { email: address } }), initialEmail);

  return (
    <form onSubmit={(e) => void submit(e)} className="form" noValidate aria-labelledby={titleId}>
      <h2 id={titleId}>{t('confirm.resendTitle')}</h2>
      <p>{intro}</p>
      <Field
        label={t('confirm.email')}
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        errors={errors.email}
      />
      {general !== null && <ErrorBox error={general} />}
      {state === 'sent' && (
        <p className="ok-box" role="status">
          {t('confirm.resent')}
        </p>
      )}
      <button type="submit" className={primary ? 'primary' : undefined} disabled={state === 'busy'}>
        {state === 'busy' ? t('confirm.resending') : t('confirm.resend')}
      </button>
    </form>
  );
}

/** The server's refusal of a typed code, under the field it is about. */
function typedRefusal(t: T, err: unknown, email: string): Record<string, string[]> | null {
  if (isProblem(err, undefined, 'identity.code.invalid')) return { code: [t('confirm.codeInvalid')] };
  if (isProblem(err, undefined, 'user.email.taken')) return { email: [t('confirm.taken', { email: email.trim() })] };
  if (isProblem(err, 422) && err.errors) {
    // a new address travels as changedEmail, and is typed in the address field
    const { changedEmail, ...rest } = err.errors;
    return fieldErrors(changedEmail ? { ...rest, email: changedEmail } : rest);
  }
  return null;
}

/**
 * The signed-in reader types the code from the message instead of following its link (the link
 * carries the account's id, which only a session can stand in for). An address other than the
 * account's is a change of address, confirmed as the link with `changedEmail` would.
 */
export function TypeCodeForm({ userId, currentEmail, onConfirmed }: { userId: string; currentEmail: string; onConfirmed(changedEmail?: string): void }) {
  const t = useT();
  const titleId = useId();
  const [email, setEmail] = useState(currentEmail);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setGeneral(null);
    setBusy(true);
    const changedEmail = email.trim() && !sameAddress(email, currentEmail) ? email.trim() : undefined;
    try {
      await call(ops.confirmEmail, { query: { userId, code: code.trim(), ...(changedEmail ? { changedEmail } : {}) } });
      onConfirmed(changedEmail);
    } catch (err) {
      const fields = typedRefusal(t, err, email);
      if (fields) setErrors(fields);
      else setGeneral(err);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="form" noValidate aria-labelledby={titleId}>
      <h2 id={titleId}>{t('confirm.typeTitle')}</h2>
      <p>{t('confirm.typeIntro')}</p>
      <Field label={t('confirm.typeEmail')} name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} errors={errors.email} />
      <Field label={t('confirm.code')} name="code" {...CODE_INPUT} required value={code} onChange={(e) => setCode(e.target.value)} hint={t('reset.codeHint')} errors={errors.code} />
      {general !== null && <ErrorBox error={general} />}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('confirm.busy') : t('confirm.submit')}
      </button>
    </form>
  );
}
