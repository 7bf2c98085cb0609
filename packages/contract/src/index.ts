export * from './wire.js';
export * from './errors.js';
export * from './api-error.js';
export * from './permissions.js';
export * from './operation.js';
export * from './events.js';
export * from './openapi.js';
export type { JudgeTestDetail } from './details.js';
export * from './schemas/identity.js';
export * from './schemas/providers.js';
export * from './schemas/lti.js';
export * from './schemas/users.js';
export * from './schemas/roles.js';
export * from './schemas/files.js';
export * from './schemas/instance.js';
export * from './schemas/instance-branding.js';
export * from './schemas/content.js';
export * from './schemas/judging.js';
export * from './schemas/scoreboards.js';
export * from './schemas/forms.js';
export * from './schemas/questions.js';
/** The CLICS Contest API's object schemas (docs/clics.md). */
export * as clics from './clics/index.js';
export * from './schemas/printouts.js';
export * from './schemas/sample-runs.js';
export * from './schemas/dashboard.js';
export * from './schemas/awards.js';
export * from './schemas/ceremony.js';
export { ops, OPERATIONS } from './operations/index.js';

/** The API version written into openapi.json and events.json. */
export const API_VERSION = '1.0.0';
export * from './first-solves.js';
export * from './problem-label.js';
