import type { Ranking } from '@judge/contract';
import { useMemo } from 'react';
import { useT } from '../../i18n/I18n';
import { columnsOf, firstSolvers } from './model';
import { Row } from './Row';

/** Scrolls the table's own region (never the page) so the row sits in its middle. */
export function centreInRegion(row: HTMLElement | null): void {
  const region = row?.closest<HTMLElement>('.standings-region');
  if (!row || !region) return;
  const target = row.offsetTop - region.clientHeight / 2 + row.offsetHeight / 2;
  region.scrollTop = Math.max(0, target);
}

function Head({ ranking }: { ranking: Ranking }) {
  const t = useT();
  const columns = useMemo(() => columnsOf(ranking.problems), [ranking.problems]);
  return (
    <thead>
      <tr>
        <th scope="col" className="rank" title={t('standings.rank')}>
          <span aria-hidden="true">#</span>
          <span className="visually-hidden">{t('standings.rank')}</span>
        </th>
        <th scope="col" className="who">
          {t('standings.participant')}
        </th>
        {ranking.rankingType === 'icpc' ? (
          <>
            <th scope="col" className="total">
              {t('standings.solved')}
            </th>
            <th scope="col" className="total" title={t('standings.penaltyHint')}>
              {t('standings.penalty')}
            </th>
          </>
        ) : (
          <th scope="col" className="total">
            {t('standings.points')}
          </th>
        )}
        {columns.map((c) => (
          <th key={c.id} scope="col" className="problem" title={c.name}>
            <span aria-hidden="true">{c.label}</span>
            <span className="visually-hidden">{c.label === c.name ? c.name : `${c.label}: ${c.name}`}</span>
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * The standings table in a region of its own that scrolls both ways: the header and the rank and
 * name columns stay put, and the reader's own row sticks to the top or bottom edge when scrolled
 * away, so it is always in view. It opens at the top, with the leaders: the page's "Show my row"
 * brings the reader's row to the middle when asked, never by itself.
 */
export function StandingsTable({
  ranking,
  ownUserId,
  caption,
  medals,
}: {
  ranking: Ranking;
  ownUserId: string | undefined;
  caption: string;
  /** Medals of a finalised activity, by user (decisions §24). */
  medals?: ReadonlyMap<string, 'gold' | 'silver' | 'bronze'>;
}) {
  const columns = useMemo(() => columnsOf(ranking.problems), [ranking.problems]);
  const firsts = useMemo(() => firstSolvers(ranking), [ranking]);
  const kind = ranking.rankingType;

  return (
    <div className="standings-region" role="region" aria-label={caption} tabIndex={0}>
      <table className={`standings ${kind}`}>
        <caption className="visually-hidden">{caption}</caption>
        <Head ranking={ranking} />
        <tbody>
          {ranking.rows.map((row) => {
            const own = row.userId === ownUserId;
            return <Row key={row.userId} row={row} columns={columns} kind={kind} own={own} firsts={firsts.get(row.userId) ?? ''} medal={medals?.get(row.userId)} />;
          })}
        </tbody>
      </table>
    </div>
  );
}
