/**
 * A reader of a scoreboard feed (Server-Sent Events) over real HTTP: what a signed-out screen's
 * EventSource gets, message by message, and a way to hang up.
 */
export interface FeedReader {
  status: number;
  contentType: string | null;
  /** Every message received so far, each without its trailing blank line. */
  messages: string[];
  /** Waits until a message matching `test` arrives after the `from`-th, or fails after `ms`. */
  next(test: (m: string) => boolean, from: number, ms?: number): Promise<string>;
  /** Whether the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openFeed(url: string, headers: Record<string, string> = {}): Promise<FeedReader> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const messages: string[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  const ended = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const text = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffered += text.decode(value, { stream: true });
        let i: number;
        while ((i = buffered.indexOf('\n\n')) >= 0) {
          messages.push(buffered.slice(0, i));
          buffered = buffered.slice(i + 2);
        }
        for (const w of waiters) w();
      }
    } catch {
      // aborted by close()
    }
  })();
  const next = (test: (m: string) => boolean, from: number, ms = 5000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = messages.slice(from).find(test);
        if (found === undefined) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching message in ${ms} ms; got ${JSON.stringify(messages)}`));
      }, ms);
      if (!check()) waiters.add(check);
    });
  return { status: res.status, contentType: res.headers.get('content-type'), messages, next, ended, close: () => abort.abort() };
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function eventually(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
