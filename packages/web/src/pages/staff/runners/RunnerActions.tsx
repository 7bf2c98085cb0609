import type { Runner } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { useMay } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { Fingerprint } from './Fingerprint';
import { useRunnerAction } from './queries';
import { TagEditor } from './TagEditor';

type Asking = 'approve' | 'revoke' | 'forget' | 'tags' | null;

/** Approve shows the fingerprint to compare before it asks; revoke asks for a reason; forget asks. */
function Confirm({ runner: r, asking, close }: { runner: Runner; asking: Exclude<Asking, 'tags' | null>; close(): void }) {
  const t = useT();
  const id = useId();
  const [reason, setReason] = useState('');
  const act = useRunnerAction(() => {
    if (asking === 'approve') return call(ops.approveRunner, { params: { id: r.id } });
    if (asking === 'revoke') return call(ops.revokeRunner, { params: { id: r.id }, body: reason.trim() ? { reason: reason.trim() } : {} });
    return call(ops.deleteRunner, { params: { id: r.id } });
  });
  const text =
    asking === 'approve' ? t('staff.runners.approveCheck', { name: r.name }) : asking === 'revoke' ? t('staff.runners.revokeConfirm', { name: r.name }) : t('staff.runners.forgetConfirm', { name: r.name });
  const yes = asking === 'approve' ? 'staff.runners.approveYes' : asking === 'revoke' ? 'staff.runners.revokeYes' : 'staff.runners.forgetYes';
  return (
    <form className="runner-confirm" aria-labelledby={`${id}-q`} onSubmit={(e) => (e.preventDefault(), act.mutate(undefined, { onSuccess: close }))}>
      <p id={`${id}-q`}>{text}</p>
      {asking === 'approve' && <Fingerprint value={r.fingerprint} />}
      {asking === 'revoke' && (
        <label>
          {t('staff.runners.reason')}
          <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
        </label>
      )}
      <div className="confirm">
        <button type="submit" className={asking === 'approve' ? undefined : 'danger'} disabled={act.isPending} autoFocus={asking !== 'revoke'}>
          {t(yes)}
        </button>
        <button type="button" onClick={close}>
          {t('staff.cancel')}
        </button>
      </div>
      {act.isError && <ErrorBox error={act.error} />}
    </form>
  );
}

/** What the reader may do to a runner, as its state allows; each asks before it acts. */
export function RunnerActions({ runner: r }: { runner: Runner }) {
  const t = useT();
  const [asking, setAsking] = useState<Asking>(null);
  const mayApprove = useMay(undefined, 'runner:approve');
  const mayRevoke = useMay(undefined, 'runner:revoke');
  const mayTag = useMay(undefined, 'runner:update');
  const close = () => setAsking(null);
  if (asking === 'tags') return <TagEditor runner={r} close={close} />;
  if (asking) return <Confirm runner={r} asking={asking} close={close} />;
  const live = r.state !== 'revoked';
  return (
    <div className="runner-actions">
      {mayApprove && r.state === 'pendingApproval' && (
        <button type="button" onClick={() => setAsking('approve')}>
          {t('staff.runners.approve')}
        </button>
      )}
      {mayTag && live && (
        <button type="button" onClick={() => setAsking('tags')}>
          {t('staff.runners.editTags')}
        </button>
      )}
      {mayRevoke && live && (
        <button type="button" className="danger" onClick={() => setAsking('revoke')}>
          {t('staff.runners.revoke')}
        </button>
      )}
      {mayRevoke && !live && (
        <button type="button" className="danger" onClick={() => setAsking('forget')}>
          {t('staff.runners.forget')}
        </button>
      )}
    </div>
  );
}
