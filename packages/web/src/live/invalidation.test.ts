import { describe, expect, it } from 'vitest';
import { staleFamilies } from './invalidation';

describe('what an event makes stale', () => {
  it('refetches the problem (its submissions left) when a submission changes state, but only its own line for a progress report', () => {
    expect(staleFamilies('submissionStateChanged', { submission: { state: 'completed' } })).toContain('problem');
    expect(staleFamilies('submissionStateChanged', { submission: { state: 'running', progress: { done: 1, total: 3 } } })).toEqual(['submissions', 'submission']);
  });

  it('refetches the standings on a ranking change and nothing for an event it does not know', () => {
    expect(staleFamilies('rankingChanged', {})).toContain('ranking');
    expect(staleFamilies('somethingNew', {})).toEqual([]);
  });

  it('refetches the questions on an answer, a publication or an announcement, the own printouts on their state, and the maintenance level on its change', () => {
    for (const type of ['questionAnswered', 'questionPublished', 'announcementPublished']) expect(staleFamilies(type, {})).toEqual(['questions']);
    expect(staleFamilies('printoutStateChanged', {})).toEqual(['printouts']);
    expect(staleFamilies('maintenanceChanged', {})).toEqual(['health', 'maintenance']);
  });

  it('refetches the staff queues on their events, and what the caller may do when a grant changes', () => {
    expect(staleFamilies('questionChanged', {})).toEqual(['staffQuestions']);
    expect(staleFamilies('printoutChanged', {})).toEqual(['staffPrintouts']);
    // the open submission page; the stream is refetched by its own coalescing hook, not by family
    expect(staleFamilies('submissionChanged', {})).toContain('staffSubmission');
    expect(staleFamilies('grantChanged', {})).toContain('permissions');
  });

  it('refetches the administration pages: accounts on a user change, roles and grants on theirs', () => {
    expect(staleFamilies('userChanged', {})).toEqual(expect.arrayContaining(['managedUsers', 'managedUser', 'userSessions']));
    // a merge or its undo changes both accounts: their merge lists and any preview between them
    expect(staleFamilies('userChanged', {})).toContain('userMerges');
    expect(staleFamilies('roleChanged', {})).toEqual(expect.arrayContaining(['roles', 'grants']));
    expect(staleFamilies('grantChanged', {})).toEqual(expect.arrayContaining(['grants', 'managedUser']));
  });

  it('refetches the runners when one changes or a submission a runner holds moves on, and the staff standings with the ranking', () => {
    expect(staleFamilies('runnerChanged', {})).toEqual(['runners']);
    expect(staleFamilies('submissionChanged', {})).toContain('runners');
    expect(staleFamilies('rankingChanged', {})).toContain('staffRanking');
    expect(staleFamilies('seriesChanged', {})).toContain('staffRanking');
  });

  it("refetches an activity's people when a membership, a role or an account changes", () => {
    for (const type of ['grantChanged', 'roleChanged', 'userChanged']) expect(staleFamilies(type, {})).toContain('staffMembers');
    expect(staleFamilies('grantChanged', {})).toContain('staffUsers');
  });

  it('refetches the staff settings and series pages when an activity or a series changes', () => {
    for (const type of ['activityUpdated', 'activityTimesChanged', 'seriesChanged']) expect(staleFamilies(type, {})).toEqual(expect.arrayContaining(['staffActivity', 'staffSeries']));
    expect(staleFamilies('activityCreated', {})).toContain('staffActivity');
  });

  it('refetches the problem library and an activity\'s assignments when a problem or a series\' assignments change', () => {
    expect(staleFamilies('problemChanged', {})).toEqual(['staffProblems', 'staffProblem', 'managedSeries']);
    expect(staleFamilies('managerSeriesChanged', {})).toEqual(['managedSeries']);
  });
});
