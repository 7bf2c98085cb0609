import { ApiProblem } from '@judge/sdk/browser';
import { describe, expect, it } from 'vitest';
import { levelOfRefusal } from './maintenanceHint';

describe('a refusal that reveals maintenance', () => {
  it('reads closed from 503 server.maintenance and draining from 503 server.draining, nothing from anything else', () => {
    expect(levelOfRefusal(new ApiProblem(503, { code: 'server.maintenance' }, 30))).toBe('closed');
    expect(levelOfRefusal(new ApiProblem(503, { code: 'server.draining' }, 30))).toBe('draining');
    expect(levelOfRefusal(new ApiProblem(503, { code: 'internal' }))).toBeNull();
    expect(levelOfRefusal(new ApiProblem(403, { code: 'server.draining' }))).toBeNull();
    expect(levelOfRefusal(new Error('offline'))).toBeNull();
  });
});
