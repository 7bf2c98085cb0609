/** Rankings and standings of activities. */
export { RankingService } from './service.js';
export { rankingRoutes } from './routes.js';
export { gradeOf, type Grade } from './grade.js';
export { DEFAULT_AWARD_RULES, awardRulesOf, medalOf } from './award-rules.js';
export { groupsOfTags, organisationOfTags } from './participant-groups.js';
