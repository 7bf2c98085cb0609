import { useOutletContext } from 'react-router';
import type { ActivityContext } from './ActivityLayout';

/**
 * Whether the page is inside an icpc contest: there results are problems solved and tries (the
 * penalty counts the time and the rejected ones), never points, so no score is shown.
 */
export function useIcpc(): boolean {
  return useOutletContext<ActivityContext | undefined>()?.activity.rankingType === 'icpc';
}
