import { clampPaging, ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { sendBlob } from '../../http/downloads.js';
import type { ProblemsService } from './service.js';

const problemPath = (id: string) => `/api/v1/problems/${id}`;

export function problemsRoutes(api: Api, problems: ProblemsService): void {
  api.bind(ops.listProblems, ({ actor, query }) => problems.list(actor, { ...query, ...clampPaging(query) }));
  api.bind(ops.createProblem, async ({ actor, body, ctx }) => {
    const created = await problems.create(actor, body);
    ctx.set('Location', problemPath(created.id));
    return created;
  });
  api.bind(ops.getProblem, ({ actor, params }) => problems.get(actor, params.id));
  api.bind(ops.updateProblem, ({ actor, params, body }) => problems.update(actor, params.id, body));
  api.bind(ops.deleteProblem, ({ actor, params }) => problems.delete(actor, params.id));
  api.bind(ops.setProblemArchived, ({ actor, params, body }) => problems.setArchived(actor, params.id, body.archived));
  api.bind(ops.duplicateProblem, async ({ actor, params, ctx }) => {
    const copy = await problems.duplicate(actor, params.id);
    ctx.set('Location', problemPath(copy.id));
    return copy;
  });
  api.bind(ops.setProblemVisibility, ({ actor, params, body }) => problems.setVisibility(actor, params.id, body));

  api.bind(ops.listProblemVersions, ({ actor, params }) => problems.versions(actor, params.problemId));
  api.bind(ops.createProblemVersion, async ({ actor, params, body, ctx }) => {
    const version = await problems.createVersion(actor, params.problemId, body);
    // versions have no document of their own: their statements are what a client reads next
    ctx.set('Location', `${problemPath(params.problemId)}/versions/${version.id}/content`);
    return version;
  });
  api.bind(ops.getProblemVersionContent, ({ actor, params }) => problems.content(actor, params.problemId, params.versionId));
  api.bind(ops.downloadProblemPackage, async ({ actor, params, ctx }) => {
    sendBlob(ctx, problems.files.blobs, await problems.packageOf(actor, params.problemId, params.versionId));
  });
}
