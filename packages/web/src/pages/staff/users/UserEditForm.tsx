import type { ManagedUser } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';

interface Draft {
  firstName: string;
  lastName: string;
  email: string;
  tags: string;
  note: string;
  expiresAt: string;
}

/** A datetime-local value (the reader's own zone) for an instant, and back. */
const toLocalInput = (iso: string | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : null);

const draftOf = (u: ManagedUser): Draft => ({
  firstName: u.firstName ?? '',
  lastName: u.lastName ?? '',
  email: u.email ?? '',
  tags: u.tags.join(', '),
  note: u.note ?? '',
  expiresAt: toLocalInput(u.expiresAt),
});

/** The body of PUT /users/{id}: a blank field clears it (null), tags split at commas. */
export function patchOf(d: Draft) {
  const orNull = (v: string) => (v.trim() ? v.trim() : null);
  return {
    firstName: orNull(d.firstName),
    lastName: orNull(d.lastName),
    email: orNull(d.email),
    note: orNull(d.note),
    tags: d.tags.split(',').map((s) => s.trim()).filter(Boolean),
    expiresAt: fromLocalInput(d.expiresAt),
  };
}

/** Names, address, tags, note and expiry of an account; what the server refuses stays in the form. */
export function UserEditForm({ user }: { user: ManagedUser }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [d, setD] = useState<Draft>(() => draftOf(user));
  const send = useFormSend();
  const onSubmit = send.submit(async () => {
    const saved = await call(ops.updateUser, { params: { id: user.id }, body: patchOf(d) });
    qc.setQueryData(keys.managedUser(user.id), saved);
    setD(draftOf(saved));
    void qc.invalidateQueries({ queryKey: ['managedUsers'] });
  });
  const field = (k: keyof Draft, label: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label htmlFor={`${id}-${k}`}>
      {label}
      <input id={`${id}-${k}`} value={d[k]} onChange={(e) => setD({ ...d, [k]: e.target.value })} {...extra} />
    </label>
  );
  return (
    <form className="form admin-form" onSubmit={onSubmit} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('staff.users.edit')}</h3>
      <div className="admin-form-row">
        {field('firstName', t('staff.users.firstName'), { maxLength: 100 })}
        {field('lastName', t('staff.users.lastName'), { maxLength: 100 })}
      </div>
      {field('email', t('staff.users.email'), { type: 'email', maxLength: 254 })}
      {field('tags', t('staff.users.tags'), { 'aria-describedby': `${id}-tags-help` })}
      <p id={`${id}-tags-help`} className="muted field-help">
        {t('staff.users.tagsHelp')}
      </p>
      <label htmlFor={`${id}-note`}>
        {t('staff.users.note')}
        <textarea id={`${id}-note`} rows={2} maxLength={2000} value={d.note} onChange={(e) => setD({ ...d, note: e.target.value })} />
      </label>
      {field('expiresAt', t('staff.users.expires'), { type: 'datetime-local', 'aria-describedby': `${id}-exp-help` })}
      <p id={`${id}-exp-help`} className="muted field-help">
        {t('staff.users.expiresHelp')}
      </p>
      <button type="submit" disabled={send.busy}>
        {t('staff.users.save')}
      </button>
      {send.error !== null && <ErrorBox error={send.error} />}
      <p role="status" className="muted">
        {send.sent && t('staff.users.saved')}
      </p>
    </form>
  );
}
