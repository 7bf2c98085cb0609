import type { OperationOutput } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { call, isProblem } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox, Loading } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Field, fieldErrors } from '../auth/Field';
import { sameAddress } from '../auth/mail-links';

type ManageInfo = OperationOutput<typeof ops.getManageInfo>;

/** Mails a new confirmation link to the address in use, and says so. */
function ResendButton({ email }: { email: string }) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [error, setError] = useState<unknown>(null);

  async function resend() {
    setState('busy');
    setError(null);
    try {
      await call(ops.resendConfirmationEmail, { body: { email } });
      setState('sent');
    } catch (err) {
      setError(err);
      setState('idle');
    }
  }

  return (
    <>
      {error !== null && <ErrorBox error={error} />}
      {state === 'sent' && (
        <p className="ok-box" role="status">
          {t('account.resent', { email })}
        </p>
      )}
      <button type="button" onClick={() => void resend()} disabled={state === 'busy'}>
        {state === 'busy' ? t('account.resending') : t('account.resend')}
      </button>
    </>
  );
}

/** The address in use and whether it is confirmed: a confirmed one can receive a forgotten password's code. */
function Current({ info }: { info: ManageInfo }) {
  const t = useT();
  if (!info.email) return <p className="muted">{t('account.noAddress')}</p>;
  return (
    <>
      <p className="address-now">
        <span className="address">{info.email}</span> <span className={info.isEmailConfirmed ? 'badge ok' : 'badge warn'}>{info.isEmailConfirmed ? t('account.confirmed') : t('account.unconfirmed')}</span>
      </p>
      {!info.isEmailConfirmed && (
        <>
          <p className="muted">
            {t('account.unconfirmedNote')} <Link to="/confirm-email">{t('account.typeCode')}</Link>
          </p>
          <ResendButton email={info.email} />
        </>
      )}
    </>
  );
}

/**
 * The account's address. A new one is not taken at once: a code is mailed to it, and it replaces the
 * old one only when that code is confirmed, so a typo never cuts the account off its mailbox.
 */
export function AddressForm() {
  const t = useT();
  const qc = useQueryClient();
  const info = useQuery({ queryKey: keys.manageInfo, queryFn: () => call(ops.getManageInfo) });
  const [newEmail, setNewEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<unknown>(null);
  const [state, setState] = useState<'idle' | 'busy' | { mailedTo: string }>('idle');

  async function change(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setGeneral(null);
    const to = newEmail.trim();
    // the server would take it without a word and mail nothing: the reader is told instead
    if (to && info.data?.isEmailConfirmed && sameAddress(to, info.data.email)) return setErrors({ newEmail: [t('account.sameAddress')] });
    setState('busy');
    try {
      qc.setQueryData(keys.manageInfo, await call(ops.updateManageInfo, { body: { newEmail: to } }));
      setNewEmail('');
      setState({ mailedTo: to });
    } catch (err) {
      setState('idle');
      if (isProblem(err, undefined, 'user.email.taken')) setErrors({ newEmail: [t('account.taken.email')] });
      else if (isProblem(err, 422) && err.errors) setErrors(fieldErrors(err.errors));
      else setGeneral(err);
    }
  }

  return (
    <form className="form" onSubmit={(e) => void change(e)} aria-labelledby="account-address" noValidate>
      <h2 id="account-address">{t('account.email')}</h2>
      {info.isPending ? <Loading /> : info.isError ? <ErrorBox error={info.error} /> : <Current info={info.data} />}
      <Field label={t('account.newEmail')} name="newEmail" type="email" autoComplete="email" required value={newEmail} onChange={(e) => setNewEmail(e.target.value)} hint={t('account.newEmailHint')} errors={errors.newEmail} />
      {general !== null && <ErrorBox error={general} />}
      {typeof state === 'object' && (
        <p className="ok-box" role="status">
          {t('account.mailedTo', { email: state.mailedTo })}
        </p>
      )}
      <button type="submit" className="primary" disabled={state === 'busy'}>
        {state === 'busy' ? t('account.changingAddress') : t('account.changeAddress')}
      </button>
    </form>
  );
}
