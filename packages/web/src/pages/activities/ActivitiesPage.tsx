import type { ParticipantActivity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { Time } from '../../i18n/time';
import { JoinBox } from '../activity/JoinBox';
import '../activity/activity.css';

type State = ParticipantActivity['state'];
const ORDER: State[] = ['ongoing', 'upcoming', 'finished'];

function Times({ a }: { a: ParticipantActivity }) {
  const t = useT();
  if (!a.startDate && !a.endDate) return null;
  return (
    <dl className="times">
      {a.startDate && (
        <div>
          <dt>{a.state === 'upcoming' ? t('activities.starts') : t('activities.started')}</dt>
          <dd>
            <Time iso={a.startDate} timeZone={a.timeZone} />
          </dd>
        </div>
      )}
      {a.endDate && (
        <div>
          <dt>{a.state === 'finished' ? t('activities.ended') : t('activities.ends')}</dt>
          <dd>
            <Time iso={a.endDate} timeZone={a.timeZone} />
          </dd>
        </div>
      )}
    </dl>
  );
}

function ActivityCard({ a }: { a: ParticipantActivity }) {
  const t = useT();
  return (
    <li className="card activity-card">
      <h3>
        <Link to={`/a/${encodeURIComponent(a.slug)}`}>{a.name}</Link>
      </h3>
      <Times a={a} />
      {a.enrolled ? <span className="badge joined">{t('activities.joined')}</span> : a.canManage ? <span className="badge">{t('activities.managing')}</span> : <JoinBox activity={a} compact />}
    </li>
  );
}

/** The activities the signed-in user can see, grouped as running, upcoming and finished, each joinable by its policy. */
export default function ActivitiesPage() {
  const t = useT();
  usePageTitle(t('activities.title'));
  const q = useQuery({ queryKey: keys.activities, queryFn: () => call(ops.listActivities, { query: { pageSize: 200 } }) });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorBox error={q.error} />;
  const items = q.data.items;
  return (
    <section>
      <h1>{t('activities.title')}</h1>
      {items.length === 0 && <p>{t('activities.none')}</p>}
      {ORDER.map((state) => {
        const group = items.filter((a) => a.state === state);
        if (!group.length) return null;
        return (
          <section key={state} aria-labelledby={`activities-${state}`}>
            <h2 id={`activities-${state}`}>{t(`activities.state.${state}`)}</h2>
            <ul className="cards">
              {group.map((a) => (
                <ActivityCard key={a.id} a={a} />
              ))}
            </ul>
          </section>
        );
      })}
    </section>
  );
}
