import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JudgeClient } from '@judge/sdk';
import { problemVersions } from '../src/db/schema.js';
import { refusedWith } from './expect.js';
import { TestJudge } from './harness.js';
import { NESTED_BRACES, NESTED_ITEMIZE, versionWithStatement } from './support/heavy-inputs.js';

/**
 * Statements are converted off the event loop, on the bounded pool: a
 * conversion past its time is a 422 version.statement.latex saying so; statements that once
 * overflowed the server's stack or answered 500 end as a version or a 422, and the server goes on.
 */

/** A valid statement just under the 128 KiB allowed: 1,600 paragraphs, some 4 s of conversion. */
const LONG_STATEMENT = `\\problemname{Long}\n${'A paragraph with \\textbf{bold} and \\emph{emphasised} words, and $x_i$ in it.\n\n'.repeat(1_600)}`;

describe('a statement whose conversion runs out of its time', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  beforeAll(async () => {
    j = await TestJudge.start({ offloop: { limits: { statement: { timeoutMs: 1 } } } });
    admin = await j.admin();
  });
  afterAll(() => j.stop());

  it('is refused, 422 version.statement.latex with the reason, and nothing is stored', async () => {
    const files = async () => (await j.app.deps.tx.read((q) => q.select({ id: problemVersions.id }).from(problemVersions))).length;
    const before = await files();
    // long to convert (seconds of work), so that its 1 ms runs out whatever a loaded machine does to
    // the timer: a quick refusal (NESTED_ITEMIZE's depth check) answered first in CI at load 8-11
    const e = await refusedWith(versionWithStatement(admin, LONG_STATEMENT, 'slow-statement'), 422, 'version.statement.latex');
    expect(e.detail).toMatch(/problem_statement\/problem\.en\.tex cannot be converted: it took longer than allowed/);
    expect(await files()).toEqual(before);
    expect((await fetch(`${j.url}/api/v1/health`)).status).toBe(200);
  });
});

describe('statements that once stopped the server', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
  });
  afterAll(() => j.stop());

  for (const [name, tex] of Object.entries({ NESTED_ITEMIZE, NESTED_BRACES })) {
    it(`${name}: a version or a 422 with the reason, never a 500; the server answers after`, async () => {
      const outcome = await versionWithStatement(admin, tex, name.toLowerCase().replace(/_/g, '-')).then(
        () => 'converted',
        (e: { status?: number; code?: string }) => `${e.status} ${e.code}`,
      );
      expect(outcome).toMatch(/^(converted|422 version\.statement\.latex)$/);
      expect((await fetch(`${j.url}/api/v1/health`)).status).toBe(200);
    });
  }
});
