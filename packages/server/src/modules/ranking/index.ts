/** Rankings and standings of activities. */
export { RankingService, isPublicScoreboard } from './service.js';
export type { RankedSeries } from './queries.js';
export { activeFreeze } from './windows.js';
export { rankingRoutes } from './routes.js';
export { gradeOf, type Grade } from './grade.js';
export { DEFAULT_AWARD_RULES, awardRulesOf, medalOf } from './award-rules.js';
export { groupsOfTags, organisationOfTags } from './participant-groups.js';
export { type CeremonyRow, type CeremonyStep } from './resolver.js';
