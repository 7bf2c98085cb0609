import { existsSync } from 'node:fs';
import { describe as suite, expect, it } from 'vitest';
import { hasBwrap, judgeFixture, sumPackage } from './judging.js';

/**
 * Submissions of several files, judged in the real sandbox with the real compilers: C++ units with
 * a header compiled together, Java classes of a package (the main class found after compiling),
 * Python modules beside an entry found by name, by `__main__` or by props.entry, as problemtools
 * and DOMjudge find it.
 */

const describe = suite.skipIf(!hasBwrap);
const { problemOf, judge } = judgeFixture();
const has = (bin: string) => existsSync(bin);

describe('multi-file submissions: compiled languages', () => {
  it.skipIf(!has('/usr/bin/g++'))('C++: two units and a header, compiled together', async () => {
    const problem = await problemOf(sumPackage());
    const files = {
      'solve.cpp': '#include "add.hpp"\n#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << add(a, b) << "\\n"; }\n',
      'add.cpp': '#include "add.hpp"\nlong add(long a, long b) { return a + b; }\n',
      'add.hpp': '#pragma once\nlong add(long a, long b);\n',
    };
    expect(await judge(problem, { files })).toMatchObject({ verdict: 'AC', score: 1 });
    // the unit that defines add is compiled, not merely present: without it the link fails
    const missing = await judge(problem, { files: { 'solve.cpp': files['solve.cpp'], 'add.hpp': files['add.hpp'] } });
    expect(missing.verdict).toBe('CE');
    expect(missing.log).toMatch(/undefined reference to .*add/);
  });

  it.skipIf(!has('/usr/bin/javac'))('Java: two classes of a package, run as the package-qualified main class', async () => {
    const problem = await problemOf(sumPackage());
    const files = {
      'Adder.java': 'package acme.sum;\n\npublic class Adder {\n  public static long add(long a, long b) { return a + b; }\n}\n',
      'Main.java':
        'package acme.sum;\n\nimport java.util.Scanner;\n\npublic class Main {\n  public static void main(String[] args) {\n' +
        '    Scanner in = new Scanner(System.in);\n    System.out.println(Adder.add(in.nextLong(), in.nextLong()));\n  }\n}\n',
    };
    const r = await judge(problem, { files });
    expect(r, r.log).toMatchObject({ verdict: 'AC', score: 1 });
    expect(r.log).toContain('acme.sum.Main');
  });
});

describe('multi-file submissions: Kotlin', () => {
  it.skipIf(!has('/usr/bin/kotlinc'))('two files of a package, run as the package-qualified class of main', async () => {
    const problem = await problemOf(sumPackage());
    const files = {
      'Solve.kt': 'package acme\n\nfun main() {\n  val (a, b) = readLine()!!.split(" ").map { it.toLong() }\n  println(add(a, b))\n}\n',
      'Adder.kt': 'package acme\n\nfun add(a: Long, b: Long): Long = a + b\n',
    };
    const r = await judge(problem, { files });
    expect(r, r.log).toMatchObject({ verdict: 'AC', score: 1 });
    expect(r.log).toContain('acme.');
  }, 180_000);
});

describe('multi-file submissions: Python modules and the entry', () => {
  const helper = 'def add(a, b):\n    return a + b\n';
  const usesHelper = 'from helper import add\na, b = map(int, input().split())\nprint(add(a, b))\n';

  it('an entry named like the problem imports a module beside it', async () => {
    const problem = await problemOf(sumPackage());
    expect(await judge(problem, { files: { 'helper.py': helper, 'sum.py': usesHelper } })).toMatchObject({ verdict: 'AC' });
  });

  it('the entry is the one file with if __name__ == "__main__"', async () => {
    const problem = await problemOf(sumPackage());
    const entry = `from helper import add\n\ndef main():\n    a, b = map(int, input().split())\n    print(add(a, b))\n\nif __name__ == "__main__":\n    main()\n`;
    const r = await judge(problem, { files: { 'a_helper.py': 'raise SystemExit("not the entry")\n', 'helper.py': helper, 'solution.py': entry } });
    expect(r, r.log).toMatchObject({ verdict: 'AC' });
  });

  it('props.entry names the entry; one naming no file of the submission is CE with a clear log', async () => {
    const problem = await problemOf(sumPackage());
    const files = { 'helper.py': helper, 'run.py': usesHelper };
    expect(await judge(problem, { files, props: { entry: 'run.py' } })).toMatchObject({ verdict: 'AC' });
    const wrong = await judge(problem, { files, props: { entry: 'main.py' } });
    expect(wrong.verdict).toBe('CE');
    expect(wrong.log).toContain('props.entry names "main.py", which is not among the submission\'s files (helper.py, run.py)');
    expect(wrong.details.tests).toEqual([]);
  });

  it('no way to tell the entry among several modules: CE naming the rules', async () => {
    const problem = await problemOf(sumPackage());
    const r = await judge(problem, { files: { 'helper.py': helper, 'run.py': usesHelper } });
    expect(r.verdict).toBe('CE');
    expect(r.log).toContain('cannot tell which of helper.py, run.py is the entry point');
    expect(r.log).toContain('props.entry');
  });

  it('a module named as the language runs its entry (main.py) beside another entry: CE rather than losing it', async () => {
    const problem = await problemOf(sumPackage());
    const r = await judge(problem, { files: { 'main.py': helper, 'sum.py': usesHelper.replace('helper', 'main') } });
    expect(r.verdict).toBe('CE');
    expect(r.log).toContain('the entry sum.py runs as main.py, which another file of the submission is named');
  });

  it('a syntax error in a module, not only in the entry, is CE', async () => {
    const problem = await problemOf(sumPackage());
    const r = await judge(problem, { files: { 'helper.py': 'def add(a, b)\n    return a + b\n', 'sum.py': usesHelper } });
    expect(r.verdict).toBe('CE');
    expect(r.log).toContain('helper.py');
  });
});
