import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Debian's chromium package; JUDGE_TEST_CHROMIUM names another build of it. */
export const CHROMIUM = process.env.JUDGE_TEST_CHROMIUM ?? '/usr/bin/chromium';

export interface Viewport {
  width: number;
  height: number;
}

/** A lab PC's window and a small phone, the two widths every page is checked at. */
export const DESKTOP: Viewport = { width: 1280, height: 800 };
export const PHONE: Viewport = { width: 360, height: 740 };

export interface OpenedBrowser {
  browser: Browser;
  /**
   * A page in a context of its own (its own cookies and storage, like another person's browser)
   * at this size; a phone-sized page is touch-enabled and mobile. Its console errors, failed
   * scripts and CSP violations are collected for pageProblems().
   */
  newPage(viewport?: Viewport, options?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

const problems = new WeakMap<Page, string[]>();

/**
 * What went wrong in a page so far: console errors (CSP violations among them: Chromium reports
 * each as "Refused to …" or "… violates the following Content Security Policy directive"),
 * uncaught exceptions, and securitypolicyviolation events. Chromium also logs every response of
 * status 4xx/5xx as a console error; `allowStatus` lists the ones the page expects (a 401 while
 * signed out), which are left out.
 */
export function pageProblems(page: Page, opts: { allowStatus?: number[] } = {}): string[] {
  const allowed = new Set(opts.allowStatus ?? []);
  return (problems.get(page) ?? []).filter((p) => {
    const m = /Failed to load resource: the server responded with a status of (\d+)/.exec(p);
    // the live socket's handshake refused with 401 (a session that just ended: signing out, a
    // deleted account) is logged by Chromium in words of its own; the app re-reads the account then
    if (allowed.has(401) && /WebSocket connection to '[^']*\/api\/v1\/ws' failed: HTTP Authentication failed/.test(p)) return false;
    return !(m && allowed.has(Number(m[1])));
  });
}

/** The CSP violations among a page's problems. */
export function cspViolations(page: Page): string[] {
  return pageProblems(page).filter((p) => /Content Security Policy|securitypolicyviolation|Refused to /i.test(p));
}

// An init script is installed by the browser itself, so the page's own CSP does not apply to it.
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) => console.error('securitypolicyviolation: ' + e.violatedDirective + ' blocked ' + e.blockedURI));`;

function watch(page: Page): void {
  const found: string[] = [];
  problems.set(page, found);
  page.on('console', (m) => {
    if (m.type() === 'error') found.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => found.push(`exception: ${e.message}`));
}

/**
 * Chromium from Debian, driven by playwright-core (which downloads nothing). Missing, it is a
 * failure that says how to install it, never a skip: a skipped browser test would hide a broken app.
 */
export async function openBrowser(executablePath = CHROMIUM): Promise<OpenedBrowser> {
  if (!existsSync(executablePath)) {
    throw new Error(`The browser tests need Chromium at ${executablePath}, which is missing: install it with \`apt-get install chromium\` (as root; \`./install.sh --browser\` does it), or point JUDGE_TEST_CHROMIUM at a Chromium.`);
  }
  // --no-sandbox: the tests run as root, where Chromium's own sandbox refuses to start
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  return {
    browser,
    async newPage(viewport = DESKTOP, options = {}) {
      const phone = viewport.width < 600;
      const context = await browser.newContext({ viewport, ...(phone ? { isMobile: true, hasTouch: true } : {}), ...options });
      await context.addInitScript(REPORT_VIOLATIONS);
      const page = await context.newPage();
      watch(page);
      return page;
    },
    close: () => browser.close(),
  };
}

const AXE_SOURCE = readFileSync(join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/**
 * Runs axe-core on the page as it is now and throws, listing each one, on any serious or
 * critical violation. axe is evaluated by the browser itself rather than added as a <script>,
 * which the app's CSP would rightly refuse.
 */
export async function checkA11y(page: Page, what = page.url()): Promise<void> {
  // strings, not functions: the test files are compiled without the DOM's types
  const loaded = await page.evaluate<boolean>(`typeof window.axe === 'object'`);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<AxeViolation[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length === 0) return;
  const lines = bad.flatMap((v) => [
    `- ${v.id} (${v.impact}): ${v.help} <${v.helpUrl}>`,
    ...v.nodes.slice(0, 5).map((n) => `    at ${n.target.join(' ')}: ${n.html.slice(0, 160)}`),
    ...(v.nodes.length > 5 ? [`    and ${v.nodes.length - 5} more`] : []),
  ]);
  throw new Error(`axe found ${bad.length} serious or critical accessibility violation${bad.length === 1 ? '' : 's'} on ${what}:\n${lines.join('\n')}`);
}

export const SCREENSHOTS = join(ROOT, 'test-artifacts', 'screenshots');

/**
 * Waits until no loading indicator is left on the page: a staff page and its frame may each show
 * one while their data is on its way, so there can be several at once.
 */
export async function settled(page: Page): Promise<void> {
  // a function, not a string: the page's CSP refuses to evaluate strings
  await page.waitForFunction(() => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('.loading').length === 0);
}

/** Saves the whole page as test-artifacts/screenshots/<name>-<width>.png and returns the file. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = join(SCREENSHOTS, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
