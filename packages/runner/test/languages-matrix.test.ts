import { describe as suite, expect, it } from 'vitest';
import { hasBwrap, judgeFixture } from './judging.js';

/**
 * Every language of the table, judged end to end in the real sandbox: its self-test program (a
 * copy of stdin) is accepted on a copy problem, a program printing something else is WA, an
 * endless loop is TLE, and text that is no program is CE. A language whose toolchain is not
 * installed is skipped with the reason printed (CI installs them all: `judge-runner languages install --all`).
 */

const describe = suite.skipIf(!hasBwrap);
const fixture = judgeFixture();
const { problemOf, judge } = fixture;

/** Per language: a program printing a wrong answer, one that never ends, and (where the common text would be valid) one that does not compile. */
const PROGRAMS: Record<string, { wa: string; tle: string; ce?: string }> = {
  c: { wa: '#include <stdio.h>\nint main(void){puts("wrong");return 0;}\n', tle: 'int main(void){volatile unsigned long x=0;for(;;)x++;}\n' },
  cpp: { wa: '#include <iostream>\nint main(){std::cout<<"wrong\\n";}\n', tle: 'int main(){volatile unsigned long x=0;for(;;)x++;}\n' },
  cpp17: { wa: '#include <iostream>\nint main(){std::cout<<"wrong\\n";}\n', tle: 'int main(){volatile unsigned long x=0;for(;;)x++;}\n' },
  python3: { wa: 'print("wrong")\n', tle: 'while True:\n    pass\n' },
  pypy3: { wa: 'print("wrong")\n', tle: 'x = 0\nwhile True:\n    x += 1\n' },
  java: {
    wa: 'public class Main { public static void main(String[] a) { System.out.println("wrong"); } }\n',
    tle: 'public class Main { public static void main(String[] a) { long x = 0; while (true) x++; } }\n',
  },
  kotlin: { wa: 'fun main() { println("wrong") }\n', tle: 'fun main() { var x = 0L; while (true) x++ }\n' },
  javascript: { wa: 'console.log("wrong");\n', tle: 'for (;;) {}\n' },
  typescript: { wa: 'const s: string = "wrong";\nconsole.log(s);\n', tle: 'let x: number = 0;\nfor (;;) x++;\n' },
  rust: { wa: 'fn main() { println!("wrong"); }\n', tle: 'fn main() {\n    loop {}\n}\n' },
  go: { wa: 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("wrong") }\n', tle: 'package main\n\nfunc main() {\n\tx := 0\n\tfor {\n\t\tx++\n\t}\n}\n' },
  csharp: {
    wa: 'using System;\npublic class P { public static void Main() { Console.WriteLine("wrong"); } }\n',
    tle: 'public class P { public static void Main() { long x = 0; while (true) x++; } }\n',
  },
  haskell: { wa: 'main :: IO ()\nmain = putStrLn "wrong"\n', tle: 'loop :: Int -> Int\nloop n = loop (n + 1)\nmain :: IO ()\nmain = print (loop 0)\n' },
  ocaml: { wa: 'let () = print_endline "wrong"\n', tle: 'let rec loop n = loop (n + 1)\nlet () = loop 0\n' },
  ruby: { wa: 'puts "wrong"\n', tle: 'loop {}\n' },
  // text outside <?php is output, so PHP needs a broken program of its own
  php: { wa: '<?php\necho "wrong\\n";\n', tle: '<?php\nwhile (true) {}\n', ce: '<?php\necho )( }{;\n' },
  pascal: { wa: "program main;\nbegin\n  writeln('wrong');\nend.\n", tle: 'program main;\nvar x: longint;\nbegin\n  x := 0;\n  while true do x := x + 1;\nend.\n' },
  fortran: { wa: "program main\n  print '(A)', 'wrong'\nend program main\n", tle: 'program main\n  integer :: x\n  x = 0\n  do\n    x = x + 1\n  end do\nend program main\n' },
  scala: {
    wa: 'object Main {\n  def main(args: Array[String]): Unit = println("wrong")\n}\n',
    tle: 'object Main {\n  def main(args: Array[String]): Unit = { var x = 0L; while (true) x += 1 }\n}\n',
  },
  lisp: { wa: '(write-line "wrong")\n', tle: '(loop)\n' },
  prolog: { wa: "main :- writeln('wrong').\n", tle: 'main :- loop.\nloop :- loop.\n' },
  lua: { wa: 'print("wrong")\n', tle: 'while true do end\n' },
  perl: { wa: 'print "wrong\\n";\n', tle: '1 while 1;\n' },
  bash: { wa: 'echo wrong\n', tle: 'while :; do :; done\n' },
  r: { wa: 'cat("wrong\\n")\n', tle: 'repeat {}\n' },
  ada: {
    wa: 'with Ada.Text_IO;\nprocedure Main is\nbegin\n  Ada.Text_IO.Put_Line ("wrong");\nend Main;\n',
    tle: 'procedure Main is\n  X : Integer := 0;\n  pragma Volatile (X);\nbegin\n  loop\n    X := (X + 1) mod 1000;\n  end loop;\nend Main;\n',
  },
  d: { wa: 'import std.stdio;\nvoid main() { writeln("wrong"); }\n', tle: 'void main() { ulong x = 0; while (true) { x++; } }\n' },
};

/** Text that no language of the table accepts. */
const NOT_A_PROGRAM = ')( }{ this is not a program ][\n';

const copyPackage = () => ({
  'problem.yaml': 'name: Copy\nlimits:\n  memory: 512\n',
  '.timelimit': '1\n',
  'data/secret/1.in': 'hello world\n42\n',
  'data/secret/1.ans': 'hello world\n42\n',
});

describe('every language of the table judges AC, WA, TLE and CE', () => {
  it('has a wrong and an endless program for each language of the table', () => {
    expect(Object.keys(PROGRAMS).sort()).toEqual([...fixture.languages.languages.keys()].sort());
  });

  const ids = hasBwrap ? Object.keys(PROGRAMS) : [];
  for (const id of ids) {
    it(`${id}`, async (ctx) => {
      const lang = fixture.languages.get(id);
      expect(lang, `${id} is in the table`).toBeDefined();
      if (!lang!.present) {
        console.log(`skipped ${id}: not installed (${lang!.requires.join(', ')}); judge-runner languages install ${id}`);
        ctx.skip();
      }
      const problem = await problemOf(copyPackage());
      const submit = (text: string) => judge(problem, { files: { 'submission.txt': text }, props: { language: id } });
      const verdicts = {
        ac: await submit(lang!.selfTest!),
        wa: await submit(PROGRAMS[id]!.wa),
        tle: await submit(PROGRAMS[id]!.tle),
        ce: await submit(PROGRAMS[id]!.ce ?? NOT_A_PROGRAM),
      };
      const got = Object.fromEntries(Object.entries(verdicts).map(([k, r]) => [k, r.verdict]));
      const logs = Object.entries(verdicts).map(([k, r]) => `${k}: ${r.verdict} ${r.log.slice(0, 400)}`).join('\n');
      expect(got, logs).toEqual({ ac: 'AC', wa: 'WA', tle: 'TLE', ce: 'CE' });
      expect(verdicts.ce.log.trim(), 'a compile error says why').not.toBe('');
    }, 120_000);
  }
});
