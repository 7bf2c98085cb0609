import type { IssuedCredentials, ManagedUser } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { IssuedPassword } from './IssuedPassword';

/** After an action on an account: its page, the lists and its sessions are stale. */
function useAccountChanged(user: ManagedUser) {
  const qc = useQueryClient();
  return (saved?: ManagedUser) => {
    if (saved) qc.setQueryData(keys.managedUser(user.id), saved);
    void qc.invalidateQueries({ queryKey: ['managedUsers'] });
    void qc.invalidateQueries({ queryKey: keys.managedUser(user.id) });
    void qc.invalidateQueries({ queryKey: keys.userSessions(user.id) });
  };
}

/**
 * Blocks an account (with a reason kept beside it) or unblocks it. Used on the page of one user
 * and wherever else staff act on a person (the People page links to that page).
 */
export function BlockControl({ user }: { user: ManagedUser }) {
  const t = useT();
  const id = useId();
  const changed = useAccountChanged(user);
  const [reason, setReason] = useState('');
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const blocked = !!user.blockedAt;
  const onSubmit = send.submit(async () => {
    const body = blocked ? { blocked: false } : { blocked: true, ...(reason.trim() ? { reason: reason.trim() } : {}) };
    const saved = await call(ops.setUserBlocked, { params: { id: user.id }, body });
    setReason('');
    setSaid(t(saved.blockedAt ? 'staff.users.blockedNow' : 'staff.users.unblockedNow', { username: saved.username }));
    changed(saved);
  });
  return (
    <form className="form admin-form" onSubmit={onSubmit} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('staff.users.blockTitle')}</h3>
      <p className="muted">{t('staff.users.blockHelp')}</p>
      {!blocked && (
        <label htmlFor={`${id}-reason`}>
          {t('staff.users.blockReason')}
          <input id={`${id}-reason`} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
        </label>
      )}
      <button type="submit" className={blocked ? undefined : 'danger'} disabled={send.busy}>
        {blocked ? t('staff.users.unblockButton') : t('staff.users.blockButton')}
      </button>
      {send.error !== null && <ErrorBox error={send.error} />}
      <p role="status">{said}</p>
      <JudgectlHint command={`judgectl users block ${user.username}${blocked ? ' --unblock' : ' --reason …'}`} />
    </form>
  );
}

/** Makes a new password after a confirmation, and shows it once. */
export function ResetPassword({ user }: { user: ManagedUser }) {
  const t = useT();
  const id = useId();
  const changed = useAccountChanged(user);
  const [confirming, setConfirming] = useState(false);
  const [issued, setIssued] = useState<IssuedCredentials | null>(null);
  const send = useFormSend();
  const onSubmit = send.submit(async () => {
    setIssued(await call(ops.resetUserPassword, { params: { id: user.id } }));
    setConfirming(false);
    changed();
  });
  return (
    <form className="form admin-form" onSubmit={onSubmit} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('staff.users.reset')}</h3>
      <p className="muted">{t('staff.users.resetHelp')}</p>
      {confirming ? (
        <div className="confirm" role="group" aria-label={t('staff.users.reset')}>
          <span>{t('staff.users.resetConfirm', { username: user.username })}</span>
          <button type="submit" className="danger" disabled={send.busy} autoFocus>
            {t('staff.users.resetYes')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('staff.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => (setIssued(null), setConfirming(true))}>
          {t('staff.users.resetButton')}
        </button>
      )}
      {send.error !== null && <ErrorBox error={send.error} />}
      {issued && <IssuedPassword issued={issued} text={t('staff.users.resetDone', { username: issued.username })} />}
      <JudgectlHint command={`judgectl users reset-password ${user.username}`} />
    </form>
  );
}

/**
 * Turns the account's two-factor sign-in off after a confirmation, for an owner who lost the
 * authenticator and the recovery codes; only the owner turns it on again.
 */
export function TwoFactorOff({ user }: { user: ManagedUser }) {
  const t = useT();
  const id = useId();
  const changed = useAccountChanged(user);
  const [confirming, setConfirming] = useState(false);
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const onSubmit = send.submit(async () => {
    const saved = await call(ops.updateUser, { params: { id: user.id }, body: { twoFactorEnabled: false } });
    setConfirming(false);
    setSaid(t('staff.users.twoFactorDone', { username: saved.username }));
    changed(saved);
  });
  if (!user.twoFactorEnabled && !said) return null;
  return (
    <form className="form admin-form" onSubmit={onSubmit} aria-labelledby={`${id}-h`} data-two-factor-off>
      <h3 id={`${id}-h`}>{t('staff.users.twoFactorTitle')}</h3>
      {user.twoFactorEnabled && <p className="muted">{t('staff.users.twoFactorHelp')}</p>}
      {user.twoFactorEnabled &&
        (confirming ? (
          <div className="confirm" role="group" aria-label={t('staff.users.twoFactorTitle')}>
            <span>{t('staff.users.twoFactorConfirm', { username: user.username })}</span>
            <button type="submit" className="danger" disabled={send.busy} autoFocus>
              {t('staff.users.twoFactorYes')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('staff.cancel')}
            </button>
          </div>
        ) : (
          <button type="button" onClick={() => (setSaid(''), setConfirming(true))}>
            {t('staff.users.twoFactorButton')}
          </button>
        ))}
      {send.error !== null && <ErrorBox error={send.error} />}
      <p role="status">{said}</p>
      {user.twoFactorEnabled && <JudgectlHint command={`judgectl users edit ${user.username} --no-two-factor`} />}
    </form>
  );
}

/**
 * Approves an account that registered itself while the instance asks for approval (requireApproval):
 * until then it cannot enrol anywhere. Shown only while the account awaits it, and said once done.
 */
export function ApproveControl({ user }: { user: ManagedUser }) {
  const t = useT();
  const id = useId();
  const changed = useAccountChanged(user);
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const onSubmit = send.submit(async () => {
    const saved = await call(ops.approveUser, { params: { id: user.id } });
    setSaid(t('staff.users.approvedNow', { username: saved.username }));
    changed(saved);
  });
  if (user.approvedAt && !said) return null;
  return (
    <form className="form admin-form" onSubmit={onSubmit} aria-labelledby={`${id}-h`} data-approve>
      <h3 id={`${id}-h`}>{t('staff.users.approveTitle')}</h3>
      {!user.approvedAt && <p className="muted">{t('staff.users.approveHelp')}</p>}
      {!user.approvedAt && (
        <button type="submit" className="primary" disabled={send.busy}>
          {t('staff.users.approveButton')}
        </button>
      )}
      {send.error !== null && <ErrorBox error={send.error} />}
      <p role="status">{said}</p>
      {!user.approvedAt && <JudgectlHint command={`judgectl users approve ${user.username}`} />}
    </form>
  );
}
