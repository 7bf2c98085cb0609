import { AdminGate } from '../AdminGate';
import type { ManagedUser } from '@judge/contract';
import { useId } from 'react';
import { Link, useParams } from 'react-router';
import { useStaffAccess } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { OWN_ZONE, useManagedUser } from './queries';
import { MergeControl } from './MergeControl';
import { DeletionRequestNotice } from './DeletionRequestNotice';
import { ApproveControl, BlockControl, ResetPassword, TwoFactorOff } from './UserActions';
import { UserEditForm } from './UserEditForm';
import { UserGrants } from './UserGrants';
import { UserMerges } from './UserMerges';
import { UserSessions } from './UserSessions';
import './users.css';

function Facts({ u }: { u: ManagedUser }) {
  const t = useT();
  const name = [u.firstName, u.lastName].filter(Boolean).join(' ');
  return (
    <dl className="admin-facts">
      <dt>{t('staff.users.login')}</dt>
      <dd>
        <code>{u.username}</code>
      </dd>
      {name && (
        <>
          <dt>{t('staff.users.name')}</dt>
          <dd>{name}</dd>
        </>
      )}
      {u.email && (
        <>
          <dt>{t('staff.users.email')}</dt>
          <dd>
            {u.email} {!u.emailConfirmed && <span className="muted">{t('staff.users.emailUnconfirmed')}</span>}
          </dd>
        </>
      )}
      <dt>{t('staff.users.created')}</dt>
      <dd>
        <Time iso={u.createdAt} timeZone={OWN_ZONE} />
      </dd>
      <dt>{t('staff.users.lastSeen')}</dt>
      <dd>{u.lastSeenAt ? <Time iso={u.lastSeenAt} timeZone={OWN_ZONE} /> : t('staff.users.never')}</dd>
      <dt>{t('staff.users.state')}</dt>
      <dd data-state={u.blockedAt ? 'blocked' : 'active'}>
        {u.blockedAt ? (
          <>
            <span className="badge blocked">{t('staff.users.blocked')}</span> <Time iso={u.blockedAt} timeZone={OWN_ZONE} />
            {u.blockedReason && <> · {t('staff.users.reason', { reason: u.blockedReason })}</>}
          </>
        ) : (
          t('staff.users.active')
        )}
        {!u.approvedAt && (
          <>
            {' '}
            · <span className="badge awaiting">{t('staff.users.awaitingApproval')}</span>
          </>
        )}
        {u.isTemporary && <> · {t('staff.users.temporary')}</>}
      </dd>
      <dt>{t('staff.users.twoFactor')}</dt>
      <dd data-two-factor={u.twoFactorEnabled ? 'on' : 'off'}>{t(u.twoFactorEnabled ? 'staff.users.twoFactorOn' : 'staff.users.twoFactorOff')}</dd>
    </dl>
  );
}

/**
 * One account: its facts, edit, approve, block, a new password, merging it into another account,
 * its sessions, its merges and its roles. People pages link each person here (/staff/users/<id>),
 * so the actions on an account live in one place.
 */
function UserPageBody() {
  const t = useT();
  const id = useId();
  const { id: userId = '' } = useParams();
  const q = useManagedUser(userId);
  const { system } = useStaffAccess();
  usePageTitle(q.data ? `${q.data.username} · ${t('staff.users.title')}` : t('staff.users.title'));
  const may = (k: string) => system.has(k);
  return (
    <section className="staff-user" aria-labelledby={`${id}-h`}>
      <p>
        <Link to="/staff/users">← {t('staff.users.back')}</Link>
      </p>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {q.data && (
        <>
          <h1 id={`${id}-h`} className="page-title">
            {q.data.username}
          </h1>
          {may('user:update') && <DeletionRequestNotice user={q.data} />}
          <div className="admin-columns">
            <div className="card admin-card">
              <h2>{t('staff.users.facts')}</h2>
              <Facts u={q.data} />
              <JudgectlHint command={`judgectl users show ${q.data.username}`} />
              {may('user:update') ? <UserEditForm key={q.data.id} user={q.data} /> : <p className="muted">{t('staff.users.mayNotEdit')}</p>}
            </div>
            <div className="card admin-card">
              {may('user:update') && <ApproveControl user={q.data} />}
              {may('user:block') && <BlockControl user={q.data} />}
              {may('user:update') && <ResetPassword user={q.data} />}
              {may('user:update') && <TwoFactorOff user={q.data} />}
              {may('user:merge') && <MergeControl key={q.data.id} user={q.data} />}
            </div>
          </div>
          <UserSessions user={q.data} mayEnd={may('user:update')} />
          {may('user:merge') && <UserMerges user={q.data} />}
          <UserGrants user={q.data} mayRead={may('grant:read:all')} mayManage={may('grant:update')} />
        </>
      )}
    </section>
  );
}

export default function UserPage() {
  return (
    <AdminGate keys={['user:read:all']}>
      <UserPageBody />
    </AdminGate>
  );
}
