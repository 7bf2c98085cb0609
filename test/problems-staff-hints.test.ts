import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JUDGECTL } from './cli-child.js';
import { helpFlags, unknownFlags } from './command-flags.js';

const PAGES = fileURLToPath(new URL('../packages/web/src/pages/staff/problems', import.meta.url));

/** Every `<JudgectlHint command=...>` of the staff problem pages, as written (a template's `${…}` left in). */
function hints(): string[] {
  const out: string[] = [];
  for (const name of readdirSync(PAGES).filter((f) => f.endsWith('.tsx'))) {
    const text = readFileSync(join(PAGES, name), 'utf8');
    for (const m of text.matchAll(/<JudgectlHint command=(?:"([^"]+)"|\{`([^`]+)`\})/g)) out.push(m[1] ?? m[2]!);
  }
  return out;
}

/** The subcommand a hint names: its lower-case words after `judgectl`, up to the first argument. */
const subcommand = (hint: string) => {
  const words = hint.split(/\s+/).slice(1);
  const end = words.findIndex((w) => !/^[a-z][a-z-]*$/.test(w));
  return end < 0 ? words : words.slice(0, end);
};

/**
 * The problem pages name judgectl commands for their tasks (`pnpm build` first): each must be a
 * command judgectl has, with flags it accepts, or the hint sends a reader to an error.
 */
describe('the judgectl commands the staff problem pages name', () => {
  it('are commands judgectl has, with flags they accept', () => {
    const all = hints();
    expect(all.length).toBeGreaterThanOrEqual(7);
    for (const hint of all) {
      expect(hint.startsWith('judgectl '), hint).toBe(true);
      const args = subcommand(hint);
      expect(args.length, hint).toBeGreaterThan(0);
      expect(unknownFlags(hint, helpFlags(JUDGECTL, args)), hint).toEqual([]);
    }
  }, 120_000);
});
