import type { ParticipantProblem } from '@judge/contract';
import { useId } from 'react';
import { Link } from 'react-router';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { useMaintenance } from '../../app/maintenance';
import { closedReason, type Notice } from './checks';
import type { Refusal } from './errors';
import { ChosenFiles, FilePicker } from './FilePicker';
import { LazyEditor } from './LazyEditor';
import { ProblemSubmissions } from './ProblemSubmissions';
import { useSubmitForm, type SubmitForm } from './useSubmitForm';
import { useSampleRun } from './useSampleRun';
import { SampleRunResult } from './SampleRunResult';
import { NotifyButton, useVerdictNotifications } from './VerdictNotifier';
import './submit.css';

/**
 * Sends a solution to a problem, and lists what the reader sent there with its verdicts, live.
 * The page that holds it gives it its heading.
 */
export function SubmitPanel({ activity, problem, sampleRuns = false }: { activity: string; problem: ParticipantProblem; sampleRuns?: boolean }) {
  const t = useT();
  useVerdictNotifications();
  const closed = closedReason(problem);
  const maintenance = useMaintenance();
  return (
    <div className="submit-panel">
      {maintenance !== 'open' && !closed && (
        <p className="notice submit-paused" role="status" data-maintenance={maintenance}>
          {t(maintenance === 'closed' ? 'submit.pausedClosed' : 'submit.paused')}
        </p>
      )}
      {closed ? (
        <p className="notice" role="status">
          {t(closed.key)}
        </p>
      ) : (
        // keyed by the problem: moving to another problem's page must not carry this one's draft over
        <SubmitFormView key={`${activity}/${problem.slug}`} activity={activity} problem={problem} sampleRuns={sampleRuns} />
      )}
      <ProblemSubmissions activity={activity} problem={problem} />
      <NotifyButton />
    </div>
  );
}

function SubmitFormView({ activity, problem, sampleRuns }: { activity: string; problem: ParticipantProblem; sampleRuns: boolean }) {
  const t = useT();
  const f = useSubmitForm(activity, problem);
  const tryRun = useSampleRun(activity, problem, f);
  const sampleHint = useId();
  const keysHint = useId();
  const chosenLanguage = problem.allowedLanguages.find((l) => l.id === f.language);
  return (
    <form className="form submit-form" onSubmit={(e) => (e.preventDefault(), void f.send())} aria-label={t('submit.title')}>
      <LanguagePicker problem={problem} form={f} />
      {f.files.length ? (
        <ChosenFiles files={f.files} onChange={f.setFiles} />
      ) : (
        <div className="editor-field">
          <span className="field-label">
            {t('submit.code')}
          </span>
          <LazyEditor value={f.code} onChange={f.setCode} onPaste={f.pasted} language={chosenLanguage} label={t('submit.editorLabel')} describedBy={keysHint} />
          <p id={keysHint} className="muted small">
            {t('submit.editorKeys')} {t('submit.draftKept')}
          </p>
        </div>
      )}
      <FilePicker files={f.files} max={problem.maxAttachments} maxBytes={problem.maxUploadBytes} onChange={f.setFiles} />
      <Notices notices={f.notices} refusal={f.refusal} />
      {f.failure !== null && <ErrorBox error={f.failure} />}
      <div className="submit-actions">
        <button type="submit" className="primary" disabled={f.busy || f.blocked} aria-disabled={f.busy || f.blocked}>
          {f.busy ? t('submit.sending') : t('submit.send')}
        </button>
        {sampleRuns && (
          <button type="button" onClick={() => void tryRun.start()} disabled={tryRun.busy || f.blocked} aria-disabled={tryRun.busy || f.blocked} aria-describedby={sampleHint}>
            {tryRun.busy ? t('samples.running') : t('samples.run')}
          </button>
        )}
        {problem.submissionsLeft !== undefined && <span className="muted">{t('submit.left', { count: problem.submissionsLeft })}</span>}
      </div>
      {sampleRuns && (
        <p id={sampleHint} className="muted small">
          {t('samples.run.hint')}
        </p>
      )}
      {(tryRun.refusal || tryRun.failure !== null) && <Notices notices={[]} refusal={tryRun.refusal} />}
      {tryRun.failure !== null && <ErrorBox error={tryRun.failure} />}
      {tryRun.run && <SampleRunResult run={tryRun.run} />}
      <p role="status" aria-live="polite" className="submit-sent">
        {f.sent && (
          <>
            {t('submit.sent')} <Link to={`/a/${encodeURIComponent(activity)}/submissions/${encodeURIComponent(f.sent.id)}`}>{t('submit.mine.details')}</Link>
          </>
        )}
      </p>
    </form>
  );
}

function LanguagePicker({ problem, form }: { problem: ParticipantProblem; form: SubmitForm }) {
  const t = useT();
  const guessed = form.guessed && problem.allowedLanguages.find((l) => l.id === form.guessed!.id);
  return (
    <label>
      {t('submit.language')}
      <select value={form.language} onChange={(e) => form.setLanguage(e.target.value)} className="language-select">
        {problem.allowedLanguages.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </select>
      {guessed && (
        <span className="muted small" role="status">
          {t(form.guessed!.from === 'code' ? 'submit.code.guessed' : 'submit.files.guessed', { name: guessed.name })}
        </span>
      )}
    </label>
  );
}

/** What holds the form back (before sending) and why the server refused it (after), in words. */
function Notices({ notices, refusal }: { notices: Notice[]; refusal: Refusal | null }) {
  const t = useT();
  if (!notices.length && !refusal) return null;
  return (
    <div className="submit-notices" role="alert">
      {notices.map((n) => (
        <p key={`${n.key}${JSON.stringify(n.params ?? {})}`} className={n.blocking ? 'refusal' : 'hint'}>
          {t(n.key, n.params)}
        </p>
      ))}
      {refusal && (
        <p className="refusal" data-refusal={refusal.key}>
          {t(refusal.key, refusal.params)}
          {refusal.detail && <span className="muted refusal-detail" lang="en"> ({refusal.detail})</span>}
        </p>
      )}
    </div>
  );
}
