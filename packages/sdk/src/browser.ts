/** What a browser page may import: the typed client, its errors and the reconnecting event socket (no Node modules). */
export { ApiClient, problemOf, sha256Hex, type ClientOptions, type CallInput } from './client.js';
export { ApiProblem, Unreachable } from './problem.js';
export { LiveSocket, backoffMs, BACKOFF_START_MS, BACKOFF_MAX_MS, type LiveFrame, type LiveState, type LiveSocketOptions } from './live-socket.js';
export { ops } from './op-table.js';
export { firstSolves, problemLabel } from '@judge/contract';
export { rankingCsv, asCsvText, solveMinute, CSV_BOM, type RankingCsvOptions } from './ranking-csv.js';
export * from './class-list/index.js';
export {
  slugFromName,
  librarySlug,
  generatedStatement,
  hasOwnStatement,
  packagesInArchive,
  importPackage,
  describeFailure,
  LeftBehindError,
  type PackageInArchive,
  type PackageToImport,
  type ImportHooks,
  type ImportStep,
} from './contest-import.js';
export { uploadWithProgress } from './browser-upload.js';
export { startMovedTo, neverOpened, WITH_START, type StartMove } from './series-dates.js';
export type { TrialExample, TrialMeasurement } from './trial-measurement.js';
