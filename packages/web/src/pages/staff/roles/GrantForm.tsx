import type { Role, UserLookup } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { useAllActivities } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { sortRoles } from './model';
import { UserPicker, userLabel } from './UserPicker';

/** Gives a user a role, system-wide or in one activity (where it replaces the role they held there). */
export function GrantForm({ roles }: { roles: readonly Role[] }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const activities = useAllActivities();
  const [user, setUser] = useState<UserLookup | null>(null);
  const [roleId, setRoleId] = useState('');
  const [activityId, setActivityId] = useState('');
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const role = roles.find((r) => r.id === roleId);
  // a role of one activity is granted there only
  const places = (activities.data?.items ?? []).filter((a) => !role?.activityId || a.id === role.activityId);
  const onSubmit = send.submit(async () => {
    setSaid('');
    const g = await call(ops.createGrant, { body: { userId: user!.id, roleId, ...(activityId ? { activityId } : {}) } });
    setSaid(t('staff.grants.given', { user: userLabel(user!), role: g.roleName, where: g.activityName ?? t('staff.grants.systemWide') }));
    void qc.invalidateQueries({ queryKey: ['grants'] });
    void qc.invalidateQueries({ queryKey: ['roles'] });
  });
  return (
    <form className="form admin-form card grant-form" onSubmit={onSubmit} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('staff.grants.give')}</h3>
      <p className="muted">{t('staff.grants.giveHelp')}</p>
      <UserPicker chosen={user} choose={setUser} />
      <div className="admin-form-row">
        <label htmlFor={`${id}-role`}>
          {t('staff.grants.role')}
          <select id={`${id}-role`} value={roleId} required onChange={(e) => (setRoleId(e.target.value), setActivityId(roles.find((r) => r.id === e.target.value)?.activityId ?? ''))}>
            <option value="">{t('staff.grants.pickRole')}</option>
            {sortRoles(roles).map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${id}-where`}>
          {t('staff.grants.where')}
          <select id={`${id}-where`} value={activityId} onChange={(e) => setActivityId(e.target.value)}>
            {!role?.activityId && <option value="">{t('staff.grants.systemWide')}</option>}
            {places.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <button type="submit" className="primary" disabled={send.busy || !user || !roleId}>
        {t('staff.grants.giveButton')}
      </button>
      {send.error !== null && <ErrorBox error={send.error} />}
      <p role="status">{said}</p>
    </form>
  );
}
