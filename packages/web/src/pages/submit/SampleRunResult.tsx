import type { SampleRun } from '@judge/contract';
import { VerdictBadge } from '../../components/Verdict';
import { useT } from '../../i18n/I18n';

/** A sample run's result: the verdict over the samples, the compiler's words, then each sample with its input, expected and actual output. */
export function SampleRunResult({ run }: { run: SampleRun }) {
  const t = useT();
  const pending = run.state === 'queued' || run.state === 'running';
  return (
    <section className="sample-run" aria-label={t('samples.run.result')} aria-busy={pending} data-state={run.state}>
      <p className="sample-run-head">
        <strong>{t('samples.run.result')}:</strong> <VerdictBadge of={{ state: run.state === 'cancelled' ? 'cancelled' : run.state, ...(run.verdict ? { verdict: run.verdict } : {}) }} />
        <span className="muted small"> {t('samples.run.notCounted')}</span>
      </p>
      {run.failureReason && <p className="refusal">{run.failureReason}</p>}
      {run.compileOutput && (
        <details open={run.verdict === 'CE'}>
          <summary>{t('samples.run.compiler')}</summary>
          <pre className="sample-run-text" tabIndex={0}>{run.compileOutput}</pre>
        </details>
      )}
      {run.samples.length > 0 && (
        <ul className="sample-run-list">
          {run.samples.map((s) => (
            <li key={s.name} data-sample={s.name}>
              <details open={s.verdict !== 'AC'}>
                <summary>
                  <span className="sample-name">{s.name}</span> <VerdictBadge of={{ verdict: s.verdict }} />
                  {s.cpuMs !== undefined && <span className="muted small"> {t('samples.run.time', { ms: s.cpuMs })}</span>}
                </summary>
                <div className="sample-run-texts">
                  <Text label={t('samples.run.input')} text={s.input} />
                  <Text label={t('samples.run.expected')} text={s.expected} />
                  <Text label={t('samples.run.output')} text={s.output} />
                  {s.feedback && <Text label={t('samples.run.feedback')} text={s.feedback} />}
                </div>
                {s.truncated && <p className="muted small">{t('samples.run.truncated')}</p>}
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Text({ label, text }: { label: string; text: string | undefined }) {
  return (
    <figure className="sample-run-figure">
      <figcaption className="small">{label}</figcaption>
      <pre className="sample-run-text" tabIndex={0}>{text ?? ''}</pre>
    </figure>
  );
}
