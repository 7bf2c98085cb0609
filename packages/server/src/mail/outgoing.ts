import type { Logger } from 'pino';
import { iso, type Clock } from '../util.js';
import type { Mail, Mailer } from './mailer.js';

/** A message that could not be sent after every try, as administrators see it in /health. */
export interface MailFailure {
  to: string;
  subject: string;
  /** Why the last try failed (MailFailed's words: no secret in them). */
  reason: string;
  /** When it was given up. */
  at: string;
  tries: number;
}

/** When to try again after a failed try: then the message is given up and logged as an error. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000];
/** How many given-up messages /health lists, newest first. */
const KEPT_FAILURES = 10;

/**
 * The mail a server sends on behalf of a write (a confirmation, a password reset): posted after the
 * write commits (`out.then`), so nothing is sent for a rolled-back write and no request waits for
 * the SMTP server. A failed try is tried again after 10 s, 1 min, 5 min and 30 min; then it is given
 * up, logged as an error and listed in /health for administrators (`failures`). Messages live in
 * this server's memory: one still waiting when the server stops is logged as not sent (the user
 * asks again, e.g. "send the confirmation again"), since a stored copy would hold a secret link.
 */
export class Outgoing {
  private readonly waiting = new Set<{ mail: Mail; timer: NodeJS.Timeout }>();
  private readonly sending = new Set<Promise<void>>();
  private readonly failed: MailFailure[] = [];
  private closed = false;

  constructor(
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly delaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  /** Sends now, and again later while it fails; never throws. */
  post(mail: Mail): void {
    if (this.closed) {
      this.log.error({ to: mail.to, subject: mail.subject }, 'mail not sent: the server is stopping');
      return;
    }
    this.attempt(mail, 1);
  }

  /**
   * Work that decides what to post (after an answer that must not wait for it): tracked like a send,
   * so a stopping server waits for it, and its failure logged.
   */
  track(work: Promise<void>): void {
    const p = work.catch((e: unknown) => this.log.error({ err: e }, 'mail could not be prepared'));
    this.sending.add(p);
    void p.finally(() => this.sending.delete(p));
  }

  /** Messages given up, newest first (at most 10). */
  failures(): MailFailure[] {
    return [...this.failed];
  }

  /** Messages being sent or waiting for another try. */
  get pending(): number {
    return this.sending.size + this.waiting.size;
  }

  /** Settles once nothing is being sent (tries waiting for their time do not count). */
  async idle(): Promise<void> {
    while (this.sending.size) await Promise.all([...this.sending]);
  }

  /** Lets what is being sent finish (at most `graceMs`), and logs what still waits for a try as not sent. */
  async close(graceMs = 5000): Promise<void> {
    this.closed = true;
    for (const w of this.waiting) {
      clearTimeout(w.timer);
      this.log.error({ to: w.mail.to, subject: w.mail.subject }, 'mail not sent: the server stopped while it waited to be tried again');
    }
    this.waiting.clear();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  private attempt(mail: Mail, tries: number): void {
    const p = this.mailer.send(mail).then(
      () => undefined,
      (e: unknown) => this.failedTry(mail, tries, e instanceof Error ? e.message : String(e)),
    );
    this.sending.add(p);
    void p.finally(() => this.sending.delete(p));
  }

  private failedTry(mail: Mail, tries: number, reason: string): void {
    const delay = this.delaysMs[tries - 1];
    if (delay === undefined || this.closed) {
      this.log.error({ to: mail.to, subject: mail.subject, tries, reason }, 'mail given up');
      this.failed.unshift({ to: mail.to, subject: mail.subject, reason, at: iso(this.clock.now()), tries });
      this.failed.length = Math.min(this.failed.length, KEPT_FAILURES);
      return;
    }
    const entry = {
      mail,
      timer: setTimeout(() => {
        this.waiting.delete(entry);
        this.attempt(mail, tries + 1);
      }, delay),
    };
    entry.timer.unref();
    this.waiting.add(entry);
  }
}
