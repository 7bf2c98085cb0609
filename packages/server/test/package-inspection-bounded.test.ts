import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { refusedWith } from './expect.js';
import { TestJudge } from './harness.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * A package's metadata is read off the event loop (decisions §16): a problem.yaml of 30,000 keys
 * (under the 1 MiB metadata limit) took over a minute to parse on the server's only thread. Now the server answers meanwhile, and a reading past its time
 * is 422 package.invalid saying so.
 */

const HUGE_YAML = `name: Huge\nvalidation: default\n${Array.from({ length: 30_000 }, (_, i) => `key${i}: value ${i}`).join('\n')}\n`;

describe('a package whose metadata takes long to read', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  beforeAll(async () => {
    j = await TestJudge.start({ offloop: { limits: { package: { timeoutMs: 3000 } } } });
    admin = await j.admin();
  });
  afterAll(() => j.stop());

  it('is read on the pool: /health answers first, and the version is refused 422 package.invalid with the reason', { timeout: 120_000 }, async () => {
    const problem = await admin.call(ops.createProblem, { body: { slug: 'huge-yaml', name: 'Huge', type: 'standard-io@1' } });
    const file = await admin.upload('package.zip', await zipOf({ ...legacyPackage(), 'problem.yaml': HUGE_YAML }), 'application/zip');
    const version = admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: file.id } } });
    const first = await Promise.race([version.then(...Array(2).fill(() => 'version')), fetch(`${j.url}/api/v1/health`).then((r) => `health ${r.status}`)]);
    expect(first).toBe('health 200');
    const e = await refusedWith(version, 422, 'package.invalid');
    expect(e.detail).toMatch(/took longer than allowed/);
  });
});
