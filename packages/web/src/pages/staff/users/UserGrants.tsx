import type { ManagedUser } from '@judge/contract';
import { useId } from 'react';
import { Link } from 'react-router';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { useUserGrants } from './queries';

/** The roles the account holds: system-wide, and in which activity. */
export function UserGrants({ user, mayRead, mayManage }: { user: ManagedUser; mayRead: boolean; mayManage: boolean }) {
  const t = useT();
  const id = useId();
  const q = useUserGrants(user.id, mayRead);
  if (!mayRead) return null;
  return (
    <section aria-labelledby={`${id}-h`} className="admin-part">
      <h2 id={`${id}-h`}>{t('staff.users.grants')}</h2>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {q.data && q.data.items.length === 0 && <p>{t('staff.users.noGrants')}</p>}
      {q.data && q.data.items.length > 0 && (
        <ul className="grant-list">
          {q.data.items.map((g) => (
            <li key={g.id} data-grant={g.id}>
              <strong>{g.roleName}</strong> · {g.activityName ?? t('staff.users.systemWide')}
            </li>
          ))}
        </ul>
      )}
      {mayManage && <Link to={`/staff/roles?user=${encodeURIComponent(user.id)}#grants`}>{t('staff.users.manageGrants')}</Link>}
    </section>
  );
}
