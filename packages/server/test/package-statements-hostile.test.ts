import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { refusedWith } from './expect.js';
import { admin, j, uniq, useParticipantWorld } from './support/participant.js';
import { legacyPackage, zipOf } from './zips.js';

/**
 * The statements that killed or stalled the server, uploaded in packages
 * through the real HTTP server: each is refused with 422 version.statement.latex and its reason, or
 * converted, never a 500, and the server answers on after every one. The converter's own coverage
 * is in latex-limits.test.ts.
 */

const here = dirname(fileURLToPath(import.meta.url));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const doubling = Array.from({ length: 26 }, (_, i) => {
  const name = (k: number) => `\\m${String.fromCharCode(97 + k)}`;
  return `\\newcommand{${name(i)}}{${i ? `${name(i - 1)}${name(i - 1)}` : 'xx'}}`;
}).join('\n');

const HOSTILE: Record<string, { tex: string; reason: string }> = {
  '500 nested itemize': { tex: `${'\\begin{itemize}\\item '.repeat(500)}x${'\\end{itemize}'.repeat(500)}`, reason: 'it nests braces and environments deeper than 32 levels' },
  '5,000 nested braces': { tex: `${'{'.repeat(5000)}x${'}'.repeat(5000)}`, reason: 'it nests braces and environments deeper than 32 levels' },
  'a macro fan-out': { tex: `${doubling}\n\\mz`, reason: 'its macros are used more than 5000 times once expanded' },
  'optional arguments left open': { tex: '\\item['.repeat(20_000), reason: 'it opens more than 32 optional arguments [ without closing them' },
};

async function upload(tex: string, extra: Record<string, Buffer | string> = {}) {
  const problem = await admin.call(ops.createProblem, { body: { slug: uniq('latex'), name: 'Statement', type: 'standard-io@1' } });
  const file = await admin.upload('package.zip', await zipOf({ ...legacyPackage(), 'problem_statement/problem.en.tex': tex, ...extra }), 'application/zip');
  return { problemId: problem.id, version: admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: file.id } } }) };
}

async function healthy(): Promise<number> {
  return (await fetch(`${j.url}/health`)).status;
}

describe('hostile LaTeX statements uploaded in a package', () => {
  useParticipantWorld();

  for (const [what, { tex, reason }] of Object.entries(HOSTILE)) {
    it(`${what}: 422 version.statement.latex with the reason, and the server answers on`, async () => {
      const { problemId, version } = await upload(tex);
      const pb = await refusedWith(version, 422, 'version.statement.latex');
      expect(pb.detail).toBe(`The LaTeX statement problem_statement/problem.en.tex cannot be converted: ${reason}`);
      expect(await admin.call(ops.listProblemVersions, { params: { problemId } })).toEqual([]);
      expect(await healthy()).toBe(200);
    });
  }

  it('NWERC 2023 fixingfractions (its \\textsuperscript ended the server at import) is converted', async () => {
    const tex = readFileSync(join(here, 'fixtures/latex-statements/fixingfractions.en.tex'), 'utf8');
    const { version } = await upload(tex, { 'problem_statement/meme.png': PNG });
    const v = await version;
    const statement = v.files.find((f) => f.name === 'statement.en.html')!;
    expect(statement.mimeType).toMatch(/^text\/html/);
    const res = await fetch(`${j.url}/api/v1/files/${statement.fileId}`, { headers: { authorization: `Bearer ${admin.accessToken!}` } });
    const html = await res.text();
    expect(html).toContain('Maths is hard.<sup>[citation needed]</sup>');
    expect(html).toContain('<h2>Input</h2>');
    expect(await healthy()).toBe(200);
  });
});
