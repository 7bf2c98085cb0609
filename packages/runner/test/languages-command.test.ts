/** `judge-runner languages [install]`: the built command line, against the real table. */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadLanguages } from '@judge/runner';
import { installLanguages } from '../src/languages-command.js';

const RUNNER = fileURLToPath(new URL('../../../bin/judge-runner', import.meta.url));
const table = loadLanguages();

const run = (args: string[], prefix: string[] = []) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const argv = [...prefix, RUNNER, ...args];
    execFile(argv[0]!, argv.slice(1), { encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

interface Status {
  id: string;
  name: string;
  installed: boolean;
  debianPackages: string[];
  missing: string[];
}

describe('judge-runner languages', () => {
  it('lists every language of the table, installed or not, with its Debian packages', async () => {
    const r = await run(['languages', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const status = JSON.parse(r.stdout) as Status[];
    expect(status.map((s) => s.id)).toEqual([...table.languages.keys()]);
    expect(status.length).toBeGreaterThanOrEqual(20);
    for (const s of status) {
      const l = table.get(s.id)!;
      expect(s.installed, s.id).toBe(l.present);
      expect(s.missing, s.id).toEqual(l.requires.filter((f) => !fs.existsSync(f)));
      expect(s.debianPackages.length, `${s.id} names its Debian packages`).toBeGreaterThan(0);
    }
    const text = await run(['languages']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^c\s+(yes|no)\s+C \(gcc, gnu17\)\s+\[gcc libc6-dev\]$/m);
    expect(text.stdout).toContain(`${status.filter((s) => s.installed).length} of ${status.length} installed`);
  });

  it('refuses an unknown language, a call without languages, and both ids and --all', async () => {
    const unknown = await run(['languages', 'install', 'cobol', 'c']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown language cobol; the table has c, cpp');
    const none = await run(['languages', 'install']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('name the languages to install, or --all');
    const both = await run(['languages', 'install', 'c', '--all']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('either language ids or --all');
  });

  it('refuses to install as another user than root, saying what to run', () => {
    expect(() => installLanguages(['haskell', 'ocaml'], { uid: 65534 })).toThrow(
      /installing languages needs root .*apt-get install -y --no-install-recommends ghc ocaml-nox gcc libc6-dev/,
    );
  });

  // the launcher as another user: only where that user can read this checkout (a clone in a
  // private temporary directory is not)
  const nobodyReads =
    process.getuid?.() === 0 && fs.existsSync('/usr/bin/setpriv') && spawnSync('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', RUNNER]).status === 0;
  it.skipIf(!nobodyReads)('the command line says so and exits 1 when run by another user than root', async () => {
    const r = await run(['languages', 'install', 'haskell', 'ocaml'], ['/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('installing languages needs root');
    expect(r.stderr).toContain('apt-get install -y --no-install-recommends ghc ocaml-nox gcc libc6-dev');
  });
});
