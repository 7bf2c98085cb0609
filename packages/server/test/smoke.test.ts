import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { TestJudge } from './harness.js';

describe('a fresh server', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(() => j.stop());

  it('answers health and lets the admin read their account', async () => {
    expect(await j.anonymous().call(ops.health)).toMatchObject({ status: 'ok' });
    const admin = await j.admin();
    expect(await admin.call(ops.getAccount)).toMatchObject({ username: 'admin', isLocal: true });
  });
});
