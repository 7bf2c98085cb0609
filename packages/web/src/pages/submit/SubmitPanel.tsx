import type { ParticipantProblem } from '@judge/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';

/** Sends a solution to a problem: code typed or pasted, in one of the languages allowed there. */
export function SubmitPanel({ activity, problem }: { activity: string; problem: ParticipantProblem }) {
  const t = useT();
  const qc = useQueryClient();
  const [language, setLanguage] = useState(problem.allowedLanguages[0]?.id ?? '');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (!problem.canSubmit) return <p className="notice">{t('submit.closed')}</p>;

  async function send(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const ext = problem.allowedLanguages.find((l) => l.id === language)?.extensions[0] ?? 'txt';
      await api.submit(activity, problem.slug, [{ name: `solution.${ext.replace(/^\./, '')}`, bytes: code }], { language });
      void qc.invalidateQueries({ queryKey: ['submissions'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form" onSubmit={(e) => void send(e)} aria-label={t('submit.title')}>
      <label>
        {t('submit.language')}
        <select value={language} onChange={(e) => setLanguage(e.target.value)}>
          {problem.allowedLanguages.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('submit.code')}
        <textarea rows={14} spellCheck={false} value={code} onChange={(e) => setCode(e.target.value)} />
      </label>
      {error !== null && <ErrorBox error={error} />}
      <button type="submit" className="primary" disabled={busy || !code.trim()}>
        {busy ? t('submit.sending') : t('submit.send')}
      </button>
    </form>
  );
}
