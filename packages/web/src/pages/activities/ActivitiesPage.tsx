import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { Time } from '../../i18n/time';

type State = 'ongoing' | 'upcoming' | 'finished';
const ORDER: State[] = ['ongoing', 'upcoming', 'finished'];

/** The activities the signed-in user can see, grouped as running, upcoming and finished. */
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
                <li key={a.id} className="card">
                  <h3>
                    <Link to={`/a/${encodeURIComponent(a.slug)}`}>{a.name}</Link>
                  </h3>
                  <p className="muted">
                    {a.startDate && state === 'upcoming' && <>{t('activities.starts')} <Time iso={a.startDate} timeZone={a.timeZone} /></>}
                    {a.endDate && state !== 'upcoming' && <>{t('activities.ends')} <Time iso={a.endDate} timeZone={a.timeZone} /></>}
                  </p>
                  {a.enrolled && <span className="badge">{t('activities.joined')}</span>}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </section>
  );
}
