import { useEffect, useRef, type RefObject } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isProblem } from '../../api/client';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { BoardHeader } from './BoardHeader';
import { BoardTable } from './BoardTable';
import { useBoard, type BoardSource } from './useBoard';
import './scoreboard.css';

/** Seconds one screenful takes to scroll by (?pace=SECONDS); the default reads comfortably from the back. */
const DEFAULT_PACE = 12;
/** How long the top and the bottom of the standings stay before the scroll moves on. */
const HOLD_MS = 4000;

function BoardState({ error }: { error: unknown }) {
  const t = useT();
  if (isProblem(error, 404)) return <p className="sb-missing">{t('scoreboard.notFound')}</p>;
  return <ErrorBox error={error} />;
}

/** /a/:activity/scoreboard: the public board in the app's frame, signed in or not. */
export function ScoreboardPage() {
  const t = useT();
  const slug = useParams().activity ?? '';
  const { board, live } = useBoard({ slug });
  usePageTitle(board.data ? `${t('scoreboard.title')} · ${board.data.activity.name}` : t('scoreboard.title'));
  return (
    <section className="scoreboard-page">
      {board.isPending && <Loading />}
      {board.isError && <BoardState error={board.error} />}
      {board.data && (
        <>
          <BoardHeader board={board.data} live={live} />
          {board.data.ranking.rows.length === 0 ? <p>{t('scoreboard.empty')}</p> : <BoardTable board={board.data} />}
          <p className="sb-links">
            <Link to={`/a/${encodeURIComponent(slug)}/projector`}>{t('scoreboard.projector')}</Link>
          </p>
        </>
      )}
    </section>
  );
}

/**
 * Scrolls a long table by itself: holds at the top, moves one screenful per `pace` seconds, holds
 * at the bottom, and starts again from the top. The header row stays (it is sticky in the box).
 */
function useAutoScroll(box: RefObject<HTMLDivElement | null>, pace: number): void {
  useEffect(() => {
    let phase: 'top' | 'moving' | 'bottom' = 'top';
    let held = 0;
    let pos = 0;
    let last = performance.now();
    const every = setInterval(() => {
      const el = box.current;
      const now = performance.now();
      const dt = now - last;
      last = now;
      if (!el) return;
      const max = el.scrollHeight - el.clientHeight;
      if (max <= 1) return;
      if (phase !== 'moving') {
        held += dt;
        if (held < HOLD_MS) return;
        held = 0;
        if (phase === 'bottom') pos = 0;
        phase = phase === 'bottom' ? 'top' : 'moving';
      } else {
        pos = Math.min(max, pos + (el.clientHeight * dt) / (pace * 1000));
        if (pos >= max) phase = 'bottom';
      }
      el.scrollTop = pos;
    }, 40);
    return () => clearInterval(every);
  }, [box, pace]);
}

/** The projector: full screen, dark, large type, auto-scrolling, live; the public view only. */
function Projector({ src }: { src: BoardSource }) {
  const t = useT();
  const [params] = useSearchParams();
  const asked = Number(params.get('pace'));
  const pace = Number.isFinite(asked) && asked >= 2 && asked <= 600 ? asked : DEFAULT_PACE;
  const { board, live } = useBoard(src);
  const box = useRef<HTMLDivElement>(null);
  useAutoScroll(box, pace);
  usePageTitle(board.data ? board.data.activity.name : t('scoreboard.title'));
  useEffect(() => {
    document.documentElement.classList.add('projecting');
    return () => document.documentElement.classList.remove('projecting');
  }, []);
  return (
    <main className="projector">
      {board.isPending && <Loading />}
      {board.isError && <BoardState error={board.error} />}
      {board.data && (
        <>
          <BoardHeader board={board.data} live={live} />
          <div className="projector-scroll" ref={box}>
            {board.data.ranking.rows.length === 0 ? <p>{t('scoreboard.empty')}</p> : <BoardTable board={board.data} />}
          </div>
        </>
      )}
    </main>
  );
}

/** /a/:activity/projector: signed in or, for a public scoreboard, not. */
export function ProjectorPage() {
  return <Projector src={{ slug: useParams().activity ?? '' }} />;
}

/** /display/:token: a screen nobody signs in on, through the activity's display link. */
export function DisplayPage() {
  return <Projector src={{ token: useParams().token ?? '' }} />;
}
