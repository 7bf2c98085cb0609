import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { useAccount } from '../../app/session';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { AwardsPanel, useStandingsAwards } from './AwardsPanel';
import { SeriesPicker } from './SeriesPicker';
import { centreInRegion, StandingsTable } from './StandingsTable';
import './standings.css';

/** The activity's ranking as the server computes it, refetched whenever the socket says it changed. */
export default function StandingsPage() {
  const t = useT();
  const slug = useParams().activity ?? '';
  const [params, setParams] = useSearchParams();
  const seriesId = params.get('series') ?? undefined;
  const account = useAccount();
  const activity = useQuery({ queryKey: keys.activity(slug), queryFn: () => call(ops.getActivity, { params: { idOrSlug: slug } }) });
  const series = useQuery({ queryKey: keys.series(slug), queryFn: () => call(ops.listActivitySeries, { params: { idOrSlug: slug } }) });
  const ranking = useQuery({
    queryKey: keys.ranking(slug, seriesId),
    queryFn: () => call(ops.getRanking, { params: { idOrSlug: slug }, query: seriesId ? { seriesId } : {} }),
  });
  // awards only on the standings of every series: a series on its own is not what they were given for
  const awards = useStandingsAwards(slug, seriesId ? undefined : activity.data?.finalizedAt);
  usePageTitle(activity.data ? `${t('standings.title')} · ${activity.data.name}` : t('standings.title'));

  const ownId = account.data?.userId;
  const own = ranking.data?.rows.some((r) => r.userId === ownId);
  const pick = (id: string) => setParams(id ? { series: id } : {}, { replace: true });

  return (
    <section className="standings-page">
      <div className="standings-bar">
        <h1>{t('standings.title')}</h1>
        {(series.data?.length ?? 0) > 1 && <SeriesPicker series={series.data!} value={seriesId ?? ''} onChange={pick} />}
        {activity.data?.canManage && (
          <Link className="projector-link" to={`/a/${encodeURIComponent(slug)}/projector`}>
            {t('scoreboard.projector')}
          </Link>
        )}
        {own && (
          <button type="button" className="link-button show-mine" onClick={() => centreInRegion(document.querySelector<HTMLElement>('.standings tr.own'))}>
            {t('standings.showMine')}
          </button>
        )}
      </div>
      {ranking.data?.frozen && (
        <p className="frozen-banner" role="status">
          {t('standings.frozen')}
        </p>
      )}
      {awards.awards.length > 0 && <p className="final-banner">{t('awards.final')}</p>}
      {ranking.isPending && <Loading />}
      {ranking.isError && <ErrorBox error={ranking.error} />}
      {ranking.data && ranking.data.rows.length === 0 && <p>{t('standings.empty')}</p>}
      {ranking.data && ranking.data.rows.length > 0 && (
        <>
          <StandingsTable ranking={ranking.data} ownUserId={ownId} caption={t('standings.caption', { activity: activity.data?.name ?? slug })} medals={awards.medals} />
          <p className="muted legend">{t(ranking.data.rankingType === 'icpc' ? 'standings.legend.icpc' : 'standings.legend.points')}</p>
          <AwardsPanel awards={awards.awards} />
        </>
      )}
    </section>
  );
}
