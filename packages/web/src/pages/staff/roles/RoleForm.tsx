import type { Role } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useAllActivities } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import type { PermissionInfo } from './model';
import { PermissionPicker } from './PermissionPicker';

export interface RoleDraft {
  name: string;
  description: string;
  activityId: string;
  permissions: string[];
}

export const EMPTY_ROLE: RoleDraft = { name: '', description: '', activityId: '', permissions: [] };

export const draftOfRole = (r: Role): RoleDraft => ({ name: r.name, description: r.description ?? '', activityId: r.activityId ?? '', permissions: r.permissions });

/**
 * Creates a role (editing is null) or changes one. What the server refuses (a taken name, a key
 * the reader does not hold) is said above the button and the form keeps what was chosen.
 */
export function RoleForm({ editing, initial, catalogue, done }: { editing: Role | null; initial: RoleDraft; catalogue: readonly PermissionInfo[]; done(message: string): void }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const activities = useAllActivities(!editing);
  const [d, setD] = useState<RoleDraft>(initial);
  const chosen = new Set(d.permissions);
  const send = useFormSend();
  const toggle = (key: string, on: boolean) => setD({ ...d, permissions: on ? [...d.permissions, key] : d.permissions.filter((k) => k !== key) });
  const onSubmit = send.submit(async () => {
    const body = { name: d.name.trim(), permissions: d.permissions, ...(d.description.trim() ? { description: d.description.trim() } : {}) };
    const saved = editing
      ? await call(ops.updateRole, { params: { id: editing.id }, body })
      : await call(ops.createRole, { body: { ...body, ...(d.activityId ? { activityId: d.activityId } : {}) } });
    void qc.invalidateQueries({ queryKey: keys.roles });
    done(t(editing ? 'staff.roles.savedNow' : 'staff.roles.createdNow', { name: saved.name }));
  });
  return (
    <form className="form admin-form role-form card" onSubmit={onSubmit} aria-labelledby={`${id}-h`} data-role-form={editing?.id ?? 'new'}>
      <h3 id={`${id}-h`}>{editing ? t('staff.roles.editTitle', { name: editing.name }) : t('staff.roles.createTitle')}</h3>
      <label htmlFor={`${id}-name`}>
        {t('staff.roles.name')}
        <input id={`${id}-name`} value={d.name} maxLength={64} required autoFocus onChange={(e) => setD({ ...d, name: e.target.value })} />
      </label>
      <label htmlFor={`${id}-desc`}>
        {t('staff.roles.description')}
        <input id={`${id}-desc`} value={d.description} maxLength={500} onChange={(e) => setD({ ...d, description: e.target.value })} />
      </label>
      {!editing && (
        <>
          <label htmlFor={`${id}-scope`}>
            {t('staff.roles.scope')}
            <select id={`${id}-scope`} value={d.activityId} onChange={(e) => setD({ ...d, activityId: e.target.value })} aria-describedby={`${id}-scope-help`}>
              <option value="">{t('staff.roles.scopeEverywhere')}</option>
              {(activities.data?.items ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
          <p id={`${id}-scope-help`} className="muted field-help">
            {t('staff.roles.scopeHelp')}
          </p>
        </>
      )}
      <fieldset className="permission-fieldset">
        <legend>
          {t('staff.roles.permissions')} <span className="muted">({t('staff.roles.chosen', { count: chosen.size })})</span>
        </legend>
        <PermissionPicker catalogue={catalogue} chosen={chosen} toggle={toggle} />
      </fieldset>
      {chosen.size === 0 && <p className="muted">{t('staff.roles.pickOne')}</p>}
      <div className="confirm">
        <button type="submit" className="primary" disabled={send.busy || !d.name.trim() || chosen.size === 0}>
          {editing ? t('staff.roles.save') : t('staff.roles.create')}
        </button>
        <button type="button" onClick={() => done('')}>
          {t('staff.cancel')}
        </button>
      </div>
      {send.error !== null && <ErrorBox error={send.error} />}
    </form>
  );
}
