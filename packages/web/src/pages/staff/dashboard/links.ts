/**
 * The lists behind the dashboard's figures, as the staff pages address them: the submissions
 * page reads its filters from search parameters named as GET /submissions' query; the question
 * and printout queues take the activity's slug as `activity`.
 */
export function dashboardLinks(slug: string) {
  const base = `/staff/a/${encodeURIComponent(slug)}`;
  const submissions = (filter: Record<string, string> = {}) => {
    const q = new URLSearchParams(filter).toString();
    return `${base}/submissions${q ? `?${q}` : ''}`;
  };
  const activity = encodeURIComponent(slug);
  return {
    submissions,
    submission: (id: string) => `${base}/submissions/${encodeURIComponent(id)}`,
    queued: submissions({ state: 'queued' }),
    running: submissions({ state: 'running' }),
    failed: submissions({ state: 'failed' }),
    cancelled: submissions({ state: 'cancelled' }),
    verdict: (verdict: string) => submissions({ verdict }),
    questions: `/staff/questions?activity=${activity}&kind=question&unanswered=1`,
    printouts: `/staff/printouts?activity=${activity}`,
    runners: '/staff/runners',
    section: (path: string) => (path ? `${base}/${path}` : base),
  };
}
export type DashboardLinks = ReturnType<typeof dashboardLinks>;
