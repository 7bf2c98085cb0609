import type { Scoreboard } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { call, isProblem } from '../../api/client';

/** Whose board: an activity's (public, or read signed in), or a display link's. */
export type BoardSource = { slug: string } | { token: string };

/** A change said on the feed waits this long for others before the board is read again. */
const DEBOUNCE_MS = 400;
/** Read again now and then without being told, in case the feed missed something (a freeze starting). */
const FALLBACK_MS = 60_000;

/**
 * The public board, kept live by the scoreboard's read-only feed (Server-Sent Events): a message
 * carries nothing but "changed", so the board is read again (debounced), through the same access
 * rule as the first read. Works signed out; a signed-in browser sends its cookie along.
 */
export function useBoard(src: BoardSource) {
  const qc = useQueryClient();
  const isDisplay = 'token' in src;
  const id = isDisplay ? src.token : src.slug;
  const queryKey = useMemo(() => ['scoreboard', isDisplay ? 'display' : 'activity', id] as const, [isDisplay, id]);
  const board = useQuery({
    queryKey,
    queryFn: (): Promise<Scoreboard> => (isDisplay ? call(ops.getDisplayScoreboard, { params: { token: id } }) : call(ops.getScoreboard, { params: { idOrSlug: id } })),
    refetchInterval: FALLBACK_MS,
    retry: (n, e) => !isProblem(e, 404) && n < 3,
  });
  const [live, setLive] = useState(false);
  useEffect(() => {
    const url = isDisplay ? `/api/v1/displays/${encodeURIComponent(id)}/feed` : `/api/v1/activities/${encodeURIComponent(id)}/scoreboard/feed`;
    const feed = new EventSource(url);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reread = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void qc.invalidateQueries({ queryKey }), DEBOUNCE_MS);
    };
    feed.onopen = () => setLive(true);
    feed.onmessage = reread;
    // the feed ended (access ended, the server restarted): the board says which, and EventSource retries
    feed.onerror = () => {
      setLive(false);
      reread();
    };
    return () => {
      clearTimeout(timer);
      feed.close();
    };
  }, [qc, queryKey, isDisplay, id]);
  return { board, live };
}

/** The server's time now, from the board's serverTime (a screen's own clock may be wrong), ticking each second. */
export function useBoardClock(board: Scoreboard | undefined): number | undefined {
  const [offset, setOffset] = useState<number | undefined>(undefined);
  const [, tick] = useState(0);
  useEffect(() => {
    if (board) setOffset(Date.parse(board.serverTime) - Date.now());
  }, [board]);
  useEffect(() => {
    const every = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(every);
  }, []);
  return offset === undefined ? undefined : Date.now() + offset;
}

/** h:mm:ss (or m:ss) of a span in milliseconds. */
export function span(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}
