import { VerdictBadge } from '../../../components/Verdict';
import { useT } from '../../../i18n/I18n';
import { expectedVerdict, type TrialExample, type TrialMeasurement } from './trial';

function Expected({ example }: { example: TrialExample }) {
  const verdict = expectedVerdict(example.expected);
  return verdict ? <VerdictBadge of={{ verdict }} /> : <code>{example.expected}</code>;
}

function Agreement({ example }: { example: TrialExample }) {
  const t = useT();
  if (example.ok === null) return <span className="muted">{t('staff.problems.trial.nothingExpected')}</span>;
  return (
    <span className={example.ok ? 'agree' : 'disagree'}>
      <span aria-hidden="true">{example.ok ? '✓ ' : '✗ '}</span>
      {t(example.ok ? 'staff.problems.trial.agrees' : 'staff.problems.trial.disagrees')}
      {example.why && <span lang="en"> ({example.why})</span>}
    </span>
  );
}

/** Each example of the package: its expected verdict (by its directory) beside the one it got, and whether they agree. */
export function TrialTable({ measurement: m }: { measurement: TrialMeasurement }) {
  const t = useT();
  const bad = m.submissions.filter((s) => s.ok === false).length;
  return (
    <>
      <p className={m.ok ? 'ok-box' : 'error-box'} data-trial-ok={m.ok}>
        {m.ok ? t('staff.problems.trial.verifies', { count: m.submissions.length }) : t('staff.problems.trial.fails', { count: bad })}
      </p>
      {/* focusable, so that a table wider than its card scrolls from the keyboard too */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t('staff.problems.trial.caption')}>
        <table className="trial-table">
          <caption className="visually-hidden">{t('staff.problems.trial.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('staff.problems.trial.example')}</th>
              <th scope="col">{t('staff.problems.trial.expected')}</th>
              <th scope="col">{t('staff.problems.trial.actual')}</th>
              <th scope="col">{t('staff.problems.trial.agreement')}</th>
            </tr>
          </thead>
          <tbody>
            {m.submissions.map((s) => (
              <tr key={s.path} data-example={s.path}>
                <th scope="row">
                  <code>{s.path}</code>
                  {s.language && <span className="muted"> · {s.language}</span>}
                </th>
                <td className="expected">
                  <Expected example={s} />
                </td>
                <td className="actual">
                  <VerdictBadge of={{ verdict: s.verdict }} />
                </td>
                <td>
                  <Agreement example={s} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {m.notRun.length > 0 && (
        <>
          <h3>{t('staff.problems.trial.notRun')}</h3>
          <ul>
            {m.notRun.map((n) => (
              <li key={n.path}>
                <code>{n.path}</code>: <span lang="en">{n.reason}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {[...m.errors, ...m.warnings].map((w) => (
        <p key={w} className="notice" lang="en">
          {w}
        </p>
      ))}
      {m.timing?.timeLimitSeconds !== undefined && <p className="muted">{t('staff.problems.trial.timeLimit', { seconds: m.timing.timeLimitSeconds })}</p>}
    </>
  );
}
