import type { Scoreboard } from '@judge/contract';
import { useT } from '../../i18n/I18n';
import { span, useBoardClock } from './useBoard';

/** The activity's name, the clock counting to the end (or to the start), whether the feed is live, and the freeze banner. */
export function BoardHeader({ board, live }: { board: Scoreboard; live: boolean }) {
  const t = useT();
  const now = useBoardClock(board);
  const start = board.activity.startDate ? Date.parse(board.activity.startDate) : undefined;
  const end = board.activity.endDate ? Date.parse(board.activity.endDate) : undefined;
  let clock = '';
  if (now !== undefined && start !== undefined && now < start) clock = t('scoreboard.startsIn', { time: span(start - now) });
  else if (now !== undefined && end !== undefined) clock = now < end ? t('scoreboard.endsIn', { time: span(end - now) }) : t('scoreboard.ended');
  return (
    <>
      <header className="sb-header">
        <h1>{board.activity.name}</h1>
        <span className="sb-clock" role="timer" aria-live="off">
          {clock}
        </span>
        <span className={live ? 'sb-live on' : 'sb-live'}>{live ? t('scoreboard.live') : ''}</span>
      </header>
      {board.freeze && (
        <p className="sb-frozen" role="status">
          <strong>{t('scoreboard.frozenShort')}</strong> {t('scoreboard.frozen', { time: new Date(board.freeze.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) })}
        </p>
      )}
    </>
  );
}
