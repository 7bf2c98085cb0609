/**
 * What the browser tests stand on: a real `judge up` with its runner (judge-up.ts) and Debian's
 * Chromium driven by playwright-core, with axe-core and screenshots (chromium.ts).
 *
 * Each test file opens one browser and one `judge up` in beforeAll and closes them in afterAll.
 * Vitest runs two files at once, so at most two browsers and two servers run together; a page test
 * file should hold a whole flow (many pages of one server) rather than one page, to keep it that way.
 */
export { ADMIN_PASSWORD, ADMIN_USERNAME, BROWSER_RUNNER_UID_BASE, startJudgeUp, type JudgeUpOptions, type RunningJudge } from './judge-up.js';
export { checkA11y, CHROMIUM, cspViolations, DESKTOP, openBrowser, pageProblems, PHONE, screenshot, SCREENSHOTS, settled, type OpenedBrowser, type Viewport } from './chromium.js';
