import type { Grant } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../../api/client';
import { useAllActivities, useStaffAccess } from '../../../app/permissions';
import { Pager } from '../../../components/Pager';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { useManagedUser } from '../users/queries';
import { GrantForm } from './GrantForm';
import { GRANTS_PAGE_SIZE, useGrants, useRoles } from './queries';

const OWN_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function GrantRow({ g, mayTake }: { g: Grant; mayTake: boolean }) {
  const t = useT();
  const qc = useQueryClient();
  const take = useMutation({
    mutationFn: () => call(ops.deleteGrant, { params: { id: g.id } }),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: ['grants'] }), qc.invalidateQueries({ queryKey: ['roles'] })]),
  });
  return (
    <tr data-grant={`${g.userName}/${g.roleName}`}>
      <th scope="row">
        <Link to={`/staff/users/${g.userId}`}>{g.userName}</Link>
      </th>
      <td>{g.roleName}</td>
      <td>{g.activityName ?? t('staff.grants.systemWide')}</td>
      <td className="wide-only">
        <Time iso={g.createdAt} timeZone={OWN_ZONE} />
      </td>
      <td>
        {mayTake && (
          <button type="button" onClick={() => take.mutate()} disabled={take.isPending} aria-label={t('staff.grants.takeLabel', { role: g.roleName, user: g.userName })}>
            {t('staff.grants.take')}
          </button>
        )}
        {take.isError && <ErrorBox error={take.error} />}
      </td>
    </tr>
  );
}

/** Who holds which role where, filtered by user or activity; give a role, take one back. */
export function GrantsSection({ mayRead, mayGive, mayReadRoles }: { mayRead: boolean; mayGive: boolean; mayReadRoles: boolean }) {
  const t = useT();
  const id = useId();
  const [params, setParams] = useSearchParams();
  const filter = { userId: params.get('user') ?? '', activityId: params.get('activity') ?? '', page: Math.max(1, Number(params.get('page')) || 1) };
  const set = (change: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) (v ? next.set(k, v) : next.delete(k));
    setParams(next, { replace: true });
  };
  const grants = useGrants(filter, mayRead);
  const roles = useRoles(mayReadRoles);
  const activities = useAllActivities();
  const pages = grants.data ? Math.max(1, Math.ceil(grants.data.total / GRANTS_PAGE_SIZE)) : 1;
  // the filtered user's name, also when they hold no grant (then only the account says it)
  const readsUsers = useStaffAccess().system.has('user:read:all');
  const account = useManagedUser(filter.userId, !!filter.userId && readsUsers);
  const userName = account.data?.username ?? grants.data?.items[0]?.userName ?? filter.userId;
  return (
    <section aria-labelledby={`${id}-h`} className="admin-part" id="grants">
      <h2 id={`${id}-h`}>{t('staff.grants.title')}</h2>
      {mayGive && roles.data && <GrantForm roles={roles.data} />}
      {mayRead && (
        <>
          <div className="staff-filters">
            <label htmlFor={`${id}-where`}>
              {t('staff.grants.filterActivity')}
              <select id={`${id}-where`} value={filter.activityId} onChange={(e) => set({ activity: e.target.value, page: '' })}>
                <option value="">{t('staff.grants.anywhere')}</option>
                {(activities.data?.items ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </label>
            {filter.userId && (
              <p>
                {t('staff.grants.filterUser')} <strong>{userName}</strong>{' '}
                <button type="button" className="link-button" onClick={() => set({ user: '', page: '' })}>
                  {t('staff.grants.showAll')}
                </button>
              </p>
            )}
          </div>
          {grants.isPending && <Loading />}
          {grants.isError && <ErrorBox error={grants.error} />}
          {grants.data && grants.data.items.length === 0 && <p>{t('staff.grants.none')}</p>}
          {grants.data && grants.data.items.length > 0 && (
            <div className="table-scroll">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('staff.grants.user')}</th>
                    <th scope="col">{t('staff.grants.role')}</th>
                    <th scope="col">{t('staff.grants.where')}</th>
                    <th scope="col" className="wide-only">
                      {t('staff.grants.since')}
                    </th>
                    <td />
                  </tr>
                </thead>
                <tbody>
                  {grants.data.items.map((g) => (
                    <GrantRow key={g.id} g={g} mayTake={mayGive} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager page={filter.page} pages={pages} go={(p) => set({ page: String(p) })} previous={t('staff.previous')} next={t('staff.next')} />
        </>
      )}
      <JudgectlHint command="judgectl grants list [--user <login>] [--activity <slug>]  ·  judgectl grants give <login> <role> [--activity <slug>]  ·  judgectl grants take <grant-id>" />
    </section>
  );
}
