import { clampPaging, ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { ActivitiesService } from './service.js';

const managerPath = (id: string) => `/api/v1/manager/activities/${id}`;

export function activitiesRoutes(api: Api, activities: ActivitiesService): void {
  api.bind(ops.createActivity, async ({ actor, body, ctx }) => {
    const created = await activities.create(actor, body);
    ctx.set('Location', managerPath(created.id));
    return created;
  });
  api.bind(ops.updateActivity, ({ actor, params, body }) => activities.update(actor, params.idOrSlug, body));
  api.bind(ops.deleteActivity, ({ actor, params }) => activities.delete(actor, params.idOrSlug));
  api.bind(ops.setActivityPublished, ({ actor, params, body }) => activities.setPublished(actor, params.id, body.published));
  api.bind(ops.setActivityArchived, ({ actor, params, body }) => activities.setArchived(actor, params.idOrSlug, body.archived));
  api.bind(ops.duplicateActivity, async ({ actor, params, body, ctx }) => {
    const copy = await activities.duplicate(actor, params.id, body);
    ctx.set('Location', managerPath(copy.id));
    return copy;
  });
  api.bind(ops.setActivityDocuments, ({ actor, params, body }) => activities.setDocuments(actor, params.idOrSlug, params.kind, body.documents));
  api.bind(ops.deleteActivityDocuments, ({ actor, params }) => activities.deleteDocuments(actor, params.idOrSlug, params.kind));

  // the fixed path goes first: `summary` would otherwise be taken for an idOrSlug
  api.bind(ops.managedActivitiesSummary, ({ actor }) => activities.managedSummary(actor));
  api.bind(ops.listManagedActivities, ({ actor, query }) => activities.listManaged(actor, { ...query, ...clampPaging(query) }));
  api.bind(ops.getManagedActivity, ({ actor, params }) => activities.getManaged(actor, params.idOrSlug));

  api.bind(ops.listActivities, ({ actor, query }) => activities.list(actor, { ...query, ...clampPaging(query) }));
  api.bind(ops.getActivity, ({ actor, params }) => activities.get(actor, params.idOrSlug));
  api.bind(ops.enrol, ({ actor, params, body }) => activities.enrol(actor, params.idOrSlug, body.password));
}
