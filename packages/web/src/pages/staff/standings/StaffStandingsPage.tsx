import { Link, useSearchParams } from 'react-router';
import { useAccount } from '../../../app/session';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { SeriesPicker } from '../../standings/SeriesPicker';
import { StandingsTable } from '../../standings/StandingsTable';
import '../../standings/standings.css';
import { useStaffActivity } from '../activity/context';
import { JudgectlHint } from '../JudgectlHint';
import { useActivitySeries } from '../useActivitySeries';
import { CsvDownload } from './CsvDownload';
import { useStaffRanking, type RankingView } from './useStaffRanking';
import { ViewSwitch } from './ViewSwitch';
import './staff-standings.css';

/**
 * An activity's standings for its staff: the full view through the freeze, or exactly what the
 * participants see (the server's public view, for a projector), and the CSV download. The view
 * and the series are in the address, so a projector's tab opens where it was left.
 */
export default function StaffStandingsPage() {
  const t = useT();
  const { activity } = useStaffActivity();
  const [params, setParams] = useSearchParams();
  const seriesId = params.get('series') ?? undefined;
  const view: RankingView = params.get('view') === 'public' ? 'public' : 'own';
  const series = useActivitySeries(activity.slug);
  const ranking = useStaffRanking(activity.slug, seriesId, view);
  const account = useAccount();
  usePageTitle(`${t('staff.standings.title')} · ${activity.name}`);
  const set = (key: 'series' | 'view', value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const seriesSlug = series.data?.find((s) => s.id === seriesId)?.slug;
  const data = ranking.data;
  return (
    <section className="staff-standings" data-view={view}>
      <h2 className="page-title">{t('staff.standings.title')}</h2>
      <div className="standings-bar">
        <ViewSwitch value={view} onChange={(v) => set('view', v === 'public' ? v : undefined)} />
        {(series.data?.length ?? 0) > 1 && <SeriesPicker series={series.data!} value={seriesId ?? ''} onChange={(id) => set('series', id || undefined)} />}
        <Link className="ceremony-link" to={`/ceremony/${encodeURIComponent(activity.slug)}`}>
          {t('ceremony.open')}
        </Link>
      </div>
      <p className={view === 'public' ? 'notice' : 'muted'}>{t(view === 'public' ? 'staff.standings.publicNote' : 'staff.standings.ownNote')}</p>
      {data?.frozen && (
        <p className="frozen-banner" role="status">
          {t('standings.frozen')}
        </p>
      )}
      {ranking.isPending && <Loading />}
      {ranking.isError && <ErrorBox error={ranking.error} />}
      {data && data.rows.length === 0 && <p>{t('standings.empty')}</p>}
      {data && data.rows.length > 0 && (
        <>
          <StandingsTable ranking={data} ownUserId={account.data?.userId} caption={t('standings.caption', { activity: activity.name })} />
          <p className="muted legend">{t(data.rankingType === 'icpc' ? 'standings.legend.icpc' : 'standings.legend.points')}</p>
        </>
      )}
      <CsvDownload slug={activity.slug} seriesId={seriesId} seriesSlug={seriesSlug} />
      <JudgectlHint command={`judgectl ranking ${activity.slug} --csv > standings.csv`} />
      <JudgectlHint command={`judgectl ranking ${activity.slug} --public`} />
    </section>
  );
}
