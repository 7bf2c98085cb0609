import type { Runner } from '@judge/contract';
import { useState } from 'react';
import { useMay } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { EnrolmentCodes } from './EnrolmentCodes';
import { useRunners } from './queries';
import { RunnerCard } from './RunnerCard';
import './runners.css';

const FILTERS = ['', 'pendingApproval', 'approved', 'revoked'] as const;
type Filter = (typeof FILTERS)[number];

/**
 * The runners (for holders of runner:read): each one's state, fingerprint, tags, languages, whether
 * it is connected and what it judges now, live; approve, tag, revoke and forget as the reader may;
 * and, for those who may approve, enrolment codes with the lab command to copy.
 */
export default function RunnersPage() {
  const t = useT();
  const [filter, setFilter] = useState<Filter>('');
  const runners = useRunners(filter);
  const mayApprove = useMay(undefined, 'runner:approve');
  const waiting = runners.data?.items.filter((r: Runner) => r.state === 'pendingApproval').length ?? 0;
  usePageTitle(t('staff.runners.title'));
  return (
    <section className="staff-runners">
      <h1 className="page-title">{t('staff.runners.title')}</h1>
      <p className="muted">{t('staff.runners.intro')}</p>
      <div className="staff-filters">
        <label>
          {t('staff.runners.filter')}
          <select value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
            {FILTERS.map((f) => (
              <option key={f} value={f}>
                {t(f ? `staff.runners.filter.${f}` : 'staff.runners.filter.all')}
              </option>
            ))}
          </select>
        </label>
      </div>
      {waiting > 0 && (
        <p className="notice" role="status">
          {t('staff.runners.waiting', { count: waiting })}
        </p>
      )}
      {runners.isPending && <Loading />}
      {runners.isError && <ErrorBox error={runners.error} />}
      {runners.data && runners.data.items.length === 0 && <p>{t('staff.runners.none')}</p>}
      {runners.data && runners.data.items.length > 0 && (
        <ul className="runner-list">
          {runners.data.items.map((r) => (
            <RunnerCard key={r.id} runner={r} />
          ))}
        </ul>
      )}
      <JudgectlHint command="judgectl runners list" />
      {mayApprove && <EnrolmentCodes />}
    </section>
  );
}
