import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { ltiGrades, ltiPlacements, ltiPlatforms } from '../../db/schema.js';
import type { Deps } from '../../services.js';
import { iso } from '../../util.js';
import { IntervalWorker } from '../../workers/interval.js';
import { gradeOf, type Grade } from '../ranking/index.js';
import { SCORE_SCOPE } from './claims.js';
import type { ToolKeys } from './keys.js';

/** How many learners' scores a tick sends at most. */
const BATCH = 50;
/** The first retry waits this long, doubling with each failure up to 2^8 times. */
const BACKOFF_MS = 30_000;
/** While a freeze with no reveal set hides results, the grade is looked at again this often. */
const FROZEN_RETRY_MS = 3600_000;
const HTTP_TIMEOUT_MS = 10_000;

/** A due row with what sending it needs: its placement and platform. */
interface Due {
  placementId: string;
  userId: string;
  subject: string;
  changes: number;
  failures: number;
  activityId: string;
  assignmentId: string | null;
  lineItemUrl: string | null;
  platformId: string;
  clientId: string;
  authTokenUrl: string;
}

/** `{lineitem}/scores`, the line item's query string kept (Moodle puts the tool's type id there). */
export function scoresUrl(lineItem: string): string {
  const u = new URL(lineItem);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/scores`;
  return u.href;
}

/**
 * Assignment and Grade Services score passback (decisions §21, an addition of ours to the
 * interface). A change of a learner's submissions in an activity placed in an LMS counts against
 * their rows here (`submissionChanged`, after commit, on the server that wrote it); the worker, on
 * the server leading the cluster, sends each learner's grade (ranking's gradeOf) to the line item
 * with a token of the client-credentials grant (a JWT client assertion signed with the tool key),
 * and backs off while the platform fails. Results a freeze hides wait for the reveal.
 */
export class LtiGrades extends IntervalWorker<Promise<number>> {
  private readonly tokens = new Map<string, { token: string; until: number }>();

  constructor(
    d: Deps,
    private readonly keys: ToolKeys,
  ) {
    super(d, 'LTI grade sync');
  }

  override start(intervalMs = 15_000): void {
    super.start(intervalMs);
  }

  /**
   * After commit: a submission of `userId` in `activityId` was made, judged or changed. Only
   * learners launched from an LMS are written for; the rest costs one indexed read. Never rejects.
   */
  async submissionChanged(activityId: string, userId: string): Promise<void> {
    try {
      const held = await this.d.tx.read((q) =>
        q
          .select({ placementId: ltiGrades.placementId })
          .from(ltiGrades)
          .innerJoin(ltiPlacements, eq(ltiPlacements.id, ltiGrades.placementId))
          .where(and(eq(ltiGrades.userId, userId), eq(ltiPlacements.activityId, activityId))),
      );
      if (!held.length) return;
      const now = iso(this.d.clock.now());
      await this.d.tx.write((q) =>
        q
          .update(ltiGrades)
          // a row backing off keeps its wait: the platform is failing
          .set({ changes: sql`${ltiGrades.changes} + 1`, nextAttemptAt: sql`coalesce(${ltiGrades.nextAttemptAt}, ${now})` })
          .where(and(eq(ltiGrades.userId, userId), inArray(ltiGrades.placementId, held.map((h) => h.placementId)))),
      );
    } catch (e) {
      this.d.log.error({ err: e, activityId, userId }, 'a learner’s LTI grade could not be marked for sending');
    }
  }

  /** Sends the scores due at `now`; answers how many went. */
  async tick(now: Date): Promise<number> {
    const due: Due[] = await this.d.tx.read((q) =>
      q
        .select({
          placementId: ltiGrades.placementId,
          userId: ltiGrades.userId,
          subject: ltiGrades.subject,
          changes: ltiGrades.changes,
          failures: ltiGrades.failures,
          activityId: ltiPlacements.activityId,
          assignmentId: ltiPlacements.assignmentId,
          lineItemUrl: ltiPlacements.lineItemUrl,
          platformId: ltiPlatforms.id,
          clientId: ltiPlatforms.clientId,
          authTokenUrl: ltiPlatforms.authTokenUrl,
        })
        .from(ltiGrades)
        .innerJoin(ltiPlacements, eq(ltiPlacements.id, ltiGrades.placementId))
        .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiPlacements.platformId))
        // a disabled platform's rows wait where they are until it is enabled again
        .where(and(lte(ltiGrades.nextAttemptAt, iso(now)), gt(ltiGrades.changes, ltiGrades.sentChanges), eq(ltiPlatforms.enabled, true)))
        .orderBy(asc(ltiGrades.nextAttemptAt))
        .limit(BATCH),
    );
    let sent = 0;
    for (const row of due) if (await this.sendOne(row, now)) sent++;
    return sent;
  }

  private async sendOne(row: Due, now: Date): Promise<boolean> {
    const grade = await this.d.tx.read((q) => gradeOf(q, row.activityId, row.userId, iso(now), row.assignmentId));
    if (grade?.frozenUntil !== undefined) {
      await this.wait(row, grade.frozenUntil ?? iso(new Date(now.getTime() + FROZEN_RETRY_MS)));
      return false;
    }
    // nothing to tell yet (no submission), or nothing a score could be out of
    if (!grade || !row.lineItemUrl || grade.maximum <= 0 || grade.judged + grade.pending === 0) {
      await this.settle(row, now, undefined);
      return false;
    }
    try {
      await this.post(row, grade, now);
    } catch (e) {
      await this.failed(row, now, (e as Error).message);
      return false;
    }
    await this.settle(row, now, grade);
    return true;
  }

  private async post(row: Due, grade: Grade, now: Date): Promise<void> {
    const score = {
      userId: row.subject,
      scoreGiven: Math.round(grade.given * 100) / 100,
      scoreMaximum: grade.maximum,
      activityProgress: grade.given >= grade.maximum ? 'Completed' : 'Submitted',
      gradingProgress: grade.pending > 0 ? 'Pending' : 'FullyGraded',
      timestamp: iso(now),
    };
    const res = await fetch(scoresUrl(row.lineItemUrl!), {
      method: 'POST',
      headers: { authorization: `Bearer ${await this.token(row)}`, 'content-type': 'application/vnd.ims.lis.v1.score+json' },
      body: JSON.stringify(score),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    await res.body?.cancel();
    // a token the platform no longer takes is asked for again next time
    if (res.status === 401) this.tokens.delete(row.platformId);
    if (!res.ok) throw new Error(`the line item's scores answered ${res.status}`);
  }

  /** An access token of the client-credentials grant with a JWT client assertion, kept until shortly before it lapses. */
  private async token(row: Due): Promise<string> {
    const kept = this.tokens.get(row.platformId);
    if (kept && kept.until > Date.now()) return kept.token;
    const assertion = await this.keys.sign({ iss: row.clientId, sub: row.clientId, aud: row.authTokenUrl }, 300);
    const res = await fetch(row.authTokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        scope: SCORE_SCOPE,
      }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`the token endpoint answered ${res.status}`);
    }
    const body = (await res.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string') throw new Error('the token endpoint answered no access_token');
    const life = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    this.tokens.set(row.platformId, { token: body.access_token, until: Date.now() + Math.max(0, life - 60) * 1000 });
    return body.access_token;
  }

  /** The changes read are covered: due again only if more came meanwhile. */
  private async settle(row: Due, now: Date, grade: Grade | undefined): Promise<void> {
    await this.d.tx.write((q) =>
      q
        .update(ltiGrades)
        .set({
          sentChanges: row.changes,
          failures: 0,
          lastError: null,
          nextAttemptAt: sql`CASE WHEN ${ltiGrades.changes} > ${row.changes} THEN ${iso(now)} ELSE NULL END`,
          ...(grade ? { sentAt: iso(now), sentScore: grade.given, sentMaximum: grade.maximum } : {}),
        })
        .where(and(eq(ltiGrades.placementId, row.placementId), eq(ltiGrades.userId, row.userId))),
    );
  }

  private async failed(row: Due, now: Date, reason: string): Promise<void> {
    const failures = row.failures + 1;
    const next = new Date(now.getTime() + BACKOFF_MS * 2 ** Math.min(failures - 1, 8));
    this.d.log.warn({ placementId: row.placementId, platformId: row.platformId, failures, reason }, 'an LTI score could not be sent; it is tried again later');
    await this.d.tx.write((q) =>
      q
        .update(ltiGrades)
        .set({ failures, lastError: reason.slice(0, 200), nextAttemptAt: iso(next) })
        .where(and(eq(ltiGrades.placementId, row.placementId), eq(ltiGrades.userId, row.userId))),
    );
  }

  private async wait(row: Due, until: string): Promise<void> {
    await this.d.tx.write((q) =>
      q
        .update(ltiGrades)
        .set({ nextAttemptAt: until })
        .where(and(eq(ltiGrades.placementId, row.placementId), eq(ltiGrades.userId, row.userId))),
    );
  }
}
