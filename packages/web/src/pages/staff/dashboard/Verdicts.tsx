import type { ActivityDashboard } from '@judge/contract';
import { Link } from 'react-router';
import { toneOf, verdictMessage } from '../../../components/Verdict';
import { useT } from '../../../i18n/I18n';
import type { DashboardLinks } from './links';

/** Judged submissions by verdict, the most frequent first, each a link to those submissions. */
export function Verdicts({ d, links }: { d: ActivityDashboard; links: DashboardLinks }) {
  const t = useT();
  const judged = d.verdicts.reduce((s, v) => s + v.count, 0);
  return (
    <section className="dashboard-verdicts" aria-labelledby="dashboard-verdicts">
      <h3 id="dashboard-verdicts">{t('staff.dashboard.verdicts')}</h3>
      {d.verdicts.length === 0 ? (
        <p className="muted">{t('staff.dashboard.noVerdicts')}</p>
      ) : (
        <ul className="verdict-counts">
          {d.verdicts.map((v) => {
            const m = verdictMessage({ verdict: v.verdict });
            return (
              <li key={v.verdict} data-verdict={v.verdict}>
                <Link to={links.verdict(v.verdict)} className={`verdict-count tone-${toneOf({ verdict: v.verdict })}`}>
                  <span className="verdict-count-value">{v.count}</span> <span>{t(m.key, m.params)}</span>{' '}
                  <span className="muted">({Math.round((v.count / judged) * 100)} %)</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
