import type { RankingCell, Scoreboard } from '@judge/contract';
import { useT } from '../../i18n/I18n';
import { columnsOf, isTouched, solveMinute } from '../standings/model';

type Kind = 'icpc' | 'points';

/** One cell: +k and the minute (icpc) or the points; ? waiting; n? hidden by the freeze; ★ first to solve. */
function Cell({ kind, c, first }: { kind: Kind; c: RankingCell; first: boolean }) {
  const t = useT();
  if (!isTouched(c)) return <td className="sb-cell" />;
  const minute = solveMinute(c);
  const cls = ['sb-cell', c.solved ? 'ok' : c.attempts > 0 ? 'bad' : '', c.frozen > 0 ? 'frozen' : '', c.pending > 0 ? 'pending' : '', first ? 'first' : ''];
  return (
    <td className={cls.filter(Boolean).join(' ')} title={first ? t('scoreboard.first') : undefined}>
      {kind === 'icpc' && c.solved && <span className="tries">{c.attempts > 1 ? `+${c.attempts - 1}` : '+'}</span>}
      {kind === 'icpc' && !c.solved && c.attempts > 0 && <span className="tries">−{c.attempts}</span>}
      {kind === 'points' && c.points !== undefined && <span className="tries">{c.points}</span>}
      {c.pending > 0 && <span className="pending-mark">?</span>}
      {c.frozen > 0 && <span className="frozen-mark">{c.frozen}?</span>}
      {first && <span className="first-mark" aria-label={t('scoreboard.first')}>★</span>}
      {kind === 'icpc' && minute !== undefined && <span className="minute">{minute}</span>}
    </td>
  );
}

/**
 * The board's table, for the scoreboard page and the projector alike (their styles size it):
 * medal colours on the rows that hold one, first solves starred, frozen cells marked. Every name
 * is rendered as text (React escapes it).
 */
export function BoardTable({ board }: { board: Scoreboard }) {
  const t = useT();
  const { ranking } = board;
  const kind = ranking.rankingType;
  const columns = columnsOf(ranking.problems);
  const medals = new Map(board.medals.map((m) => [m.userId, m.medal]));
  const firsts = new Set(board.firstSolves.map((f) => `${f.userId} ${f.problemId}`));
  return (
    <table className="sb-table">
      <caption className="visually-hidden">{t('scoreboard.caption', { activity: board.activity.name })}</caption>
      <thead>
        <tr>
          <th scope="col" className="rank">{t('scoreboard.rank')}</th>
          <th scope="col" className="who">{t('scoreboard.participant')}</th>
          {kind === 'icpc' ? (
            <>
              <th scope="col" className="total">{t('scoreboard.solved')}</th>
              <th scope="col" className="total">{t('scoreboard.penalty')}</th>
            </>
          ) : (
            <th scope="col" className="total">{t('scoreboard.points')}</th>
          )}
          {columns.map((c) => (
            <th scope="col" key={c.id} className="problem" title={c.name}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ranking.rows.map((row) => {
          const medal = medals.get(row.userId);
          return (
            <tr key={row.userId} className={medal ? `medal-${medal}` : undefined} data-user={row.userId}>
              <td className="rank">
                {row.rank}
                {medal && <span className="visually-hidden"> ({t(`scoreboard.medal.${medal}`)})</span>}
              </td>
              <th scope="row" className="who">{row.userName}</th>
              {kind === 'icpc' ? (
                <>
                  <td className="total">{row.solved}</td>
                  <td className="total">{row.penalty ?? 0}</td>
                </>
              ) : (
                <td className="total">{row.points ?? 0}</td>
              )}
              {row.cells.map((c, i) => (
                <Cell key={columns[i]?.id ?? c.problemId} kind={kind} c={c} first={firsts.has(`${row.userId} ${c.problemId}`)} />
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
