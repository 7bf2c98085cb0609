import { VerdictBadge } from '../../components/Verdict';
import { useT } from '../../i18n/I18n';
import { formatMemory, formatMs, type Details } from './details';

/** One row per test that ran: its verdict, CPU time and memory (when the activity shows the details). */
export function TestResults({ details }: { details: Details }) {
  const t = useT();
  if (!details.tests.length) return null;
  return (
    <section aria-labelledby="tests-title">
      <h2 id="tests-title">{t('submission.tests')}</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="tests-title">
        <table className="tests-table">
          <thead>
            <tr>
              <th scope="col">{t('submission.test')}</th>
              <th scope="col">{t('submissions.col.result')}</th>
              <th scope="col">{t('submission.time')}</th>
              <th scope="col">{t('submission.memory')}</th>
            </tr>
          </thead>
          <tbody>
            {details.tests.map((r) => (
              <tr key={r.test} data-test={r.test} data-verdict={r.verdict}>
                <th scope="row">
                  {r.test}
                  {r.counted === false && <span className="muted"> {t('submission.notCounted')}</span>}
                </th>
                <td>
                  <VerdictBadge of={{ verdict: r.verdict, state: 'completed' }} showCode={false} />
                </td>
                <td>{r.cpuMs !== undefined ? formatMs(r.cpuMs) : '—'}</td>
                <td>{typeof r.memoryBytes === 'number' ? formatMemory(r.memoryBytes) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
