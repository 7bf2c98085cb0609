/** Runners: registration, the handshake and tokens, management, and which runners match which tags. */
export { RunnersService, type RunnerWork } from './service.js';
export { runnerRoutes } from './routes.js';
export { readJudgeableLanguages, readMatchingRunners, readRunnerCensus, requiredTags, tagsSatisfied, type RunnerCensus } from './queries.js';
