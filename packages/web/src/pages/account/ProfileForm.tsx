import type { Account } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { call, isProblem } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Field, fieldErrors } from '../auth/Field';

type T = ReturnType<typeof useT>;

function refusal(t: T, err: unknown): Record<string, string[]> | null {
  // the instance stopped allowing it while the page was open: said at the field, the account read again
  if (isProblem(err, undefined, 'account.nameFixed')) return fieldErrors(undefined, { [err.errors?.username ? 'username' : 'firstName']: t('account.fixedNow') });
  if (isProblem(err, undefined, 'user.username.taken')) return fieldErrors(undefined, { username: t('account.taken.username') });
  if (isProblem(err, 422) && err.errors) return fieldErrors(err.errors);
  return null;
}

/** Why the login or the name cannot be changed here, or nothing when both can. */
function fixedReason(t: T, a: Account): string | undefined {
  if (a.mayChangeName && (a.mayChangeUsername || !a.isLocal)) return a.isLocal ? undefined : t('account.usernameFixed');
  return t(a.origin === 'self' ? 'account.fixed.self' : 'account.fixed.staff');
}

/**
 * Names and the user name, saved with PUT /account; the address has a form of its own (AddressForm),
 * since a new one is used only once confirmed. What the owner may not change (a class's accounts
 * keep what the teacher gave them; a provider sets its accounts' logins) is shown read-only with one
 * line saying why, and not sent; with nothing left to change, there is nothing to save either.
 */
export function ProfileForm({ account }: { account: Account }) {
  const t = useT();
  const qc = useQueryClient();
  const [f, setF] = useState({ firstName: account.firstName ?? '', lastName: account.lastName ?? '', username: account.username });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<unknown>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'saved'>('idle');
  const whyId = useId();
  const why = fixedReason(t, account);
  const fixed = (may: boolean) => (may ? {} : { readOnly: true, 'aria-describedby': whyId });
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
      const body = {
        ...(account.mayChangeName ? { firstName: f.firstName.trim() || null, lastName: f.lastName.trim() || null } : {}),
        ...(account.mayChangeUsername ? { username: f.username.trim() } : {}),
      };
      qc.setQueryData(keys.account, await call(ops.updateAccount, { body }));
      setState('saved');
    } catch (err) {
      const fields = refusal(t, err);
      if (fields) setErrors(fields);
      else setGeneral(err);
      if (isProblem(err, undefined, 'account.nameFixed')) void qc.invalidateQueries({ queryKey: keys.account });
      setState('idle');
    }
  }

  return (
    <form className="form" onSubmit={(e) => void save(e)} aria-labelledby="account-profile" noValidate>
      <h2 id="account-profile">{t('account.profile')}</h2>
      {why && (
        <p id={whyId} className="notice account-fixed">
          {why}
        </p>
      )}
      <Field label={t('account.firstName')} name="firstName" autoComplete="given-name" value={f.firstName} onChange={set('firstName')} errors={errors.firstName} {...fixed(account.mayChangeName)} />
      <Field label={t('account.lastName')} name="lastName" autoComplete="family-name" value={f.lastName} onChange={set('lastName')} errors={errors.lastName} {...fixed(account.mayChangeName)} />
      <Field label={t('account.username')} name="username" autoComplete="username" value={f.username} onChange={set('username')} errors={errors.username} {...fixed(account.mayChangeUsername)} />
      {general !== null && <ErrorBox error={general} />}
      {state === 'saved' && (
        <p className="ok-box" role="status">
          {t('account.saved')}
        </p>
      )}
      {(account.mayChangeName || account.mayChangeUsername) && (
        <button type="submit" className="primary" disabled={state === 'busy'}>
          {state === 'busy' ? t('account.saving') : t('account.save')}
        </button>
      )}
    </form>
  );
}
