import type { Attempt, SubmissionFile } from '@judge/contract';
import { fileUrl } from '../../../api/client';
import { ErrorBox, Loading } from '../../../components/Status';
import { VerdictBadge } from '../../../components/Verdict';
import { useT } from '../../../i18n/I18n';
import { formatMemory, formatMs, parseDetails } from '../../submissions/details';
import { SHOWN_CHARS, useFileText } from '../../submissions/files';
import { JudgectlHint } from '../JudgectlHint';

/** What one attempt left: the per-test table with the checker's messages, the compiler output and the judge log. */
export function AttemptOutput({ attempt, submissionId }: { attempt: Attempt; submissionId: string }) {
  const t = useT();
  const file = (name: string) => attempt.files.find((f) => f.name === name);
  const compile = file('compile');
  const log = file('log');
  return (
    <section aria-labelledby="attempt-output-title" data-attempt-output={attempt.attempt}>
      <h2 id="attempt-output-title">{t('staff.sub.ofAttempt', { n: attempt.attempt })}</h2>
      <TestTable file={file('details')} />
      {compile && <TextFile file={compile} title={t('staff.sub.compile')} open={attempt.verdict === 'CE'} />}
      {log && <TextFile file={log} title={t('staff.sub.log')} open={attempt.verdict === 'JE' || attempt.state === 'failed'} />}
      <JudgectlHint command={`judgectl submissions log ${submissionId} --attempt ${attempt.attempt}`} />
    </section>
  );
}

/** One row per test: group, verdict, CPU time, memory and what the checker said. */
function TestTable({ file }: { file: SubmissionFile | undefined }) {
  const t = useT();
  const text = useFileText(file?.fileId);
  if (!file) return <p className="muted">{t('staff.sub.noTests')}</p>;
  if (text.isPending) return <Loading />;
  if (text.isError) return <ErrorBox error={text.error} />;
  const details = parseDetails(text.data);
  if (!details?.tests.length) return <p className="muted">{t('staff.sub.noTests')}</p>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t('staff.sub.tests')}>
      <table className="tests-table staff-tests">
        <caption className="visually-hidden">{t('staff.sub.tests')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('staff.sub.test')}</th>
            <th scope="col">{t('staff.sub.group')}</th>
            <th scope="col">{t('staff.sub.result')}</th>
            <th scope="col">{t('staff.sub.time')}</th>
            <th scope="col">{t('staff.sub.memory')}</th>
            <th scope="col">{t('staff.sub.message')}</th>
          </tr>
        </thead>
        <tbody>
          {details.tests.map((r) => (
            <tr key={`${r.group}/${r.test}`} data-test={r.test} data-verdict={r.verdict}>
              <th scope="row">{r.test}</th>
              <td>{r.group}</td>
              <td>
                <VerdictBadge of={{ verdict: r.verdict, state: 'completed' }} />
              </td>
              <td>{r.cpuMs !== undefined ? formatMs(r.cpuMs) : '—'}</td>
              <td>{typeof r.memoryBytes === 'number' ? formatMemory(r.memoryBytes) : '—'}</td>
              <td className="checker-message">{r.feedback ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A text attachment, folded unless it explains the result, with its download. */
function TextFile({ file, title, open }: { file: SubmissionFile; title: string; open: boolean }) {
  const t = useT();
  const q = useFileText(file.fileId);
  return (
    <details className="attempt-text" open={open}>
      <summary>{title}</summary>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {q.data !== undefined && (
        <pre tabIndex={0} aria-label={title}>
          {q.data.slice(0, SHOWN_CHARS) || t('staff.sub.empty')}
        </pre>
      )}
      <a href={fileUrl(file.fileId)} download={`${file.name}.txt`}>
        {t('staff.sub.download', { name: title })}
      </a>
    </details>
  );
}
