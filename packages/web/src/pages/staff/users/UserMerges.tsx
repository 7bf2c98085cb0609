import type { ManagedUser, MergeRecord } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { call } from '../../../api/client';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { useMergeChanged, useWhen } from './MergeControl';
import { useUserMerges } from './queries';

const stateOf = (m: MergeRecord) => (m.undoneAt ? 'undone' : m.canUndo ? 'undoable' : 'final');

function MergeItem({ m, self, onUndo, undoing }: { m: MergeRecord; self: string; onUndo(): void; undoing: boolean }) {
  const t = useT();
  const when = useWhen();
  // the other account is a link to its page; this one is named
  const account = (id: string, login: string) => (id === self ? <strong>{login}</strong> : <Link to={`/staff/users/${id}`}>{login}</Link>);
  const state = m.undoneAt
    ? t('staff.users.merges.undoneAt', { when: when(m.undoneAt) })
    : m.canUndo
      ? t('staff.users.merges.undoable', { until: when(m.anonymiseAfter) })
      : t('staff.users.merges.final');
  return (
    <li data-merge={m.id} data-merge-state={stateOf(m)}>
      <span className="merge-who">
        {account(m.sourceUserId, m.sourceLogin)} → {account(m.targetUserId, m.targetLogin)}
      </span>
      <span className="muted">
        {t('staff.users.merges.merged', { when: when(m.mergedAt) })} · {state}
      </span>
      {m.canUndo && (
        <button type="button" onClick={onUndo} disabled={undoing} aria-label={t('staff.users.merge.undoLabel', { source: m.sourceLogin, target: m.targetLogin })}>
          {t('staff.users.merge.undo')}
        </button>
      )}
    </li>
  );
}

/** The merges the account was the source or the target of (user:merge): from, into, when, and whether it can still be undone. */
export function UserMerges({ user }: { user: ManagedUser }) {
  const t = useT();
  const id = useId();
  const q = useUserMerges(user.id, true);
  const changed = useMergeChanged();
  const undo = useMutation({ mutationFn: (mergeId: string) => call(ops.undoMerge, { params: { mergeId } }), onSuccess: changed });
  return (
    <section aria-labelledby={`${id}-h`} className="admin-part">
      <h2 id={`${id}-h`}>{t('staff.users.merges')}</h2>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {undo.isError && <ErrorBox error={undo.error} />}
      {q.data && q.data.length === 0 && <p>{t('staff.users.merges.none')}</p>}
      {q.data && q.data.length > 0 && (
        <ul className="merge-list">
          {q.data.map((m) => (
            <MergeItem key={m.id} m={m} self={user.id} onUndo={() => undo.mutate(m.id)} undoing={undo.isPending && undo.variables === m.id} />
          ))}
        </ul>
      )}
      <JudgectlHint command={`judgectl users merges ${user.username}  ·  judgectl users undo-merge <merge-id>`} />
    </section>
  );
}
