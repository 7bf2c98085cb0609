import type { Question } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { useQuestionAction } from './useQuestionAction';

/** The instance's canned answers ("Read the statement.", "Yes.", …), as an administrator set them. */
function useCannedAnswers() {
  return useQuery({ queryKey: keys.cannedAnswers, queryFn: () => call(ops.getCannedAnswers), staleTime: 5 * 60_000 });
}

/** The answer form; for an answered question behind a button, so the queue stays short. */
export function AnswerPanel({ question: q, mayPublish }: { question: Question; mayPublish: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(!q.answer);
  if (open) return <AnswerForm question={q} mayPublish={mayPublish} />;
  return (
    <button type="button" className="link-button" aria-expanded={false} onClick={() => setOpen(true)}>
      {t('staff.q.changeAnswer')}
    </button>
  );
}

/**
 * Answers a question (or changes the answer): typed, or a canned answer put in the box to send as
 * it is or edit first; sent alone or published with it in one step.
 */
function AnswerForm({ question: q, mayPublish }: { question: Question; mayPublish: boolean }) {
  const t = useT();
  const id = useId();
  const canned = useCannedAnswers();
  const [text, setText] = useState(q.answer?.body ?? '');
  const act = useQuestionAction((publish: boolean) => call(ops.answerQuestion, { params: { id: q.id }, body: { body: text.trim(), ...(publish ? { publish } : {}) } }));
  const submit = (publish: boolean) => {
    if (text.trim()) act.mutate(publish);
  };
  return (
    <form className="answer-form" onSubmit={(e) => (e.preventDefault(), submit(false))}>
      <label htmlFor={`${id}-canned`}>{t('staff.q.canned')}</label>
      <select id={`${id}-canned`} value="" onChange={(e) => e.target.value && setText(e.target.value)}>
        <option value="">{t('staff.q.cannedPick')}</option>
        {(canned.data?.answers ?? []).map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-text`}>{q.answer ? t('staff.q.changeAnswer') : t('staff.q.answer')}</label>
      <textarea id={`${id}-text`} rows={3} value={text} onChange={(e) => setText(e.target.value)} maxLength={8000} />
      <div className="answer-buttons">
        <button type="submit" disabled={act.isPending || !text.trim()}>
          {t('staff.q.send')}
        </button>
        {mayPublish && !q.isPublished && (
          <button type="button" onClick={() => submit(true)} disabled={act.isPending || !text.trim()}>
            {t('staff.q.sendPublish')}
          </button>
        )}
      </div>
      {act.isError && <ErrorBox error={act.error} />}
    </form>
  );
}
