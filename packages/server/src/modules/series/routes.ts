import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { SeriesService } from './service.js';

/** Where the managers read the series of an activity: what a created series or assignment answers in `Location`. */
const seriesListPath = (activityId: string) => `/api/v1/manager/activities/${activityId}/series`;

export function seriesRoutes(api: Api, series: SeriesService): void {
  api.bind(ops.listManagedSeries, ({ actor, params }) => series.listManaged(actor, params.idOrSlug));
  api.bind(ops.createSeries, async ({ actor, params, body, ctx }) => {
    const created = await series.create(actor, params.idOrSlug, body);
    ctx.set('Location', seriesListPath(created.activityId));
    return created;
  });
  api.bind(ops.reorderSeries, ({ actor, params, body }) => series.reorder(actor, params.idOrSlug, body.orderedIds));
  api.bind(ops.updateSeries, ({ actor, params, body }) => series.update(actor, params.seriesId, body));
  api.bind(ops.deleteSeries, ({ actor, params }) => series.delete(actor, params.seriesId));
  api.bind(ops.shiftSeries, ({ actor, params, body }) => series.shift(actor, params.seriesId, body.minutes));
  api.bind(ops.pauseSeries, ({ actor, params, body }) => series.pause(actor, params.seriesId, body.hideProblems));
  api.bind(ops.resumeSeries, ({ actor, params, body }) => series.resume(actor, params.seriesId, body.extendEnd));

  api.bind(ops.attachProblem, async ({ actor, params, body, ctx }) => {
    const updated = await series.attach(actor, params.seriesId, body);
    ctx.set('Location', seriesListPath(updated.activityId));
    return updated;
  });
  api.bind(ops.reorderSeriesProblems, ({ actor, params, body }) => series.reorderProblems(actor, params.seriesId, body.orderedIds));
  api.bind(ops.updateAssignment, ({ actor, params, body }) => series.updateAssignment(actor, params.assignmentId, body));
  api.bind(ops.deleteAssignment, ({ actor, params }) => series.deleteAssignment(actor, params.assignmentId));
}
