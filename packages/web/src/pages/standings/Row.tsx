import type { RankingCell, RankingRow } from '@judge/contract';
import { memo } from 'react';
import { useT } from '../../i18n/I18n';
import { isTouched, solveMinute, type Column } from './model';

type Kind = 'icpc' | 'points';
type T = ReturnType<typeof useT>;

/** The cell's meaning in words, for screen readers and the hover text. */
function describe(t: T, kind: Kind, c: RankingCell, first: boolean): string {
  const parts: string[] = [];
  if (kind === 'icpc' && c.solved) parts.push(t('standings.cell.solved', { count: c.attempts, minutes: solveMinute(c) ?? 0 }));
  else if (kind === 'icpc' && c.attempts > 0) parts.push(t('standings.cell.rejected', { count: c.attempts }));
  if (kind === 'points' && c.points !== undefined) parts.push(t('standings.cell.points', { count: c.points }));
  if (c.pending > 0) parts.push(t('standings.cell.pending', { count: c.pending }));
  if (c.frozen > 0) parts.push(t('standings.cell.frozen', { count: c.frozen }));
  if (first) parts.push(t('standings.cell.first'));
  return parts.join('; ');
}

/** What the cell shows: +k / −n and the minute (icpc) or the points, then ? for pending and n? for frozen. */
function Marks({ kind, c }: { kind: Kind; c: RankingCell }) {
  const minute = solveMinute(c);
  return (
    <span aria-hidden="true" className="marks">
      {kind === 'icpc' && c.solved && <span className="tries">{c.attempts > 1 ? `+${c.attempts - 1}` : '+'}</span>}
      {kind === 'icpc' && !c.solved && c.attempts > 0 && <span className="tries">−{c.attempts}</span>}
      {kind === 'points' && c.points !== undefined && <span className="tries">{c.points}</span>}
      {c.pending > 0 && <span className="pending-mark">?</span>}
      {c.frozen > 0 && <span className="frozen-mark">{c.frozen}?</span>}
      {kind === 'icpc' && minute !== undefined && <span className="minute">{minute}</span>}
    </span>
  );
}

function Cell({ kind, c, first }: { kind: Kind; c: RankingCell; first: boolean }) {
  const t = useT();
  if (!isTouched(c)) return <td className="cell" />;
  const words = describe(t, kind, c, first);
  const cls = ['cell', c.solved ? 'ok' : c.attempts > 0 && (kind === 'icpc' || !c.points) ? 'bad' : c.attempts > 0 ? 'part' : '', c.frozen > 0 ? 'frozen' : '', first ? 'first' : ''];
  return (
    <td className={cls.filter(Boolean).join(' ')} title={words}>
      <Marks kind={kind} c={c} />
      <span className="visually-hidden">{words}</span>
    </td>
  );
}

export interface RowProps {
  row: RankingRow;
  columns: Column[];
  kind: Kind;
  own: boolean;
  /** Problem ids this row solved first, space-separated (a string, so an unchanged row is equal). */
  firsts: string;
  /** The medal of a finalised activity's row (decisions §24). */
  medal?: 'gold' | 'silver' | 'bronze' | undefined;
}

/**
 * One participant's row. Memoised: a refetch keeps unchanged rows as the same objects (the query
 * cache shares structure), so a live update of a 1,000-row table renders only the rows that moved.
 */
export const Row = memo(function Row({ row, columns, kind, own, firsts, medal }: RowProps) {
  const t = useT();
  const first = new Set(firsts ? firsts.split(' ') : []);
  return (
    <tr className={[own ? 'own' : '', medal ? `medal-${medal}` : ''].filter(Boolean).join(' ') || undefined} aria-current={own ? 'true' : undefined} data-user={row.userId}>
      <td className="rank">{row.rank}</td>
      <th scope="row" className="who">
        <span className="name">{row.userName}</span>
        {own && <span className="you"> ({t('standings.you')})</span>}
        {medal && <span className="medal-name">{t(`awards.medal.${medal}`)}</span>}
      </th>
      {kind === 'icpc' ? (
        <>
          <td className="total">{row.solved}</td>
          <td className="total">{row.penalty ?? 0}</td>
        </>
      ) : (
        <td className="total">{row.points ?? 0}</td>
      )}
      {row.cells.map((c, i) => (
        <Cell key={columns[i]?.id ?? c.problemId} kind={kind} c={c} first={first.has(c.problemId)} />
      ))}
    </tr>
  );
});
