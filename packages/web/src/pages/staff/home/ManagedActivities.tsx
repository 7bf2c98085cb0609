import type { Activity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useServerClockSync, useServerSecond } from '../../../clock/hooks';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { ActivityPhase } from './ActivityPhase';

const PAGE_SIZE = 100;

function kindKey(type: string) {
  return type.startsWith('course') ? 'staff.home.kind.course' : 'staff.home.kind.contest';
}

function ActivityItem({ a, now }: { a: Activity; now: number }) {
  const t = useT();
  return (
    <li className="card managed-activity" data-activity={a.slug}>
      <h3>
        <Link to={`/staff/a/${encodeURIComponent(a.slug)}`}>{a.name}</Link>
      </h3>
      <p className="managed-facts">
        <span className="badge">{t(kindKey(a.type))}</span>
        {!a.publishedAt && <span className="badge">{t('staff.home.unpublished')}</span>}
        {a.archivedAt && <span className="badge">{t('staff.home.archived')}</span>}
        <ActivityPhase activity={a} now={now} />
      </p>
      <p className="muted managed-counts">{t('staff.home.counts', { participants: a.participantCount, series: a.seriesCount, problems: a.problemCount })}</p>
    </li>
  );
}

/** The activities the reader manages (every one, for an administrator), newest first, each a link to its dashboard. */
export function ManagedActivities({ mayCreate }: { mayCreate: boolean }) {
  const t = useT();
  useServerClockSync();
  const now = useServerSecond() * 1000;
  const q = useQuery({ queryKey: keys.managedActivities, queryFn: () => call(ops.listManagedActivities, { query: { pageSize: PAGE_SIZE } }) });
  return (
    <section aria-labelledby="managed-title">
      <div className="staff-home-row">
        <h2 id="managed-title">{t('staff.home.activities')}</h2>
        {mayCreate && (
          <Link className="button-link" to="/staff/new">
            {t('staff.home.new')}
          </Link>
        )}
      </div>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {q.data && q.data.items.length === 0 && <p>{t('staff.home.noActivities')}</p>}
      {q.data && q.data.items.length > 0 && (
        <ul className="cards managed-activities">
          {q.data.items.map((a) => (
            <ActivityItem key={a.id} a={a} now={now} />
          ))}
        </ul>
      )}
      {q.data && q.data.total > q.data.items.length && <p className="muted">{t('staff.home.more', { shown: q.data.items.length, total: q.data.total })}</p>}
    </section>
  );
}
