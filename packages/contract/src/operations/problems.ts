import { z } from 'zod';
import { defineOperation } from '../operation.js';
import {
  ArchivedRequest,
  CreateProblemRequest,
  CreateVersionRequest,
  Problem,
  ProblemVersion,
  ProblemVersionContentItem,
  ProblemsQuery,
  UpdateProblemRequest,
  VisibilityRequest,
} from '../schemas/content.js';
import { Uuid, paged } from '../wire.js';

const IdParam = z.object({ id: Uuid });
const ProblemIdParam = z.object({ problemId: Uuid });
const VersionParams = z.object({ problemId: Uuid, versionId: Uuid });
const TAG = 'Problems';

export const listProblems = defineOperation({
  id: 'listProblems',
  method: 'GET',
  path: '/problems',
  tag: TAG,
  summary: 'Problems the caller may read: own, shared with them, instance-wide, or all with problem:read:all',
  auth: 'user',
  query: ProblemsQuery,
  response: paged(Problem),
  status: 200,
  errors: ['forbidden'],
  permission: 'problem:read:own',
});

export const createProblem = defineOperation({
  id: 'createProblem',
  method: 'POST',
  path: '/problems',
  tag: TAG,
  summary: 'Create a problem owned by the caller (private, no versions yet)',
  auth: 'user',
  body: CreateProblemRequest,
  response: Problem,
  status: 201,
  errors: ['forbidden', 'problem.slug.taken', 'validation_failed'],
  permission: 'problem:create',
});

export const getProblem = defineOperation({
  id: 'getProblem',
  method: 'GET',
  path: '/problems/{id}',
  tag: TAG,
  summary: 'One problem',
  auth: 'user',
  params: IdParam,
  response: Problem,
  status: 200,
  errors: ['not_found'],
  permission: 'problem:read:own',
});

export const updateProblem = defineOperation({
  id: 'updateProblem',
  method: 'PUT',
  path: '/problems/{id}',
  tag: TAG,
  summary: 'Rename a problem or change its slug; the type is fixed at creation',
  auth: 'user',
  params: IdParam,
  body: UpdateProblemRequest,
  response: Problem,
  status: 200,
  errors: ['forbidden', 'not_found', 'problem.slug.taken', 'problem.type.immutable', 'validation_failed'],
  permission: 'problem:update',
});

export const deleteProblem = defineOperation({
  id: 'deleteProblem',
  method: 'DELETE',
  path: '/problems/{id}',
  tag: TAG,
  summary: 'Delete a problem that no series uses',
  auth: 'user',
  params: IdParam,
  status: 204,
  errors: ['forbidden', 'not_found', 'problem.attached'],
  permission: 'problem:delete',
});

export const setProblemArchived = defineOperation({
  id: 'setProblemArchived',
  method: 'POST',
  path: '/problems/{id}/archived',
  tag: TAG,
  summary: 'Archive (hidden from lists, no new versions or attachments) or restore a problem',
  auth: 'user',
  params: IdParam,
  body: ArchivedRequest,
  response: Problem,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'problem:archive',
});

export const duplicateProblem = defineOperation({
  id: 'duplicateProblem',
  method: 'POST',
  path: '/problems/{id}/duplicate',
  tag: TAG,
  summary: "Copy a problem under a new slug with its newest version (the bytes are shared, not copied)",
  auth: 'user',
  params: IdParam,
  response: Problem,
  status: 201,
  errors: ['forbidden', 'not_found', 'problem.slug.exhausted'],
  permission: 'problem:create',
});

export const setProblemVisibility = defineOperation({
  id: 'setProblemVisibility',
  method: 'POST',
  path: '/problems/{id}/visibility',
  tag: TAG,
  summary: 'Make a problem private, shared with some users, or readable instance-wide',
  auth: 'user',
  params: IdParam,
  body: VisibilityRequest,
  response: Problem,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'problem:share',
});

export const listProblemVersions = defineOperation({
  id: 'listProblemVersions',
  method: 'GET',
  path: '/problems/{problemId}/versions',
  tag: TAG,
  summary: 'Versions of a problem, newest first',
  auth: 'user',
  params: ProblemIdParam,
  response: z.array(ProblemVersion),
  status: 200,
  errors: ['not_found'],
  permission: 'problem:read:own',
});

export const createProblemVersion = defineOperation({
  id: 'createProblemVersion',
  method: 'POST',
  path: '/problems/{problemId}/versions',
  tag: TAG,
  summary: 'Publish a new version: statements, files, props and an ICPC package; unchanged files carry forward',
  description:
    'A package is checked on arrival: a readable zip with problem.yaml and data/. A bad package is 422 package.invalid with the reason, and nothing is stored. ' +
    'The package\'s statements (problem_statement/ or statement/, problem[.LANG].{md,tex,html,pdf}, one per language: md, then tex, html, pdf) become the version\'s statements, ' +
    'LaTeX converted to HTML and HTML sanitized once, with the images they show as participant files statement/<file>; explicit statements win for their language. ' +
    'A LaTeX statement whose structure cannot be read is 422 version.statement.latex, and nothing is stored.',
  auth: 'user',
  params: ProblemIdParam,
  body: CreateVersionRequest,
  response: ProblemVersion,
  status: 201,
  errors: [
    'forbidden',
    'not_found',
    'problem.archived',
    'file.missing',
    'package.invalid',
    'version.statements.empty',
    'version.statement.latex',
    'version.file.duplicate',
    'version.file.isStatement',
    'version.file.isPackage',
    'validation_failed',
  ],
  permission: 'problem:update',
});

export const getProblemVersionContent = defineOperation({
  id: 'getProblemVersionContent',
  method: 'GET',
  path: '/problems/{problemId}/versions/{versionId}/content',
  tag: TAG,
  summary: 'The statements of a version',
  auth: 'user',
  params: VersionParams,
  response: z.array(ProblemVersionContentItem),
  status: 200,
  errors: ['not_found'],
  permission: 'problem:read:own',
});

export const downloadProblemPackage = defineOperation({
  id: 'downloadProblemPackage',
  method: 'GET',
  path: '/problems/{problemId}/versions/{versionId}/package',
  tag: TAG,
  summary: "The version's package (application/zip); only for those who may edit the problem",
  auth: 'user',
  params: VersionParams,
  response: 'binary',
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'problem:update',
});
