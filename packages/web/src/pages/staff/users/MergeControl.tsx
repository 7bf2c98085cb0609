import type { ManagedUser, MergePreview, MergeRecord, UserLookup } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox, Loading } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useI18n, useT } from '../../../i18n/I18n';
import { formatInZone } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { UserPicker } from '../roles/UserPicker';
import { OWN_ZONE, useMergePreview, useUserMerges } from './queries';

/** After a merge or its undo: both accounts, the lists, their sessions, roles and merges are stale. */
export function useMergeChanged() {
  const qc = useQueryClient();
  return (m: MergeRecord) => {
    void qc.invalidateQueries({ queryKey: ['managedUsers'] });
    // the memberships and other grants moved with the merge
    void qc.invalidateQueries({ queryKey: ['grants'] });
    for (const id of [m.sourceUserId, m.targetUserId]) {
      void qc.invalidateQueries({ queryKey: keys.managedUser(id) });
      void qc.invalidateQueries({ queryKey: keys.userSessions(id) });
      void qc.invalidateQueries({ queryKey: keys.userMerges(id) });
    }
  };
}

/** A time in the reader's own zone, as a sentence holds it. */
export function useWhen() {
  const { locale } = useI18n();
  return (iso: string) => formatInZone(iso, OWN_ZONE, locale, false);
}

const who = (login: string, name: string) => (name && name !== login ? `${login} (${name})` : login);

/** What the merge would move, and why it cannot be made (the server's sentences, in English). */
function PreviewFacts({ p }: { p: MergePreview }) {
  const t = useT();
  return (
    <div className="merge-preview" data-merge-preview={p.targetLogin}>
      <p>{t('staff.users.merge.moves', { source: who(p.sourceLogin, p.sourceName), target: who(p.targetLogin, p.targetName) })}</p>
      <ul>
        <li data-count="submissions">{t('staff.users.merge.submissions', { count: p.submissions })}</li>
        <li data-count="questions">{t('staff.users.merge.questions', { count: p.questions })}</li>
        <li data-count="activities">
          {t('staff.users.merge.activities', { count: p.activities })}
          {p.activityNames.length > 0 && `: ${p.activityNames.join(', ')}`}
        </li>
      </ul>
      {p.blockers.length > 0 && (
        <div className="warn-box" role="alert" data-blockers>
          <p>{t('staff.users.merge.cannot')}</p>
          <ul lang="en">
            {p.blockers.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** "Merge the accounts", then the question naming both logins, then the merge. */
function MergeConfirm({ p, onMerged }: { p: MergePreview; onMerged(m: MergeRecord): void }) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const send = useFormSend();
  const onSubmit = send.submit(async () => {
    const m = await call(ops.mergeUsers, { params: { id: p.sourceUserId }, body: { targetUserId: p.targetUserId } });
    setConfirming(false);
    onMerged(m);
  });
  return (
    <form className="merge-confirm" onSubmit={onSubmit}>
      {confirming ? (
        <div className="confirm" role="group" aria-label={t('staff.users.merge.button')}>
          <span>{t('staff.users.merge.confirm', { source: p.sourceLogin, target: p.targetLogin })}</span>
          <button type="submit" className="danger" disabled={send.busy} autoFocus>
            {t('staff.users.merge.yes')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('staff.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          {t('staff.users.merge.button')}
        </button>
      )}
      {send.error !== null && <ErrorBox error={send.error} />}
    </form>
  );
}

/** The merge just made, and its undo. */
function MergeDone({ record, onUndone }: { record: MergeRecord; onUndone(m: MergeRecord): void }) {
  const t = useT();
  const when = useWhen();
  const send = useFormSend();
  const onSubmit = send.submit(async () => onUndone(await call(ops.undoMerge, { params: { mergeId: record.id } })));
  return (
    <form className="form admin-form merge-done" onSubmit={onSubmit} data-merge-record={record.id}>
      <p className="ok-box" role="status">
        {t('staff.users.merge.done', { source: record.sourceLogin, target: record.targetLogin, until: when(record.anonymiseAfter) })}
      </p>
      <button type="submit" disabled={send.busy || !record.canUndo}>
        {t('staff.users.merge.undo')}
      </button>
      {send.error !== null && <ErrorBox error={send.error} />}
      <JudgectlHint command={`judgectl users undo-merge ${record.id}`} />
    </form>
  );
}

/**
 * Merges this account (the source: a guest account, a duplicate) into another one: the target is
 * found by login, name or email, the preview says what moves and what stands in the way, and a
 * confirmation names both logins. The merge just made can be undone here (and in the Merges list).
 */
export function MergeControl({ user }: { user: ManagedUser }) {
  const t = useT();
  const id = useId();
  const changed = useMergeChanged();
  const [target, setTarget] = useState<UserLookup | null>(null);
  const [record, setRecord] = useState<MergeRecord | null>(null);
  const [said, setSaid] = useState('');
  const preview = useMergePreview(user.id, target?.id);
  // undone from the Merges list meanwhile: the record here follows it
  const merges = useUserMerges(user.id, !!record);
  const current = record && (merges.data?.find((m) => m.id === record.id) ?? record);
  const shown = current && !current.undoneAt ? current : null;
  const merged = (m: MergeRecord) => (setRecord(m), setTarget(null), changed(m));
  const undone = (m: MergeRecord) => (setRecord(null), setSaid(t('staff.users.merge.undone', { source: m.sourceLogin })), changed(m));
  return (
    <section className="form admin-form merge" aria-labelledby={`${id}-h`} data-merge-control>
      <h3 id={`${id}-h`}>{t('staff.users.merge.title')}</h3>
      <p className="muted">{t('staff.users.merge.help')}</p>
      {shown ? (
        <MergeDone record={shown} onUndone={undone} />
      ) : (
        <>
          <UserPicker chosen={target} choose={(u) => (setSaid(''), setTarget(u))} label={t('staff.users.merge.find')} />
          {target && preview.isPending && <Loading />}
          {target && preview.isError && <ErrorBox error={preview.error} />}
          {target && preview.data && <PreviewFacts p={preview.data} />}
          {target && preview.data && preview.data.blockers.length === 0 && <MergeConfirm p={preview.data} onMerged={merged} />}
        </>
      )}
      <p role="status">{said}</p>
      {!shown && <JudgectlHint command={`judgectl users merge ${user.username} ${target?.username ?? '<target>'} --preview`} />}
    </section>
  );
}
