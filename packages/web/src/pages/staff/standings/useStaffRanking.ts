import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';

export type RankingView = 'own' | 'public';

/** How the page asks for the standings; the download asks the same way. */
export function rankingQuery(slug: string, seriesId: string | undefined, view: RankingView) {
  return {
    queryKey: keys.staffRanking(slug, seriesId, view),
    queryFn: () => call(ops.getRanking, { params: { idOrSlug: slug }, query: { ...(seriesId ? { seriesId } : {}), ...(view === 'public' ? { view } : {}) } }),
  };
}

/**
 * The standings for staff: their own view (through the freeze, with usernames) or the public one,
 * which the server computes as for a participant, so that what the freeze hides never reaches a
 * browser showing it. Refetched on rankingChanged and seriesChanged.
 */
export function useStaffRanking(slug: string, seriesId: string | undefined, view: RankingView) {
  return useQuery(rankingQuery(slug, seriesId, view));
}
