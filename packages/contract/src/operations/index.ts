import type { Operation } from '../operation.js';
import * as access from './access.js';
import * as admin from './admin.js';
import * as core from './core.js';
import * as instance from './instance.js';
import * as files from './files.js';
import * as identity from './identity.js';
import * as providers from './providers.js';
import * as deletionRequests from './deletion-requests.js';
import * as lti from './lti.js';
import * as users from './users.js';
import * as problems from './problems.js';
import * as activities from './activities.js';
import * as series from './series.js';
import * as submissions from './submissions.js';
import * as runner from './runner.js';
import * as runners from './runners.js';
import * as questions from './questions.js';
import * as printouts from './printouts.js';
import * as sampleRuns from './sample-runs.js';
import * as scoreboards from './scoreboards.js';
import * as ceremony from './ceremony.js';
import * as awards from './awards.js';

/** Every operation of the API, keyed by operation id. */
export const ops = {
  ...core,
  ...instance,
  ...identity,
  ...providers,
  ...deletionRequests,
  ...lti,
  ...access,
  ...users,
  ...files,
  ...problems,
  ...activities,
  ...series,
  ...submissions,
  ...runner,
  ...runners,
  ...questions,
  ...printouts,
  ...sampleRuns,
  ...scoreboards,
  ...ceremony,
  ...awards,
  ...admin,
} as const;

export const OPERATIONS: readonly Operation[] = Object.values(ops);
