import type { Question } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useState } from 'react';
import { call } from '../../../api/client';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { useQuestionAction } from './useQuestionAction';

/** Publishes an answered question to every participant, or withdraws it. */
export function PublishButton({ question: q }: { question: Question }) {
  const t = useT();
  const act = useQuestionAction((published: boolean) => call(ops.setQuestionPublished, { params: { id: q.id }, body: { published } }));
  return (
    <>
      <button type="button" onClick={() => act.mutate(!q.isPublished)} disabled={act.isPending}>
        {q.isPublished ? t('staff.q.withdraw') : t('staff.q.publish')}
      </button>
      {act.isError && <ErrorBox error={act.error} />}
    </>
  );
}

/** Deletes a question or announcement, after the reader confirms it in place. */
export function DeleteButton({ question: q }: { question: Question }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  const act = useQuestionAction(() => call(ops.deleteQuestion, { params: { id: q.id } }));
  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {t('staff.q.delete')}
      </button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={t('staff.q.deleteConfirm', { topic: q.topic })}>
      <span>{t('staff.q.deleteConfirm', { topic: q.topic })}</span>
      <button type="button" className="danger" onClick={() => act.mutate(undefined)} disabled={act.isPending} autoFocus>
        {t('staff.q.deleteYes')}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {t('staff.cancel')}
      </button>
      {act.isError && <ErrorBox error={act.error} />}
    </div>
  );
}
