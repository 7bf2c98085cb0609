export { ApiClient, problemOf, sha256Hex, type ClientOptions, type CallInput } from './client.js';
export { JudgeClient } from './node-client.js';
export { ApiProblem, Unreachable } from './problem.js';
export { EventStream, type Frame, type EventStreamOptions } from './events.js';
export { ops } from '@judge/contract';
export {
  RunnerClient,
  ChecksumMismatch,
  generateRunnerKey,
  fingerprintOf,
  signNonce,
  loadOrCreateRunnerKey,
  type RunnerKey,
  type RunnerClientOptions,
  type HeldJob,
  type HeldTrial,
  type ClaimedTrial,
  type ClaimedSampleRun,
  type HeldSampleRun,
  type SampleRunReport,
  type ClaimOptions,
  type JobReport,
  type TrialReport,
  type RegisterInput,
} from './runner.js';
export { rankingCsv, asCsvText, csvField, csvLine, solveMinute, CSV_BOM, PENALTY_MINUTES, type RankingCsvOptions } from './ranking-csv.js';
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
export { startMovedTo, neverOpened, WITH_START, type StartMove } from './series-dates.js';
export type { TrialExample, TrialMeasurement } from './trial-measurement.js';
