/** judge-runner: the library behind bin/judge-runner, for the end-to-end tests and `judge up`. */
export type * from './sandbox/types.js';
export { Sandbox, SandboxError, type SandboxOptions, type Box, type BwrapInfo, type Session, type SessionSpec, type TestSpec } from './sandbox/sandbox.js';
export {
  loadLanguages,
  defaultLanguagesPath,
  defaultLanguageTable,
  pickLanguage,
  heapMiB,
  runCommand,
  compile,
  type Language,
  type LanguageTable,
  type LanguageRun,
  type CompileResult,
} from './languages.js';
export { checkMachine, HELLO_PROGRAMS, LIMIT_PROGRAMS, type CheckOptions, type CheckReport, type LanguageCheck, type LimitCheck } from './check.js';
// problem packages and judging (ICPC problem package format, decisions §13)
export {
  judgeSubmission,
  runTrial,
  answerFor,
  type JudgeInput,
  type JudgeResult,
  type JudgeDetails,
  type TestDetail,
  type RunnerLimits,
  type SubmissionFileInput,
  type TrialInput,
  type TrialResult,
  type TrialSubmission,
  type TrialNotRun,
} from './judge.js';
export { PackageCache, extractZip, PACKAGE_CACHE_DEFAULTS, type PackageCacheOptions, type CachedPackage, type ExtractLimits } from './problem/cache.js';
export { CompileCache, COMPILE_CACHE_DEFAULTS, type CompileCacheOptions, type CompileCacheStats } from './compile/cache.js';
export { compileProgram, compileKey, type ProgramCompile } from './compile/program.js';
export { headerFlags, PCH_MOUNT } from './compile/pch.js';
export { loadProblem, programLanguage } from './problem/load.js';
export { compareOutput, parseDefaultValidatorFlags, type DefaultValidatorOptions, type ValidationOutcome, type ByteSource } from './problem/default-validator.js';
export {
  evaluate,
  gradeLegacy,
  maxScoreOf,
  resolveModernMaxScores,
  type Evaluation,
  type EvaluateOptions,
  type GroupResult,
  type RunTest,
  type ScoredTest,
  type TestOutcome,
} from './problem/scoring.js';
export { buildValidator, compileFiles, ValidatorBuildError, type JudgeSandbox, type BuiltValidator, type Compiled, type ProgramFile } from './problem/programs.js';
export {
  PackageError,
  testsOf,
  type ProblemSpec,
  type ProblemFormat,
  type ProblemLimits,
  type TestCase,
  type TestGroup,
  type TestItem,
  type LegacyGrading,
  type ModernScoring,
  type GroupGrading,
  type ProgramSource,
  type ExampleSubmission,
  type Verdict,
} from './problem/types.js';
// the agent behind `judge-runner start`
export { Agent, PROBLEM_TYPES, type AgentOptions, type AgentStats } from './agent.js';
export { StrayErrors, StrayError } from './stray-errors.js';
export { configDir, keyPath, cachePath, loadConfig, saveConfig, type RunnerConfig } from './config.js';
export { allowedCpus, planSlots, parseSlots, type SlotPlan } from './slots.js';
