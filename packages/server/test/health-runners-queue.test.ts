import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Health } from '@judge/contract';
import { Bench } from './support/runner-bench.js';

/** /health tells whether anything can be judged: the runners connected, approved and waiting, and the queue. */
describe('health: runners and queue', () => {
  let b: Bench;
  beforeAll(async () => (b = await Bench.start()));
  afterAll(() => b.stop());
  const health = async () => (await (await fetch(`${b.j.url}/api/v1/health`)).json()) as Health;

  it('counts runners by state, connected ones by when they were last seen, and jobs queued and running', async () => {
    expect(await health()).toMatchObject({ runners: { connected: 0, approved: 0, pendingApproval: 0 }, queue: { queued: 0, running: 0 } });
    const waiting = await b.runner(['standard-io@1'], { approve: false });
    expect((await health()).runners).toEqual({ connected: 0, approved: 0, pendingApproval: 1 });

    const s = await b.stage();
    await b.submit(s);
    await b.submit(s);
    expect((await health()).queue).toEqual({ queued: 2, running: 0 });

    const r = await b.runner([s.type]);
    expect((await health()).runners).toEqual({ connected: 1, approved: 1, pendingApproval: 1 });
    await r.job({ waitSeconds: 0 });
    expect((await health()).queue).toEqual({ queued: 1, running: 1 });

    // a runner not seen for more than two minutes no longer counts as connected; approval stays
    b.clock.advance(121);
    expect((await health()).runners).toEqual({ connected: 0, approved: 1, pendingApproval: 1 });
    // revoking the waiting one takes it out of every count
    await b.admin.call(ops.revokeRunner, { params: { id: waiting.id }, body: { reason: 'not ours' } });
    expect((await health()).runners).toEqual({ connected: 0, approved: 1, pendingApproval: 0 });
  });
});
