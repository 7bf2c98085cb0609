/** The ICPC problem package format (decisions §13) and the language table, shared by server, runner and judgectl. */
export { PackageError } from './errors.js';
export type { Verdict, ProblemFormat, LegacyGrading, ModernScoring, ProblemLimits } from './types.js';
export { isMapping, parseMapping, checkKeys, splitArgs, number, bound, compareNames, type Mapping } from './yaml.js';
export { ProblemYaml, LimitsYaml, DEFAULT_VALIDATION_PASSES, readManifest, formatVersionOf, readName, type Manifest, type ProblemKind } from './manifest.js';
export {
  parseTimelimitFile,
  parseDomjudgeIni,
  iniTimeLimit,
  packageTimeLimit,
  effectiveLimits,
  readMaxima,
  JUDGE_DEFAULTS,
  DEFAULT_MAXIMA,
  type TimeLimitSource,
  type TimeLimitTexts,
  type LimitFigures,
  type NamedLimits,
  type EffectiveLimit,
  type EffectiveLimits,
} from './limits.js';
export { LEGACY_DEFAULTS, legacyTestdataYaml, testGroupYaml, readLegacyTestdata, readModernGroup, type LegacyTestdata, type GroupContext, type ModernGroup } from './testdata.js';
export {
  MANIFEST_FILE,
  TIMELIMIT_FILE,
  DOMJUDGE_INI_FILE,
  DATA_DIR,
  JUDGED_GROUPS,
  INCLUDE_DIR,
  SUBMISSIONS_DIR,
  validatorDirs,
  isCountedName,
  DOC_FILE,
  STATEMENT_PATH,
  countTests,
} from './layout.js';
export {
  openPackageZip,
  zipRefusal,
  readEntry,
  zipFault,
  wrapperPrefix,
  isMacMetadata,
  tooLargeMessage,
  UPLOAD_ZIP_LIMITS,
  MAX_COMPRESSION_RATIO,
  type ZipLimits,
  type PackageZip,
  type PackageEntry,
} from './zip.js';
export { inspectPackageZip, METADATA_BYTES, type PackageSummary } from './inspect.js';
export {
  LanguageEntry,
  LanguageTableFile,
  readLanguageTableFile,
  extensionIndex,
  extensionOf,
  languageOfFile,
  detectProgramLanguage,
  fileLanguage,
  type DetectableLanguage,
  type CompileLimitsInput,
} from './languages.js';
// not about packages: what the server's and the runner's install-service share (neither imports the other)
export { unitWord, environmentLines, checkUserName, writeUnit, unitName, enableLine, InstallServiceError } from './systemd-unit.js';
export { wholeNumber, httpUrl, httpOrigin, optionParser } from './command-options.js';
