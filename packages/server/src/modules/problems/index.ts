/** Problems, their versions and packages, and who may read them. */
export { ProblemsService } from './service.js';
export { problemsRoutes } from './routes.js';
export { newestVersion, readableProblem, type VersionRow } from './queries.js';
export { versionFiles, statementItem } from './views.js';
export { isStatementRole } from './version-files.js';
export { storeComputedTimeLimit, type VersionCalibration } from './calibration.js';
