import { ops } from '@judge/sdk/browser';
import { useId, useState, type FormEvent } from 'react';
import { call, isProblem } from '../../api/client';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Field } from '../auth/Field';

/**
 * Deletes the caller's own account (when the instance allows it): what happens first, then the
 * password to confirm. The session ends with the account, so a fresh page opens at home, signed out.
 */
export function DeleteAccount() {
  const t = useT();
  const id = useId();
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [wrong, setWrong] = useState<string[] | undefined>(undefined);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function remove(e: FormEvent) {
    e.preventDefault();
    setWrong(undefined);
    setRefusal(null);
    setBusy(true);
    try {
      await call(ops.deleteAccount, { body: { password } });
      // a fresh page rather than a route change: nothing of the account stays in memory
      window.location.assign('/');
    } catch (err) {
      setBusy(false);
      if (isProblem(err, undefined, 'account.password.wrong')) setWrong([t('account.data.wrongPassword')]);
      else if (isProblem(err, undefined, 'account.lastAdministrator')) setRefusal(new Error(t('account.data.lastAdministrator')));
      else if (isProblem(err, undefined, 'account.deletion.disabled')) setRefusal(new Error(t('account.data.disabled')));
      else setRefusal(err);
    }
  }

  return (
    <section className="delete-account" aria-labelledby={`${id}-h`} data-delete-account>
      <h3 id={`${id}-h`}>{t('account.data.delete')}</h3>
      {!asking ? (
        <>
          <p className="muted">{t('account.data.deleteIntro')}</p>
          <button type="button" className="danger" onClick={() => setAsking(true)}>
            {t('account.data.deleteStart')}
          </button>
        </>
      ) : (
        <form className="form" onSubmit={(e) => void remove(e)} noValidate>
          <p className="warn-box">{t('account.data.deleteWhat')}</p>
          <Field
            label={t('account.data.deletePassword')}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            errors={wrong}
          />
          {refusal !== null && <ErrorBox error={refusal} />}
          <div className="confirm">
            <button type="submit" className="danger" disabled={busy || !password}>
              {busy ? t('account.data.deleting') : t('account.data.deleteYes')}
            </button>
            <button type="button" onClick={() => (setAsking(false), setPassword(''), setWrong(undefined), setRefusal(null))}>
              {t('account.data.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
