import type { IssuedCredentials } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../../api/client';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { IssuedPassword } from './IssuedPassword';

const EMPTY = { username: '', firstName: '', lastName: '', email: '' };

/** Makes one account; the server generates its password, shown here once. */
export function CreateUserForm() {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [d, setD] = useState(EMPTY);
  const [issued, setIssued] = useState<IssuedCredentials | null>(null);
  const send = useFormSend();
  // blank fields are left out, not sent empty
  const optional = (k: 'firstName' | 'lastName' | 'email') => (d[k].trim() ? { [k]: d[k].trim() } : {});
  const onSubmit = send.submit(async () => {
    setIssued(null);
    const body = { username: d.username.trim(), ...optional('firstName'), ...optional('lastName'), ...optional('email') };
    const made = await call(ops.createUser, { body });
    setIssued(made);
    // the form empties only when it went through: a refusal keeps what was typed
    setD(EMPTY);
    void qc.invalidateQueries({ queryKey: ['managedUsers'] });
  });
  const field = (k: keyof typeof EMPTY, label: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label htmlFor={`${id}-${k}`}>
      {label}
      <input id={`${id}-${k}`} value={d[k]} onChange={(e) => setD({ ...d, [k]: e.target.value })} {...extra} />
    </label>
  );
  return (
    <section className="card admin-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.users.create')}</h2>
      <form className="form admin-form" onSubmit={onSubmit}>
        {field('username', t('staff.users.login'), { required: true, minLength: 2, maxLength: 64, autoComplete: 'off', 'aria-describedby': `${id}-uhelp` })}
        <p id={`${id}-uhelp`} className="muted field-help">
          {t('staff.users.loginHelp')}
        </p>
        <div className="admin-form-row">
          {field('firstName', t('staff.users.firstName'), { maxLength: 100 })}
          {field('lastName', t('staff.users.lastName'), { maxLength: 100 })}
        </div>
        {field('email', t('staff.users.email'), { type: 'email', maxLength: 254 })}
        <button type="submit" className="primary" disabled={send.busy || d.username.trim().length < 2}>
          {t('staff.users.createButton')}
        </button>
        {send.error !== null && <ErrorBox error={send.error} />}
      </form>
      {issued && (
        <>
          <IssuedPassword issued={issued} text={t('staff.users.created.text', { username: issued.username })} />
          <Link to={`/staff/users/${issued.userId}`}>{t('staff.users.openAccount')}</Link>
        </>
      )}
      <JudgectlHint command="judgectl users create <login> --first-name … --last-name … --email …" />
    </section>
  );
}
