import type { QueryClient } from '@tanstack/react-query';
import { activityQuery } from '../pages/activity/queries';
import { readFilters, streamQuery } from '../pages/staff/submissions/filters';
import { STREAM_PAGE_SIZE, streamListQuery } from '../pages/staff/submissions/streamList';
import { allActivitiesQuery, permissionsQuery, printoutActivitiesQuery } from './permissions';

const ACTIVITY_PAGE = /^\/staff\/a\/([^/]+)(?:\/([^/]+))?\/?$/;

/**
 * A staff page of one activity opened by its address (a bookmark, a reload) would otherwise ask
 * one thing after another: the staff frame's chunk, then its permissions and activities, then the
 * activity frame's chunk, then the activity, then the page's chunk, then its list. Here all of
 * them start at once, before the first render, with the very query options the pages use, so each
 * page finds them in the cache or on their way. The submission stream's first page follows the
 * activity at once (it needs the activity's id). A caller who is not staff is refused by the
 * server as the pages would be: nothing is fetched that the frame would not ask for anyway,
 * except the stream's page, which the server refuses to anybody who may not read it.
 */
export function prefetchStaffActivityPage(qc: QueryClient, location: Location): void {
  const m = ACTIVITY_PAGE.exec(location.pathname);
  if (!m) return;
  const slug = decodeURIComponent(m[1]!);
  const page = m[2] ?? '';
  void import('../pages/staff/StaffLayout');
  void import('../pages/staff/activity/StaffActivityLayout');
  void qc.prefetchQuery(permissionsQuery());
  void qc.prefetchQuery(allActivitiesQuery);
  void qc.prefetchQuery(printoutActivitiesQuery);
  const activity = qc.fetchQuery(activityQuery(slug));
  if (page !== 'submissions') return;
  void import('../pages/staff/submissions/StreamPage');
  const filters = readFilters(new URLSearchParams(location.search));
  activity.then(
    (a) => qc.prefetchQuery(streamListQuery(streamQuery(filters, a.id, STREAM_PAGE_SIZE))),
    () => undefined,
  );
}
