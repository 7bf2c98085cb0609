import type { Role } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { sortRoles } from './model';

function RoleItem({ role, mayManage, onEdit }: { role: Role; mayManage: boolean; onEdit(): void }) {
  const t = useT();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => call(ops.deleteRole, { params: { id: role.id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.roles }),
  });
  return (
    <li className="card role" data-role={role.name}>
      <header className="role-head">
        <h3>{role.name}</h3>
        {role.isBuiltIn && <span className="badge">{t('staff.roles.builtIn')}</span>}
        {role.activityName && <span className="badge">{t('staff.roles.onlyIn', { activity: role.activityName })}</span>}
      </header>
      {role.description && <p>{role.description}</p>}
      <p className="muted">
        {t('staff.roles.permissionCount', { count: role.permissions.length })} · {role.grants ? t('staff.roles.grantCount', { count: role.grants }) : t('staff.roles.notGranted')}
      </p>
      <details>
        <summary>{t('staff.roles.showPermissions')}</summary>
        <p className="role-keys">
          {role.permissions.map((k) => (
            <code key={k}>{k}</code>
          ))}
        </p>
      </details>
      {mayManage && (
        <div className="confirm">
          <button type="button" onClick={onEdit}>
            {t('staff.roles.edit')}
          </button>
          {/* built-in roles can be edited but never deleted; the server refuses it anyway */}
          {!role.isBuiltIn && !confirming && (
            <button type="button" className="danger" onClick={() => setConfirming(true)} disabled={role.grants > 0} aria-describedby={role.grants > 0 ? `in-use-${role.id}` : undefined}>
              {t('staff.roles.delete')}
            </button>
          )}
          {role.grants > 0 && !role.isBuiltIn && (
            <span id={`in-use-${role.id}`} className="muted">
              {t('staff.roles.inUse')}
            </span>
          )}
          {confirming && (
            <span className="confirm" role="group" aria-label={t('staff.roles.deleteConfirm', { name: role.name })}>
              <span>{t('staff.roles.deleteConfirm', { name: role.name })}</span>
              <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending} autoFocus>
                {t('staff.roles.deleteYes')}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                {t('staff.cancel')}
              </button>
            </span>
          )}
        </div>
      )}
      {remove.isError && <ErrorBox error={remove.error} />}
    </li>
  );
}

export function RoleList({ roles, mayManage, onEdit }: { roles: readonly Role[]; mayManage: boolean; onEdit(role: Role): void }) {
  return (
    <ul className="role-list">
      {sortRoles(roles).map((r) => (
        <RoleItem key={r.id} role={r} mayManage={mayManage} onEdit={() => onEdit(r)} />
      ))}
    </ul>
  );
}
