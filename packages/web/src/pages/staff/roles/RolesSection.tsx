import type { Role } from '@judge/contract';
import { useId, useState } from 'react';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { coTeacherPermissions } from './model';
import { usePermissionCatalogue, useRoles } from './queries';
import { draftOfRole, EMPTY_ROLE, RoleForm, type RoleDraft } from './RoleForm';
import { RoleList } from './RoleList';

type Editing = { role: Role | null; initial: RoleDraft; n: number } | null;

/** The system roles, and the form that creates one (blank or from the co-teacher template) or edits one. */
export function RolesSection({ mayManage }: { mayManage: boolean }) {
  const t = useT();
  const id = useId();
  const roles = useRoles(true);
  const catalogue = usePermissionCatalogue();
  const [editing, setEditing] = useState<Editing>(null);
  const [said, setSaid] = useState('');
  // a counter in the key starts a fresh form each time one is opened, even over an open one
  const open = (role: Role | null, initial: RoleDraft) => (setSaid(''), setEditing({ role, initial, n: (editing?.n ?? 0) + 1 }));
  const coTeacher = () =>
    open(null, { ...EMPTY_ROLE, name: t('staff.roles.coTeacherName'), description: t('staff.roles.coTeacherDescription'), permissions: coTeacherPermissions(roles.data ?? []) });
  return (
    <section aria-labelledby={`${id}-h`} className="admin-part">
      <h2 id={`${id}-h`}>{t('staff.roles.roles')}</h2>
      <p className="muted">{t('staff.roles.intro')}</p>
      {mayManage && (
        <div className="role-starters">
          <button type="button" onClick={() => open(null, EMPTY_ROLE)}>
            {t('staff.roles.new')}
          </button>
          <button type="button" className="primary" onClick={coTeacher} disabled={!roles.data} aria-describedby={`${id}-co`}>
            {t('staff.roles.coTeacher')}
          </button>
          <span id={`${id}-co`} className="muted">
            {t('staff.roles.coTeacherHelp')}
          </span>
        </div>
      )}
      <p role="status">{said}</p>
      {editing && catalogue.data && (
        <RoleForm key={editing.n} editing={editing.role} initial={editing.initial} catalogue={catalogue.data} done={(m) => (setEditing(null), setSaid(m))} />
      )}
      {(roles.isPending || catalogue.isPending) && <Loading />}
      {roles.isError && <ErrorBox error={roles.error} />}
      {roles.data && <RoleList roles={roles.data} mayManage={mayManage} onEdit={(r) => open(r, draftOfRole(r))} />}
      <JudgectlHint command="judgectl roles list  ·  judgectl roles create <name> --permission <key>…  ·  judgectl roles edit <role>  ·  judgectl roles delete <role>" />
    </section>
  );
}
