import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, isProblem } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Field, fieldErrors } from '../auth/Field';

const EMPTY = { currentPassword: '', newPassword: '', repeat: '' };

/** Changes the password; the server ends every other session, which the page says. */
export function PasswordForm() {
  const t = useT();
  const qc = useQueryClient();
  const [f, setF] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<unknown>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });

  async function change(e: FormEvent) {
    e.preventDefault();
    setGeneral(null);
    if (f.newPassword !== f.repeat) return setErrors({ repeat: [t('account.mismatch')] });
    setErrors({});
    setState('busy');
    try {
      await call(ops.changePassword, { body: { currentPassword: f.currentPassword, newPassword: f.newPassword } });
      setF(EMPTY);
      setState('done');
      void qc.invalidateQueries({ queryKey: keys.sessions });
    } catch (err) {
      setState('idle');
      if (isProblem(err, undefined, 'account.password.wrong')) setErrors({ currentPassword: [t('account.wrongPassword')] });
      else if (isProblem(err, 422) && err.errors) setErrors(fieldErrors(err.errors));
      else setGeneral(err);
    }
  }

  return (
    <form className="form" onSubmit={(e) => void change(e)} aria-labelledby="account-password" noValidate>
      <h2 id="account-password">{t('account.password')}</h2>
      <p className="muted">{t('account.passwordNote')}</p>
      <Field label={t('account.currentPassword')} name="currentPassword" type="password" autoComplete="current-password" required value={f.currentPassword} onChange={set('currentPassword')} errors={errors.currentPassword} />
      <Field label={t('account.newPassword')} name="newPassword" type="password" autoComplete="new-password" required value={f.newPassword} onChange={set('newPassword')} hint={t('account.newPasswordHint')} errors={errors.newPassword} />
      <Field label={t('account.repeatPassword')} name="repeat" type="password" autoComplete="new-password" required value={f.repeat} onChange={set('repeat')} errors={errors.repeat} />
      {general !== null && <ErrorBox error={general} />}
      {state === 'done' && (
        <p className="ok-box" role="status">
          {t('account.passwordChanged')}
        </p>
      )}
      <button type="submit" className="primary" disabled={state === 'busy'}>
        {state === 'busy' ? t('account.changingPassword') : t('account.changePassword')}
      </button>
    </form>
  );
}
