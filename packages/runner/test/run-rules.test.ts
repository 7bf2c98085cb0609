import { describe as suite, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { hasBwrap, judgeFixture } from './judging.js';

/**
 * The run rules of the reference judges (problemtools, DOMjudge's judgehost), judged end to end in
 * the real sandbox: stderr is not output, and compiling has limits of its own, apart from the
 * program's.
 */

const describe = suite.skipIf(!hasBwrap);
const { problemOf, judge } = judgeFixture();

const echoPackage = (limits: string) => ({
  'problem.yaml': `name: Echo\nlimits:\n${limits}`,
  'data/sample/1.in': '7\n',
  'data/sample/1.ans': '7\n',
  'data/secret/1.in': '42\n',
  'data/secret/1.ans': '42\n',
});

// 100 MiB of stderr in 1 MiB writes, then the right answer
const STDERR_FLOOD_C = `#include <stdio.h>
#include <string.h>
#include <unistd.h>
static char buf[1 << 20];
int main(void) {
  long x;
  if (scanf("%ld", &x) != 1) return 1;
  memset(buf, 'e', sizeof buf);
  memcpy(buf, "first line of stderr\\n", 21);
  for (int i = 0; i < 100; i++) {
    size_t done = 0;
    while (done < sizeof buf) {
      ssize_t n = write(2, buf + done, sizeof buf - done);
      if (n <= 0) return 2;
      done += (size_t)n;
    }
  }
  printf("%ld\\n", x);
  return 0;
}
`;

// 512 MiB of static storage, every page of it touched
const BIG_ARRAY_CPP = `#include <cstdio>
#include <cstring>
static char a[512 << 20];
int main() {
  long x;
  if (std::scanf("%ld", &x) != 1) return 1;
  std::memset(a, 1, sizeof a);
  long s = 0;
  for (size_t i = 0; i < sizeof a; i += 4096) s += a[i];
  std::printf("%ld\\n", x + s - (long)(sizeof a / 4096));
  return 0;
}
`;

// 512 MiB of initialised data: the object file and the program are that large
const BIG_DATA_CPP = `#include <cstdio>
static char a[512 << 20] = {1};
int main() {
  long x;
  if (std::scanf("%ld", &x) != 1) return 1;
  std::printf("%ld\\n", x + a[(x * 4099) % sizeof a] - (x * 4099 % sizeof a == 0));
  return 0;
}
`;

/**
 * Compile-time work well past any CPU limit: g++ stops one constant evaluation at 33,554,432
 * operations (about as long as the 3 s limit below on a fast machine), so the work is spread over
 * forty evaluations of about 6 million each, none of which g++ stops itself.
 */
const CONSTEXPR_BOMB_CPP = `constexpr unsigned long spin(unsigned long k) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < 2000000; i++) s += i ^ k;
  return s;
}
${Array.from({ length: 40 }, (_, k) => `constexpr unsigned long v${k} = spin(${k});`).join('\n')}
int main() { return (int)((v0 ^ v39) & 1); }
`;

describe('stderr is not output', () => {
  it('a program that writes 100 MiB to stderr and the right answer is AC, quickly; the log shows the start of its stderr', async () => {
    const problem = await problemOf(echoPackage('  memory: 256\n  output: 1\n  time_limit: 5\n'));
    const t0 = Date.now();
    const r = await judge(problem, { files: { 'flood.c': STDERR_FLOOD_C } });
    const ms = Date.now() - t0;
    expect(r.verdict, r.log).toBe('AC');
    expect(r.details.tests.map((t) => t.verdict)).toEqual(['AC', 'AC']);
    expect(r.log).toMatch(/sample\/1: AC.*stderr \(104857600 bytes\)/s);
    expect(r.log).toContain('first line of stderr');
    // what the log shows of stderr is its first KiB, not 100 MiB
    expect(r.log.length).toBeLessThan(16 * 1024);
    console.log(`judged a 100 MiB stderr flood (2 tests, compile included) in ${ms} ms`);
    expect(ms).toBeLessThan(20_000);
  });
});

describe('compiling has limits of its own', () => {
  it('a 512 MiB static array compiles; it runs within 1 GiB (AC) and is MLE under 256 MiB', async () => {
    const roomy = await judge(await problemOf(echoPackage('  memory: 1024\n  time_limit: 5\n')), { files: { 'big.cpp': BIG_ARRAY_CPP } });
    expect(roomy.verdict, roomy.log).toBe('AC');
    const tight = await judge(await problemOf(echoPackage('  memory: 256\n  time_limit: 5\n')), { files: { 'big.cpp': BIG_ARRAY_CPP } });
    expect(tight.verdict, tight.log).toBe('MLE');
  });

  it('an initialised 512 MiB array (an object file and a program of 512 MiB) compiles and runs under a 256 MiB limit', async () => {
    const r = await judge(await problemOf(echoPackage('  memory: 256\n  time_limit: 5\n')), { files: { 'data.cpp': BIG_DATA_CPP } });
    expect(r.verdict, r.log).toBe('AC');
  }, 60_000);

  it('a compiler bomb ends in CE saying which limit stopped it, not in a hung runner', async () => {
    // the package's compilation limits keep the test short; the table's defaults bound it the same way
    const problem = await problemOf(echoPackage('  compilation_time: 3\n  compilation_memory: 256\n'));
    const t0 = Date.now();
    const zero = await judge(problem, { files: { 'zero.cpp': '#include "/dev/zero"\nint main() {}\n' } });
    expect(zero.verdict, zero.log).toBe('CE');
    expect(zero.log).toMatch(/compilation (ran out of memory \(256 MiB\)|used more than 3000 ms of CPU time)/);
    const slow = await judge(problem, { files: { 'slow.cpp': CONSTEXPR_BOMB_CPP } });
    expect(slow.verdict, slow.log).toBe('CE');
    // CPU time stops it, or on a loaded machine the wall clock (twice the CPU limit) first
    expect(slow.log).toMatch(/compilation (used more than 3000 ms of CPU time|took longer than 6000 ms)/);
    expect(Date.now() - t0).toBeLessThan(30_000);
  }, 60_000);
});

const ECHO_JAVA = (pkg: string, cls: string, extra = '') => `${pkg ? `package ${pkg};\n\n` : ''}import java.util.Scanner;

public class ${cls} {
  public static void main(String[] args) {
    Scanner in = new Scanner(System.in);
    System.out.println(Helper.same(in.nextLong()));
  }
}

class Helper {
  static long same(long x) { return x; }
}
${extra}`;

describe('Java and Kotlin: the main class is found as DOMjudge finds it', () => {
  it('a Java source with a package declaration runs as package.Class', async () => {
    const problem = await problemOf(echoPackage('  time_limit: 5\n'));
    const r = await judge(problem, { files: { 'Main.java': ECHO_JAVA('se.kattis.echo', 'Main') } });
    expect(r.verdict, r.log).toBe('AC');
    expect(r.log).toContain("Info: using 'main' from 'se.kattis.echo.Main'");
    const named = await judge(problem, { files: { 'echo.java': ECHO_JAVA('contest', 'Solution') } });
    expect(named.verdict, named.log).toBe('AC');
    expect(named.log).toContain("using 'main' from 'contest.Solution'");
  });

  it('of several classes with main, the public class of the source wins; the others are named; none at all is CE', async () => {
    const problem = await problemOf(echoPackage('  time_limit: 5\n'));
    const other = 'class Other {\n  public static void main(String[] args) { System.out.println("wrong"); }\n}\n';
    const r = await judge(problem, { files: { 'Main.java': ECHO_JAVA('p', 'Main', other) } });
    expect(r.verdict, r.log).toBe('AC');
    expect(r.log).toContain("Warning: found another 'main' in 'p.Other'");
    const none = await judge(problem, { files: { 'Main.java': 'public class Main {\n  static void helper() {}\n}\n' } });
    expect(none.verdict).toBe('CE');
    expect(none.log).toContain("no class has a 'public static void main(String[])'");
  });
});

const kotlin = loadKotlin();
/** The Kotlin tests need Debian's kotlin package; without it they are skipped, saying so. */
function loadKotlin(): boolean {
  const needs = ['/usr/bin/kotlinc', '/usr/share/java/kotlin-stdlib.jar'];
  const missing = needs.filter((f) => !existsSync(f));
  if (missing.length) console.log(`Kotlin tests skipped: ${missing.join(', ')} not installed (apt-get install kotlin)`);
  return missing.length === 0;
}

suite.skipIf(!hasBwrap || !kotlin)('Kotlin: the main class is found with its package', () => {
  it('a file with a package and a top-level main runs as package.MainKt; an object with @JvmStatic main runs too', async () => {
    const problem = await problemOf(echoPackage('  time_limit: 5\n'));
    const top = await judge(problem, { files: { 'echo.kt': 'package contest.echo\n\nfun main() {\n  println(readLine()!!.trim().toLong())\n}\n' } });
    expect(top.verdict, top.log).toBe('AC');
    expect(top.log).toContain("Info: using 'main' from 'contest.echo.MainKt'");
    const obj = 'package p\n\nobject Solution {\n  @JvmStatic fun main(args: Array<String>) {\n    println(readLine()!!.trim())\n  }\n}\n';
    const inObject = await judge(problem, { files: { 'Solution.kt': obj } });
    expect(inObject.verdict, inObject.log).toBe('AC');
    expect(inObject.log).toContain("using 'main' from 'p.Solution'");
  }, 60_000);
});
