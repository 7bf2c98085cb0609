import { describe, expect, it } from 'vitest';
import { dashboardLinks } from './links';

describe('the addresses behind the dashboard figures', () => {
  const l = dashboardLinks('spring');
  it('filter the submissions list with GET /submissions parameter names', () => {
    expect(l.queued).toBe('/staff/a/spring/submissions?state=queued');
    expect(l.running).toBe('/staff/a/spring/submissions?state=running');
    expect(l.failed).toBe('/staff/a/spring/submissions?state=failed');
    expect(l.verdict('WA')).toBe('/staff/a/spring/submissions?verdict=WA');
    expect(l.submissions()).toBe('/staff/a/spring/submissions');
    expect(l.submission('0190f5d2-6c3a-7b4e-8f00-000000000000')).toBe('/staff/a/spring/submissions/0190f5d2-6c3a-7b4e-8f00-000000000000');
  });
  it('open the queues on the activity, the unanswered questions only', () => {
    expect(l.questions).toBe('/staff/questions?activity=spring&kind=question&unanswered=1');
    expect(l.printouts).toBe('/staff/printouts?activity=spring');
    expect(l.runners).toBe('/staff/runners');
  });
  it('encode what a slug could hold and a verdict a runner made up', () => {
    const odd = dashboardLinks('a b');
    expect(odd.queued).toBe('/staff/a/a%20b/submissions?state=queued');
    expect(odd.verdict('W A&x')).toBe('/staff/a/a%20b/submissions?verdict=W+A%26x');
    expect(odd.printouts).toBe('/staff/printouts?activity=a%20b');
  });
});
