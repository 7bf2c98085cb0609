import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type ProblemVersion } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { TestJudge } from './harness.js';
import { zipOf } from './zips.js';

/**
 * A package's samples (decisions §13): its data/sample/ .in, .ans and .interaction files become
 * participant files of the version at upload, named sample/<path>; nothing else of data/ does.
 * Real HTTP, a real SQLite file; the rest of versions and packages is in packages.test.ts.
 */

describe('the samples of a package', () => {
  let j: TestJudge;
  let author: JudgeClient;
  const version = async (entries: Record<string, string>): Promise<ProblemVersion> => {
    const p = await author.call(ops.createProblem, { body: { slug: `samples-${Math.random().toString(36).slice(2, 8)}`, name: 'Samples', type: 'standard-io@1' } });
    const pkg = await author.upload('package.zip', await zipOf(entries), 'application/zip');
    return author.call(ops.createProblemVersion, { params: { problemId: p.id }, body: { package: { fileId: pkg.id } } });
  };

  beforeAll(async () => {
    j = await TestJudge.start();
    const u = await j.user('samples-author');
    await j.grant(u.id, 'manager');
    author = await j.signIn(u);
  });
  afterAll(() => j.stop());

  it("makes participant-scope files of the package's samples (.in, .ans, .interaction, below data/sample/ only), and of nothing else", async () => {
    const v = await version({
      'problem.yaml': 'problem_format_version: 2023-07\nname: Guess\ntype: interactive\n',
      'data/sample/1.in': '500\n',
      'data/sample/1.ans': '\n',
      'data/sample/1.interaction': '> 500\n< =\n',
      'data/sample/more/2.in': '7\n',
      'data/sample/notes.txt': 'not a sample',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '\n',
      'output_validator/interactor.py': 'import sys\nsys.exit(42)\n',
    });
    const samples = v.files.filter((f) => f.name.startsWith('sample/'));
    expect(samples.map((f) => [f.name, f.scope])).toEqual([
      ['sample/1.ans', 'participant'],
      ['sample/1.in', 'participant'],
      ['sample/1.interaction', 'participant'],
      ['sample/more/2.in', 'participant'],
    ]);
    const interaction = samples.find((f) => f.name === 'sample/1.interaction')!;
    expect(Buffer.from(await author.call(ops.downloadFile, { params: { id: interaction.fileId } })).toString()).toBe('> 500\n< =\n');
    expect(v.files.some((f) => f.name.includes('secret'))).toBe(false);
  });
});
