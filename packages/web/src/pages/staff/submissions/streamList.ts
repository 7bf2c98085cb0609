import { ops } from '@judge/sdk/browser';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';

/** Rows on one page of the stream. */
export const STREAM_PAGE_SIZE = 25;

export type StreamQuery = Record<string, string | number> & { activityId: string };

/** A page of the stream as GET /submissions answers it; the same options for the page and its prefetch. */
export function streamListQuery(query: StreamQuery) {
  return { queryKey: keys.staffSubmissions(query), queryFn: () => call(ops.listSubmissions, { query }) };
}
