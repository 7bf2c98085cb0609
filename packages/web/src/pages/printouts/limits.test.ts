import { PRINTOUT_SOURCE_MAX as CONTRACT_MAX } from '@judge/contract';
import { ApiProblem } from '@judge/sdk/browser';
import { describe, expect, it } from 'vitest';
import { PRINTOUT_SOURCE_MAX, printoutRefusal } from './limits';

describe('printout requests', () => {
  it('checks a file against the same limit the server applies', () => {
    expect(PRINTOUT_SOURCE_MAX).toBe(CONTRACT_MAX);
  });

  it('says the refusals a participant can act on, and leaves the rest to the error box', () => {
    expect(printoutRefusal(new ApiProblem(403, { code: 'printouts.disabled' }))).toBe('printouts.disabled');
    expect(printoutRefusal(new ApiProblem(409, { code: 'activity.archived' }))).toBe('printouts.archived');
    expect(printoutRefusal(new ApiProblem(422, { code: 'validation_failed' }))).toBeNull();
  });
});
