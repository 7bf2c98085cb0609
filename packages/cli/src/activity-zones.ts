import { ops } from '@judge/contract';
import { ApiProblem, type JudgeClient } from '@judge/sdk';

/** The zone of an activity judgectl may not read: the UTC instant, which is never wrong. */
const FALLBACK = 'UTC';

async function zoneOf(c: JudgeClient, activityId: string): Promise<string> {
  // managers read the managed view; staff who only answer questions or print read the members' one
  for (const read of [() => c.call(ops.getManagedActivity, { params: { idOrSlug: activityId } }), () => c.call(ops.getActivity, { params: { idOrSlug: activityId } })]) {
    try {
      return (await read()).timeZone;
    } catch (e) {
      if (!(e instanceof ApiProblem) || (e.status !== 404 && e.status !== 403)) throw e;
    }
  }
  return FALLBACK;
}

/**
 * The time zone of each activity of a list, looked up once per activity, so that lists show an
 * activity's times as its own people read them, with the offset (docs/api.md, "Times").
 */
export async function activityZones(c: JudgeClient, activityIds: Iterable<string>): Promise<(activityId: string) => string> {
  const zones = new Map<string, string>();
  for (const id of new Set(activityIds)) zones.set(id, await zoneOf(c, id));
  return (id) => zones.get(id) ?? FALLBACK;
}
