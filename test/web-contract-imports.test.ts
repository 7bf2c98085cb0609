import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The pages take only types from @judge/contract: its values bring zod along, whose compiled
 * parsers try `Function('')`, which the page's Content-Security-Policy refuses (a violation on
 * every page that parses). Operations come from @judge/sdk/browser's table instead.
 */
const src = fileURLToPath(new URL('../packages/web/src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The imports of a file that take values (not `import type`) from @judge/contract. */
function valueImportsOfContract(text: string): string[] {
  return [...text.matchAll(/^import\s+(?!type\s)([^;]*?)\s+from\s+['"]@judge\/contract['"]/gms)]
    .map((m) => m[1]!)
    .filter((what) => what.replace(/[{}\s]/g, '').split(',').some((name) => name && !name.startsWith('type')));
}

describe('the pages and the contract', () => {
  it('tells a value import from a type import', () => {
    expect(valueImportsOfContract("import { ops, type SampleRun } from '@judge/contract';")).toHaveLength(1);
    expect(valueImportsOfContract("import type { SampleRun } from '@judge/contract';")).toEqual([]);
    expect(valueImportsOfContract("import { type A, type B } from '@judge/contract';")).toEqual([]);
  });

  it('no page imports a value of @judge/contract', () => {
    const offenders = sources(src).flatMap((f) => valueImportsOfContract(readFileSync(f, 'utf8')).map((what) => `${relative(src, f)}: ${what}`));
    expect(offenders).toEqual([]);
  });
});
