import { existsSync } from 'node:fs';
import { describe as suite, expect, it } from 'vitest';
import { ops, type SubmissionSummary } from '@judge/contract';
import { useJudgedContest } from './judged-contest.js';
import { settled, SUM_PACKAGE } from './one-problem-contest.js';
import { uidBaseOfRun } from './runner-process.js';

/**
 * Several files from submit to verdict: the SDK's submit sends repeated file parts with their
 * digests, the server stores them all, `bin/judge-runner` (a child process, the real sandbox)
 * downloads every one and compiles them together. Build first (`pnpm build`).
 */

/** A uid range of this file's own, apart from the other end-to-end files' sandboxes. */
const UID_BASE = uidBaseOfRun(61100);
const describe = suite.skipIf(process.geteuid?.() !== 0);

describe('multi-file submissions end to end (server, runner process, sandbox)', () => {
  const c = useJudgedContest({
    tmpPrefix: 'judge-multifile-',
    contest: { slug: 'multi', name: 'Multi', problemSlug: 'sum', problemName: 'Sum', files: SUM_PACKAGE },
    runner: { name: 'multifile-runner', uidBase: UID_BASE },
    prepare: ({ admin, act }) =>
      admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, maxAttachments: 4, attachmentVisibility: [{ name: 'log', visibility: 'participant' }] } }),
  });

  const judged = async (files: Record<string, string>): Promise<SubmissionSummary & { files?: { fileName: string }[] }> => {
    const s = await c.pupil.submit(c.act.slug, 'sum', Object.entries(files).map(([name, bytes]) => ({ name, bytes })));
    return settled(c.pupil, c.act.slug, s.id, { ms: 120_000, stepMs: 100 });
  };

  it('C++: two units and a header are accepted; the submission lists all three', async () => {
    const r = await judged({
      'main.cpp': '#include "add.hpp"\n#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << add(a, b) << "\\n"; }\n',
      'add.cpp': '#include "add.hpp"\nlong add(long a, long b) { return a + b; }\n',
      'add.hpp': 'long add(long a, long b);\n',
    });
    expect(r, c.runner.logs.join('')).toMatchObject({ state: 'completed', verdict: 'AC' });
    expect(r.files?.map((f) => f.fileName)).toEqual(['main.cpp', 'add.cpp', 'add.hpp']);
  }, 150_000);

  it('Python: an entry with __main__ importing a module is accepted', async () => {
    const r = await judged({
      'helper.py': 'def add(a, b):\n    return a + b\n',
      'solution.py': 'from helper import add\n\nif __name__ == "__main__":\n    a, b = map(int, input().split())\n    print(add(a, b))\n',
    });
    expect(r).toMatchObject({ state: 'completed', verdict: 'AC' });
  }, 150_000);

  it.skipIf(!existsSync('/usr/bin/javac'))('Java: two classes of a package are accepted', async () => {
    const r = await judged({
      'Adder.java': 'package acme;\n\npublic class Adder {\n  public static long add(long a, long b) { return a + b; }\n}\n',
      'Main.java':
        'package acme;\n\nimport java.util.Scanner;\n\npublic class Main {\n  public static void main(String[] args) {\n' +
        '    Scanner in = new Scanner(System.in);\n    System.out.println(Adder.add(in.nextLong(), in.nextLong()));\n  }\n}\n',
    });
    expect(r).toMatchObject({ state: 'completed', verdict: 'AC' });
  }, 150_000);
});
