import { eq } from 'drizzle-orm';
import { submissions } from '../../src/db/schema.js';
import type { TestJudge } from '../harness.js';

/**
 * Gives a stored submission a verdict as a runner's report would, and tells the ranking: for the
 * end-to-end awards tests, which have no runner (decisions §24).
 */
export async function judgeInDatabase(j: TestJudge, submissionId: string, verdict: string): Promise<void> {
  const [s] = await j.app.deps.tx.write((q) => q.update(submissions).set({ state: 'completed', verdict }).where(eq(submissions.id, submissionId)).returning());
  if (!s) throw new Error(`no submission ${submissionId}`);
  await j.app.services.ranking.submissionChanged(s.activityId, s.userId, s.seriesProblemId);
}
