/** LTI 1.3: LMSs (platforms) that launch the judge, the tool's keys, launches and score passback. */
export { LtiPlatformsService } from './platforms.js';
export { ToolKeys } from './keys.js';
export { LtiLaunch } from './launch.js';
export { LtiLanding } from './landing.js';
export { LtiGrades } from './grades.js';
export { ltiRoutes } from './routes.js';
