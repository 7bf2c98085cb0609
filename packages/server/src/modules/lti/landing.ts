import { eq, lte } from 'drizzle-orm';
import type { ClientInfo } from '../../auth/sessions.js';
import { ltiTickets, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { iso, newSecret, sha256Hex } from '../../util.js';
import { admitSignIn, type Maintenance } from '../instance/index.js';
import type { UserRow } from '../users/index.js';
import { accountFor } from './account.js';
import { LtiRefusal, type Launch } from './claims.js';
import { enrolForGrades, membershipFor, placementFor } from './placement.js';

/** How long a framed launch's ticket waits to be opened in a window of its own. */
const TICKET_TTL_MS = 2 * 60_000;

/** Where the browser goes, with the session cookie to set, or the ticket a framed launch continues with. */
export type Arrival = { target: string; cookie: string } | { target: string; ticket: string };

const encode = encodeURIComponent;

/** The page a launch lands on: the staff pages of the activity, its problem, or the activity. */
function targetOf(slug: string, problemSlug: string | undefined, staff: boolean): string {
  if (staff) return `/staff/a/${encode(slug)}`;
  return problemSlug ? `/a/${encode(slug)}/p/${encode(problemSlug)}` : `/a/${encode(slug)}`;
}

function usable(user: UserRow, now: Date): boolean {
  return !user.blockedAt && !(user.expiresAt && user.expiresAt <= iso(now));
}

/**
 * What a verified launch does (decisions §21), in one write: finds or makes the account, the
 * placement and the membership, then opens a browser-session (not persistent) session, or, for a
 * launch inside a frame, a single-use ticket its new window redeems. A refusal after the account
 * was made keeps the account (the platform vouched for who it is), so an administrator can find it
 * and give it what the refusal asked for.
 */
export class LtiLanding {
  constructor(
    private readonly d: Deps,
    private readonly maintenance: Maintenance,
  ) {}

  async land(L: Launch, client: ClientInfo, framed: boolean): Promise<Arrival> {
    const now = this.d.clock.now();
    const done = await this.d.tx.write(async (q, out) => {
      try {
        return await this.arrive(q, out, L, client, framed, now);
      } catch (e) {
        if (e instanceof LtiRefusal) return e;
        throw e;
      }
    });
    if (done instanceof LtiRefusal) throw done;
    return done;
  }

  private async arrive(q: Q, out: Outbox, L: Launch, client: ClientInfo, framed: boolean, now: Date): Promise<Arrival> {
    const user = await accountFor(q, out, L, now);
    if (!user) throw new LtiRefusal('lti.launch.unlinked', 'No account is linked to this user of the platform', { platform: L.platform.displayName, subject: L.sub });
    if (!usable(user, now)) throw new LtiRefusal('lti.launch.account', 'This account may not sign in');
    const { activity, problemSlug, placement } = await placementFor(this.d, q, L, user.id, now);
    const staff = await membershipFor(this.d, q, out, L, user.id, activity.id);
    if (!staff) await enrolForGrades(q, placement, user.id, L.sub, now);
    const target = targetOf(activity.slug, problemSlug, staff);
    this.d.log.info({ platformId: L.platform.id, userId: user.id, activityId: activity.id, staff, framed }, 'LTI launch');
    if (framed) return { target, ticket: await this.ticket(q, user.id, target, now) };
    return { target, cookie: await this.signIn(q, out, user.id, client, now) };
  }

  /** The session of a launch: a browser-session cookie, as a sign-in without "keep me signed in". */
  private async signIn(q: Q, out: Outbox, userId: string, client: ClientInfo, now: Date): Promise<string> {
    // maintenance: only administrators sign in while the judge is closed (read with this write's grants)
    await admitSignIn(this.maintenance, this.d.permissions, userId, q);
    await q.update(users).set({ lastSeenAt: iso(now) }).where(eq(users.id, userId));
    return (await this.d.sessions.open(q, userId, 'sessionCookie', client, now, out)).cookie!;
  }

  private async ticket(q: Q, userId: string, target: string, now: Date): Promise<string> {
    const ticket = newSecret();
    await q.delete(ltiTickets).where(lte(ltiTickets.expiresAt, iso(now)));
    await q.insert(ltiTickets).values({ hash: sha256Hex(ticket), userId, target, expiresAt: iso(new Date(now.getTime() + TICKET_TTL_MS)) });
    return ticket;
  }

  /** GET /lti/continue/{ticket}: a framed launch, opened in a window of its own, signs in there. */
  async continueWith(ticket: string, client: ClientInfo): Promise<{ target: string; cookie: string }> {
    const now = this.d.clock.now();
    return this.d.tx.write(async (q, out) => {
      const [row] = await q.delete(ltiTickets).where(eq(ltiTickets.hash, sha256Hex(ticket))).returning();
      if (!row || row.expiresAt <= iso(now)) throw new LtiRefusal('lti.continue.ticket', 'This launch was used already or is older than two minutes: open the link in the course again');
      const [user] = await q.select().from(users).where(eq(users.id, row.userId)).limit(1);
      if (!user || !usable(user, now)) throw new LtiRefusal('lti.launch.account', 'This account may not sign in');
      return { target: row.target, cookie: await this.signIn(q, out, user.id, client, now) };
    });
  }
}
