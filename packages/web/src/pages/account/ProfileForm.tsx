import type { Account } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call, isProblem } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Field, fieldErrors } from '../auth/Field';

type T = ReturnType<typeof useT>;

function refusal(t: T, err: unknown): Record<string, string[]> | null {
  if (isProblem(err, undefined, 'user.email.taken')) return fieldErrors(undefined, { email: t('account.taken.email') });
  if (isProblem(err, undefined, 'user.username.taken')) return fieldErrors(undefined, { username: t('account.taken.username') });
  if (isProblem(err, 422) && err.errors) return fieldErrors(err.errors);
  return null;
}

/** Names, address and (for a local account) the user name, saved with PUT /account. */
export function ProfileForm({ account }: { account: Account }) {
  const t = useT();
  const qc = useQueryClient();
  const [f, setF] = useState({ firstName: account.firstName ?? '', lastName: account.lastName ?? '', email: account.email ?? '', username: account.username });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<unknown>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'saved'>('idle');
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setF({ ...f, [k]: e.target.value });
    if (state === 'saved') setState('idle');
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    setState('busy');
    setErrors({});
    setGeneral(null);
    try {
      const body = { firstName: f.firstName.trim() || null, lastName: f.lastName.trim() || null, email: f.email.trim() || null, ...(account.isLocal ? { username: f.username.trim() } : {}) };
      qc.setQueryData(keys.account, await call(ops.updateAccount, { body }));
      setState('saved');
    } catch (err) {
      const fields = refusal(t, err);
      if (fields) setErrors(fields);
      else setGeneral(err);
      setState('idle');
    }
  }

  return (
    <form className="form" onSubmit={(e) => void save(e)} aria-labelledby="account-profile" noValidate>
      <h2 id="account-profile">{t('account.profile')}</h2>
      <Field label={t('account.firstName')} name="firstName" autoComplete="given-name" value={f.firstName} onChange={set('firstName')} errors={errors.firstName} />
      <Field label={t('account.lastName')} name="lastName" autoComplete="family-name" value={f.lastName} onChange={set('lastName')} errors={errors.lastName} />
      <Field label={t('account.email')} name="email" type="email" autoComplete="email" value={f.email} onChange={set('email')} errors={errors.email} />
      <Field label={t('account.username')} name="username" autoComplete="username" value={f.username} onChange={set('username')} errors={errors.username} readOnly={!account.isLocal} hint={account.isLocal ? undefined : t('account.usernameFixed')} />
      {general !== null && <ErrorBox error={general} />}
      {state === 'saved' && (
        <p className="ok-box" role="status">
          {t('account.saved')}
        </p>
      )}
      <button type="submit" className="primary" disabled={state === 'busy'}>
        {state === 'busy' ? t('account.saving') : t('account.save')}
      </button>
    </form>
  );
}
