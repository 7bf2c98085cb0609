import type { ClassListProblem } from '@judge/sdk/browser';
import { useT } from '../../../i18n/I18n';
import { planKind, rowName, type Planned } from './class-list-plan';

interface Props {
  planned: Planned;
  mayCreate: boolean;
  busy: boolean;
  onRun: () => void;
}

/** Why a file was refused: our words, and the reader's lines in the checker's (English) words. */
function Refusal({ fileName, problem }: { fileName: string; problem: ClassListProblem }) {
  const t = useT();
  const lines = problem.kind === 'faults' ? problem.faults : problem.kind === 'fatal' ? [problem.message] : [];
  return (
    <div className="error-box" role="alert">
      <strong>{t(`staff.people.csv.refused.${problem.kind}`, { file: fileName })}</strong>
      {lines.length > 0 && (
        <ul className="csv-faults" lang="en">
          {lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What a class list will do: accounts made, accounts enrolled, accounts left; and the button that does it. */
export function ClassListPreview({ planned, mayCreate, busy, onRun }: Props) {
  const t = useT();
  if (!planned.ok) return <Refusal fileName={planned.fileName} problem={planned.problem} />;
  const p = planned.plan;
  if (p.faults.length) return <Refusal fileName={p.fileName} problem={{ kind: 'faults', faults: p.faults }} />;
  if (p.fresh.length && !mayCreate) return <Refusal fileName={p.fileName} problem={{ kind: 'faults', faults: p.fresh.map((r) => `line ${r.line}: no account ${r.username}`) }} />;
  const work = p.fresh.length + p.enrol.length;
  const kind = planKind(p.fresh.length, p.enrol.length);
  return (
    <div className="card csv-plan" data-plan>
      {p.fresh.length > 0 && (
        <>
          <h4>{t('staff.people.csv.fresh', { count: p.fresh.length })}</h4>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t('staff.people.csv.fresh', { count: p.fresh.length })}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('staff.people.csv.line')}</th>
                  <th scope="col">{t('staff.people.username')}</th>
                  <th scope="col">{t('staff.people.name')}</th>
                  <th scope="col">{t('staff.people.email')}</th>
                </tr>
              </thead>
              <tbody>
                {p.fresh.map((r) => (
                  <tr key={r.line} data-fresh={r.username}>
                    <td>{r.line}</td>
                    <td>
                      {r.username}
                      {r.usernameInFile && <span className="muted"> {t('staff.people.csv.madeOf', { name: r.usernameInFile })}</span>}
                    </td>
                    <td>{rowName(r)}</td>
                    <td>{r.email}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {p.enrol.length > 0 && (
        <p>
          {t('staff.people.csv.enrol', { count: p.enrol.length })} {p.enrol.map((e) => e.account.username).join(', ')}
        </p>
      )}
      {p.members.length > 0 && (
        <p className="muted">
          {t('staff.people.csv.members', { count: p.members.length })} {p.members.map((e) => e.account.username).join(', ')}
        </p>
      )}
      {work === 0 ? (
        <p>{t('staff.people.csv.nothing')}</p>
      ) : (
        <button type="button" className="primary" disabled={busy} onClick={onRun}>
          {kind === 'both' ? t('staff.people.csv.run', { created: p.fresh.length, enrolled: p.enrol.length }) : t(`staff.people.csv.run.${kind}`, { count: kind === 'create' ? p.fresh.length : p.enrol.length })}
        </button>
      )}
    </div>
  );
}
