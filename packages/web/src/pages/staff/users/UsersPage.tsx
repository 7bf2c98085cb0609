import { AdminGate } from '../AdminGate';
import type { ManagedUser } from '@judge/contract';
import { useDeferredValue, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useStaffAccess } from '../../../app/permissions';
import { Pager } from '../../../components/Pager';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { CreateUserForm } from './CreateUserForm';
import { TemporaryUsersForm } from './TemporaryUsersForm';
import { OWN_ZONE, USERS_PAGE_SIZE, useManagedUsers } from './queries';
import './users.css';

const fullName = (u: ManagedUser) => [u.firstName, u.lastName].filter(Boolean).join(' ');

function UserRow({ u }: { u: ManagedUser }) {
  const t = useT();
  return (
    <tr data-user={u.username}>
      <th scope="row">
        <Link to={`/staff/users/${u.id}`}>{u.username}</Link>
      </th>
      <td>{fullName(u)}</td>
      <td className="wrap wide-only">{u.email}</td>
      <td>{u.lastSeenAt ? <Time iso={u.lastSeenAt} timeZone={OWN_ZONE} /> : t('staff.users.never')}</td>
      <td data-state={u.blockedAt ? 'blocked' : u.approvedAt ? 'active' : 'awaiting'}>
        {u.blockedAt ? (
          <span className="badge blocked">{t('staff.users.blocked')}</span>
        ) : u.approvedAt ? (
          t('staff.users.active')
        ) : (
          <span className="badge awaiting">{t('staff.users.awaitingApproval')}</span>
        )}
      </td>
    </tr>
  );
}

/** Accounts: search, page through, open one; make a new one, or temporary ones for an event. */
function UsersPageBody() {
  const t = useT();
  const id = useId();
  usePageTitle(t('staff.users.title'));
  const [params, setParams] = useSearchParams();
  // the box keeps its own text: the address follows it, but a navigation may lag a fast typist
  const [search, setSearch] = useState(params.get('q') ?? '');
  const filter = { search: useDeferredValue(search), includeBlocked: params.get('blocked') === '1', page: Math.max(1, Number(params.get('page')) || 1) };
  const set = (change: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) (v ? next.set(k, v) : next.delete(k));
    setParams(next, { replace: true });
  };
  const list = useManagedUsers(filter);
  const { system } = useStaffAccess();
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / USERS_PAGE_SIZE)) : 1;
  return (
    <section className="staff-users">
      <h1 className="page-title">{t('staff.users.title')}</h1>
      <form className="staff-filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={`${id}-q`}>
          {t('staff.users.search')}
          <input id={`${id}-q`} type="search" value={search} onChange={(e) => (setSearch(e.target.value), set({ q: e.target.value, page: '' }))} />
        </label>
        <label className="check">
          <input type="checkbox" checked={filter.includeBlocked} onChange={(e) => set({ blocked: e.target.checked ? '1' : '', page: '' })} />
          {t('staff.users.includeBlocked')}
        </label>
      </form>
      {list.isPending && <Loading />}
      {list.isError && <ErrorBox error={list.error} />}
      {list.data && (
        <>
          <p className="muted" aria-live="polite">
            {t('staff.users.count', { count: list.data.total })}
          </p>
          {list.data.items.length === 0 ? (
            <p>{t('staff.users.none')}</p>
          ) : (
            <div className="table-scroll">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('staff.users.login')}</th>
                    <th scope="col">{t('staff.users.name')}</th>
                    <th scope="col" className="wide-only">
                      {t('staff.users.email')}
                    </th>
                    <th scope="col">{t('staff.users.lastSeen')}</th>
                    <th scope="col">{t('staff.users.state')}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.items.map((u) => (
                    <UserRow key={u.id} u={u} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager page={filter.page} pages={pages} go={(p) => set({ page: String(p) })} previous={t('staff.previous')} next={t('staff.next')} />
        </>
      )}
      <JudgectlHint command="judgectl users list --search <text>" />
      {system.has('user:create') && <CreateUserForm />}
      {system.has('user:create:temporary') && <TemporaryUsersForm />}
    </section>
  );
}

export default function UsersPage() {
  return (
    <AdminGate keys={['user:read:all']}>
      <UsersPageBody />
    </AdminGate>
  );
}
