import type { ParticipantSeries } from '@judge/contract';
import { Link, useOutletContext } from 'react-router';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { Time } from '../../i18n/time';
import type { ActivityContext } from './ActivityLayout';
import { problemLetter } from './letters';

type Summary = NonNullable<ParticipantSeries['problems']>[number];

function StatusBadge({ p }: { p: Summary }) {
  const t = useT();
  const score = p.bestScore !== undefined && p.maxScore !== undefined ? t('problems.score', { score: p.bestScore, max: p.maxScore }) : '';
  const text = p.status === 'partial' ? `${t('problems.status.partial')} ${score}` : t(`problems.status.${p.status}`);
  return <span className={`status status-${p.status}`}>{text}</span>;
}

function Window({ s, timeZone }: { s: ParticipantSeries; timeZone: string }) {
  const t = useT();
  if (!s.startDate && !s.endDate) return null;
  return (
    <p className="series-window muted">
      {s.startDate && (
        <>
          {t('series.from')} <Time iso={s.startDate} timeZone={timeZone} />
        </>
      )}{' '}
      {s.endDate && (
        <>
          {t('series.until')} <Time iso={s.endDate} timeZone={timeZone} />
        </>
      )}
      {s.pausedAt && <span className="badge">{t('series.paused')}</span>}
    </p>
  );
}

function ProblemList({ slug, problems }: { slug: string; problems: Summary[] }) {
  const t = useT();
  const sorted = [...problems].sort((a, b) => a.order - b.order);
  return (
    <ol className="problem-list">
      {sorted.map((p, i) => (
        <li key={p.id}>
          <Link to={`/a/${encodeURIComponent(slug)}/p/${encodeURIComponent(p.slug)}`}>
            <span className="letter" aria-hidden="true">
              {problemLetter(i)}
            </span>
            <span className="visually-hidden">{t('problems.letter', { letter: problemLetter(i) })} </span>
            <span className="problem-name">{p.name}</span>
          </Link>
          <StatusBadge p={p} />
        </li>
      ))}
    </ol>
  );
}

function SeriesSection({ slug, s, timeZone }: { slug: string; s: ParticipantSeries; timeZone: string }) {
  const t = useT();
  return (
    <section className="series card" aria-labelledby={`series-${s.id}`}>
      <h2 id={`series-${s.id}`}>{s.name}</h2>
      <Window s={s} timeZone={timeZone} />
      {s.problems ? (
        s.problems.length ? <ProblemList slug={slug} problems={s.problems} /> : <p className="muted">{t('series.empty')}</p>
      ) : (
        <p className="muted">{s.problemCount !== undefined ? t('series.hiddenCount', { count: s.problemCount }) : t('series.hidden')}</p>
      )}
    </section>
  );
}

/** The activity's series in order, each with its window and its problems with the caller's status. */
export default function ActivityHome() {
  const t = useT();
  const { activity, series, seriesError } = useOutletContext<ActivityContext>();
  usePageTitle(activity.name);
  return (
    <section className="activity-home">
      <h1 className="page-title">{t('problems.title')}</h1>
      {seriesError ? <ErrorBox error={seriesError} /> : null}
      {!series ? !seriesError && <Loading /> : series.length === 0 ? <p>{t('series.none')}</p> : series.map((s) => <SeriesSection key={s.id} slug={activity.slug} s={s} timeZone={activity.timeZone} />)}
    </section>
  );
}
