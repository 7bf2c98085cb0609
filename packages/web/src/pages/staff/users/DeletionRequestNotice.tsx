import type { ManagedUser } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { useWhen } from './MergeControl';

const QUERY = ['accountDeletionRequests'] as const;

/**
 * A deletion of the account an identity provider asked for and nobody halted yet (user:update):
 * when it is due, or that it waits for an administrator, and the button that halts it.
 */
export function DeletionRequestNotice({ user }: { user: ManagedUser }) {
  const t = useT();
  const when = useWhen();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: QUERY, queryFn: () => call(ops.listDeletionRequests, {}) });
  const halt = useMutation({ mutationFn: (id: string) => call(ops.haltDeletionRequest, { params: { id } }), onSuccess: () => qc.invalidateQueries({ queryKey: QUERY }) });
  const open = q.data?.find((r) => r.userId === user.id && (r.state === 'pending' || r.state === 'attention'));
  if (!open) return null;
  return (
    <div className="card admin-card" role="alert" data-deletion-request={open.state}>
      <p>
        {open.state === 'pending'
          ? t('staff.users.deletion.pending', { provider: open.providerSlug ?? '?', when: when(open.dueAt) })
          : t('staff.users.deletion.attention', { provider: open.providerSlug ?? '?' })}
      </p>
      {halt.isError && <ErrorBox error={halt.error} />}
      <button type="button" onClick={() => halt.mutate(open.id)} disabled={halt.isPending}>
        {t('staff.users.deletion.halt')}
      </button>
      <JudgectlHint command={`judgectl users deletion-requests halt ${open.id}`} />
    </div>
  );
}
