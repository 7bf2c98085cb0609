import { describe, expect, it } from 'vitest';
import { staleFamilies } from './invalidation';

describe('what an event makes stale', () => {
  it('refetches the problem (its submissions left) when a submission changes state, but only its own line for a progress report', () => {
    expect(staleFamilies('submissionStateChanged', { submission: { state: 'completed' } })).toContain('problem');
    expect(staleFamilies('submissionStateChanged', { submission: { state: 'running', progress: { done: 1, total: 3 } } })).toEqual(['submissions', 'submission']);
  });

  it('refetches the standings on a ranking change and nothing for an event it does not know', () => {
    expect(staleFamilies('rankingChanged', {})).toEqual(['ranking']);
    expect(staleFamilies('somethingNew', {})).toEqual([]);
  });

  it('refetches the questions on an answer, a publication or an announcement, the own printouts on their state, and the maintenance level on its change', () => {
    for (const type of ['questionAnswered', 'questionPublished', 'announcementPublished']) expect(staleFamilies(type, {})).toEqual(['questions']);
    expect(staleFamilies('printoutStateChanged', {})).toEqual(['printouts']);
    expect(staleFamilies('maintenanceChanged', {})).toEqual(['health']);
  });

  it('refetches the staff queues on their events, and what the caller may do when a grant changes', () => {
    expect(staleFamilies('questionChanged', {})).toEqual(['staffQuestions']);
    expect(staleFamilies('printoutChanged', {})).toEqual(['staffPrintouts']);
    // the open submission page; the stream is refetched by its own coalescing hook, not by family
    expect(staleFamilies('submissionChanged', {})).toEqual(['staffSubmission']);
    expect(staleFamilies('grantChanged', {})).toContain('permissions');
  });
});
