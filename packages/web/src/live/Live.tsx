import { LiveSocket, type LiveFrame, type LiveState } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { keys } from '../api/keys';
import { staleFamilies } from './invalidation';

type Listener = (frame: LiveFrame) => void;

interface Live {
  state: LiveState;
  /** Subscribes to every frame (for what a screen shows at once, such as test k of n); returns the unsubscribe. */
  subscribe(listener: Listener): () => void;
}

const Ctx = createContext<Live>({ state: 'closed', subscribe: () => () => {} });

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/v1/ws`;
}

/**
 * The one event socket of the tab, open while someone is signed in. Each frame invalidates the
 * queries it makes stale; after a reconnect everything is refetched, since frames sent while the
 * socket was down are lost.
 */
export function LiveProvider({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState>('closed');
  const listeners = useRef(new Set<Listener>());
  const [live] = useState<Omit<Live, 'state'>>(() => ({
    subscribe(l) {
      listeners.current.add(l);
      return () => listeners.current.delete(l);
    },
  }));

  useEffect(() => {
    if (!signedIn) return;
    const socket = new LiveSocket({
      url: socketUrl(),
      onFrame(frame) {
        if (frame.type === 'sessionExpired') {
          void qc.invalidateQueries({ queryKey: keys.account });
          return;
        }
        for (const family of staleFamilies(frame.type, frame.data)) void qc.invalidateQueries({ queryKey: [family] });
        for (const l of listeners.current) l(frame);
      },
      onState(s, reconnected) {
        setState(s);
        if (reconnected) void qc.invalidateQueries();
      },
      onUnauthorized() {
        void qc.invalidateQueries({ queryKey: keys.account });
      },
    });
    socket.start();
    // a laptop waking up or a network coming back should not wait out a 30 s backoff
    const retry = () => socket.retryNow();
    window.addEventListener('online', retry);
    document.addEventListener('visibilitychange', retry);
    return () => {
      window.removeEventListener('online', retry);
      document.removeEventListener('visibilitychange', retry);
      socket.stop();
    };
  }, [signedIn, qc]);

  return <Ctx.Provider value={{ state, subscribe: live.subscribe }}>{children}</Ctx.Provider>;
}

export function useLive(): Live {
  return useContext(Ctx);
}

/** Calls handler for each frame of the given type while the component is mounted. */
export function useLiveFrames(type: string, handler: (data: Record<string, unknown>) => void): void {
  const { subscribe } = useLive();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => subscribe((f) => f.type === type && ref.current(f.data)), [subscribe, type]);
}
