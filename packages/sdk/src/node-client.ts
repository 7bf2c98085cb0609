import { ApiClient } from './client.js';
import { EventStream, type EventStreamOptions } from './events.js';

/** The client for Node programs (CLI, runner, tests): the typed calls plus the event socket over `ws`. */
export class JudgeClient extends ApiClient {
  /** Opens the event socket with this client's session cookie. */
  events(opts: Omit<EventStreamOptions, 'url' | 'cookie' | 'origin'> = {}): EventStream {
    if (!this.cookie) throw new Error('the event socket needs a cookie session: use loginWithCookie');
    return new EventStream({ ...opts, url: `${this.baseUrl.replace(/^http/, 'ws')}/api/v1/ws`, cookie: this.cookie, origin: this.origin });
  }
}
