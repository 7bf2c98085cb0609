import type { ParticipantProblem } from '@judge/contract';
import { fileUrl } from '../../api/client';
import { VerdictBadge } from '../../components/Verdict';
import { useT } from '../../i18n/I18n';
import { type TestResult } from './details';
import { SHOWN_CHARS, useFileText } from './files';

/**
 * Failed sample tests in full: their input and expected output (the problem's public sample files,
 * `sample/<name>.in` and `.ans`) beside what the program wrote (the runner keeps its start for
 * samples). Samples are public, so nothing here is new to the participant but the comparison.
 */
export function SampleFailures({ tests, problem }: { tests: TestResult[]; problem: ParticipantProblem | undefined }) {
  const t = useT();
  const failed = tests.filter((r) => r.fullFeedback && r.verdict !== 'AC');
  if (!failed.length) return null;
  return (
    <section aria-labelledby="samples-title">
      <h2 id="samples-title">{t('submission.failedSamples')}</h2>
      {failed.map((r) => (
        <SampleFailure key={r.test} result={r} problem={problem} />
      ))}
    </section>
  );
}

function SampleFailure({ result, problem }: { result: TestResult; problem: ParticipantProblem | undefined }) {
  const t = useT();
  const fileOf = (ext: string) => problem?.attachments.find((a) => a.name === `${result.test}.${ext}`);
  return (
    <article className="sample-failure" data-test={result.test}>
      <h3>
        {result.test} <VerdictBadge of={{ verdict: result.verdict, state: 'completed' }} />
      </h3>
      {result.feedback && <p className="muted">{result.feedback}</p>}
      <div className="sample-columns">
        <SampleText title={t('submission.input')} fileId={fileOf('in')?.fileId} />
        <SampleText title={t('submission.expected')} fileId={fileOf('ans')?.fileId} />
        <Shown title={t('submission.actual')} text={result.output} empty={t('submission.noOutput')} />
      </div>
    </article>
  );
}

function SampleText({ title, fileId }: { title: string; fileId: string | undefined }) {
  const t = useT();
  const q = useFileText(fileId);
  if (!fileId) return <Shown title={title} text={undefined} empty={t('submission.notAvailable')} />;
  return (
    <div className="sample-text">
      <Shown title={title} text={q.data} empty={q.isPending ? t('app.loading') : t('submission.notAvailable')} />
      <a href={fileUrl(fileId)} className="small">
        {t('submission.downloadPlain')}
      </a>
    </div>
  );
}

function Shown({ title, text, empty }: { title: string; text: string | undefined; empty: string }) {
  return (
    <figure className="sample-shown">
      <figcaption>{title}</figcaption>
      {text === undefined || text === '' ? <p className="muted">{empty}</p> : <pre tabIndex={0}>{text.slice(0, SHOWN_CHARS)}</pre>}
    </figure>
  );
}
