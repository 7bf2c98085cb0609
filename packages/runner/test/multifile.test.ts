import { existsSync } from 'node:fs';
import { describe as suite, expect, it } from 'vitest';
import { runTrial } from '@judge/runner';
import { hasBwrap, judgeFixture, sumPackage } from './judging.js';

/**
 * Submissions of several files, judged in the real sandbox with the real compilers: C++ units with
 * a header compiled together, Java classes of a package (the main class found after compiling),
 * Python modules beside an entry found by name, by `__main__` or by props.entry, as problemtools
 * and DOMjudge find it.
 */

const describe = suite.skipIf(!hasBwrap);
const fixture = judgeFixture();
const { problemOf, judge } = fixture;
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

/**
 * How the entry is found and started, as the packages' authors expect (problemtools, DOMjudge):
 * each of these was judged differently before (CE or RTE where the package says accepted).
 */
describe('entry points and every file of the submission', () => {
  it.skipIf(!has('/usr/bin/javac'))('Java: "public class names" in the opening comment names no class', async () => {
    const problem = await problemOf(sumPackage());
    const code =
      '/*\n * Reads two numbers. The judge finds public class names by itself.\n */\nimport java.util.Scanner;\n\n' +
      'public class Sum {\n  static String s = "public class Nope {";\n  public static void main(String[] args) {\n' +
      '    Scanner in = new Scanner(System.in);\n    System.out.println(in.nextLong() + in.nextLong());\n  }\n}\n';
    const r = await judge(problem, { files: { 'Sum.java': code } });
    expect(r, r.log).toMatchObject({ verdict: 'AC', score: 1 });
  });

  it.skipIf(!has('/usr/bin/fpc'))('Pascal: the program is the entry, not the unit named like the problem', async () => {
    const problem = await problemOf(sumPackage());
    const files = {
      'sum.pas': 'unit sum;\n\ninterface\nfunction add(a, b: int64): int64;\n\nimplementation\nfunction add(a, b: int64): int64;\nbegin\n  add := a + b;\nend;\n\nend.\n',
      'solve.pas': 'program solve;\nuses sum;\nvar a, b: int64;\nbegin\n  readln(a, b);\n  writeln(add(a, b));\nend.\n',
    };
    const r = await judge(problem, { files });
    expect(r, r.log).toMatchObject({ verdict: 'AC', score: 1 });
  });

  it.skipIf(!has('/usr/bin/swipl'))('Prolog (declared): every .pl file is loaded, not the entry alone', async () => {
    const problem = await problemOf(sumPackage());
    const files = {
      'solve.pl':
        'main :- read_line_to_string(user_input, S), split_string(S, " ", "", [A, B]),\n' +
        '  number_string(X, A), number_string(Y, B), add(X, Y, Z), writeln(Z).\n',
      'helper.pl': 'add(A, B, C) :- C is A + B.\n',
    };
    const r = await judge(problem, { files, props: { language: 'prolog' } });
    expect(r, r.log).toMatchObject({ verdict: 'AC', score: 1 });
  });

  it.skipIf(!has('/usr/bin/swipl'))("Prolog in a package: an example of two .pl files is told from Perl by its clauses, and both are loaded", async () => {
    const problem = await problemOf({
      ...sumPackage(),
      'submissions/accepted/prolog/solve.pl':
        'main :- read_line_to_string(user_input, S), split_string(S, " ", "", [A, B]),\n' +
        '  number_string(X, A), number_string(Y, B), add(X, Y, Z), writeln(Z).\n',
      'submissions/accepted/prolog/helper.pl': 'add(A, B, C) :- C is A + B.\n',
      'submissions/accepted/sum.pl': 'my ($a, $b) = split " ", <STDIN>;\nprint $a + $b, "\\n";\n',
    });
    const trial = await runTrial({ sandbox: fixture.sandbox, languages: fixture.languages, problem });
    const by = Object.fromEntries(trial.submissions.map((s) => [s.path, s]));
    expect(by['accepted/prolog'], trial.measurement).toMatchObject({ language: 'prolog', verdict: 'AC', ok: true });
    expect(by['accepted/sum.pl']).toMatchObject({ language: 'perl', verdict: 'AC', ok: true });
  });

  it('JavaScript: a syntax error in a module beside the entry is CE, not a run-time error', async () => {
    const problem = await problemOf(sumPackage());
    const entry = "const add = require('./helper.js');\nconst [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(' ').map(Number);\nconsole.log(add(a, b));\n";
    const good = await judge(problem, { files: { 'sum.js': entry, 'helper.js': 'module.exports = (a, b) => a + b;\n' } });
    expect(good, good.log).toMatchObject({ verdict: 'AC' });
    const r = await judge(problem, { files: { 'sum.js': entry, 'helper.js': 'module.exports = (a, b) => a +* b;\n' } });
    expect(r.verdict, r.log).toBe('CE');
    expect(r.log).toContain('helper.js');
    expect(r.details.tests).toEqual([]);
  });

  it('an interpreted entry runs under its submitted name (sys.argv[0], __file__)', async () => {
    const problem = await problemOf(sumPackage());
    const code = "import os, sys\nassert os.path.basename(sys.argv[0]) == 'solve_sum.py', sys.argv[0]\nassert os.path.basename(__file__) == 'solve_sum.py'\na, b = map(int, input().split())\nprint(a + b)\n";
    const r = await judge(problem, { files: { 'solve_sum.py': code } });
    expect(r, r.log).toMatchObject({ verdict: 'AC', score: 1 });
    const js = "if (require('path').basename(process.argv[1]) !== 'add.js') process.exit(3);\nconst [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(' ').map(Number);\nconsole.log(a + b);\n";
    expect(await judge(problem, { files: { 'add.js': js } })).toMatchObject({ verdict: 'AC' });
  });
});
