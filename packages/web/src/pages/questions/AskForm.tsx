import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useOutletContext, useSearchParams } from 'react-router';
import { call, isProblem } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox } from '../../components/Status';
import { useFormSend } from '../../components/useFormSend';
import { useT } from '../../i18n/I18n';
import type { ActivityContext } from '../activity/ActivityLayout';
import { parseSubject, subjectFields, subjectOptions, subjectValue } from './model';

function SubjectSelect({ value, onChange }: { value: string; onChange(v: string): void }) {
  const t = useT();
  const { series } = useOutletContext<ActivityContext>();
  return (
    <label>
      {t('questions.ask.about')}
      <select name="about" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('questions.about.activity')}</option>
        {subjectOptions(series).map((o) => (
          <option key={o.value} value={o.value}>
            {o.letter ? `\u00a0\u00a0${t('questions.about.problem', { letter: o.letter, name: o.name })}` : t('questions.about.series', { name: o.name })}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The refusals a participant can act on, in words; anything else goes to the error box. */
function refusalKey(e: unknown) {
  if (isProblem(e, 403, 'questions.disabled')) return 'questions.ask.disabled' as const;
  if (isProblem(e, 409, 'activity.archived')) return 'questions.ask.archived' as const;
  return null;
}

/** Asks about the activity, a series or a problem; `?about=p:ID` (the problem page's link) chooses the subject. */
export function AskForm({ slug }: { slug: string }) {
  const t = useT();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const [about, setAbout] = useState(() => subjectValue(parseSubject(params.get('about'))));
  const [topic, setTopic] = useState('');
  const [body, setBody] = useState('');
  const { busy, sent, error, submit } = useFormSend();
  const topicRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (params.get('about')) topicRef.current?.focus();
  }, [params]);

  const send = submit(async () => {
    await call(ops.askQuestion, { params: { idOrSlug: slug }, body: { topic, body, ...subjectFields(parseSubject(about)) } });
    setTopic('');
    setBody('');
    await qc.invalidateQueries({ queryKey: keys.questions(slug) });
  });

  const refusal = refusalKey(error);
  return (
    <form id="ask" className="form card ask-form" onSubmit={(e) => void send(e)} aria-labelledby="ask-title">
      <h2 id="ask-title">{t('questions.ask.title')}</h2>
      <SubjectSelect value={about} onChange={setAbout} />
      <label>
        {t('questions.ask.topic')}
        <input ref={topicRef} name="topic" required maxLength={200} value={topic} onChange={(e) => setTopic(e.target.value)} />
      </label>
      <label>
        {t('questions.ask.body')}
        <textarea name="body" required maxLength={8000} rows={4} value={body} onChange={(e) => setBody(e.target.value)} />
      </label>
      {refusal ? <p className="error-box" role="alert">{t(refusal)}</p> : error !== null && <ErrorBox error={error} />}
      <div>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('questions.ask.sending') : t('questions.ask.send')}
        </button>
      </div>
      <p role="status" className="ask-sent">
        {sent && t('questions.ask.sent')}
      </p>
    </form>
  );
}
