import type { QueryClient } from '@tanstack/react-query';
import { activityQuery } from '../pages/activity/queries';
import { readFilters, streamQuery } from '../pages/staff/submissions/filters';
import { activitySeriesQuery } from '../pages/staff/useActivitySeries';
import { STREAM_PAGE_SIZE, streamListQuery } from '../pages/staff/submissions/streamList';
import { allActivitiesQuery, permissionsQuery, printoutActivitiesQuery } from './permissions';
import { accountQuery } from './session';
import { staffActivityLayoutChunk, staffLayoutChunk, staffStreamChunk } from './staffChunks';

const ACTIVITY_PAGE = /^\/staff\/a\/([^/]+)(?:\/([^/]+))?\/?$/;

/**
 * A staff page of one activity opened by its address (a bookmark, a reload) would otherwise ask
 * one thing after another: the account once the app renders, the staff frame's chunk, then its
 * permissions and activities, then the activity frame's chunk, then the activity, then the page's
 * chunk, then its list. Here all of them start at once, before the first render, with the very
 * query options the pages use, so each page finds them in the cache or on their way. The
 * submission stream's first page and the reader's permissions in the activity follow the activity
 * at once (they need its id). Nothing is asked that the pages would not ask themselves, and the
 * server refuses to a non-staff caller what it refuses to the pages.
 */
export function prefetchStaffActivityPage(qc: QueryClient, location: Location): void {
  const m = ACTIVITY_PAGE.exec(location.pathname);
  if (!m) return;
  const slug = decodeURIComponent(m[1]!);
  const page = m[2] ?? '';
  const stream = page === 'submissions';
  // the activity first: the stream's rows wait for its id
  // (a refusal or a missing activity is the page's to show; here it is no error of its own)
  const activity = qc.fetchQuery(activityQuery(slug)).catch(() => undefined);
  if (stream) {
    const filters = readFilters(new URLSearchParams(location.search));
    // its problem column's letters and the reader's permissions there come with the rows, not after them
    void activity.then((a) => a && Promise.all([qc.prefetchQuery(streamListQuery(streamQuery(filters, a.id, STREAM_PAGE_SIZE))), qc.prefetchQuery(permissionsQuery(a.id))]));
    void qc.prefetchQuery(activitySeriesQuery(slug));
  }
  void qc.prefetchQuery(accountQuery);
  void qc.prefetchQuery(permissionsQuery());
  void qc.prefetchQuery(allActivitiesQuery);
  void qc.prefetchQuery(printoutActivitiesQuery);
  // the browser opens a handful of connections to the server: the questions go out before the chunks
  // (a chunk that fails to arrive here is asked for again, and its failure shown, when it renders)
  const ignore = () => undefined;
  void staffLayoutChunk.load().catch(ignore);
  void staffActivityLayoutChunk.load().catch(ignore);
  if (stream) void staffStreamChunk.load().catch(ignore);
}
