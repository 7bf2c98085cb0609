import { describe, expect, it } from 'vitest';
import { DEFAULT_MAXIMA, PackageError, effectiveLimits, iniTimeLimit, inspectPackageZip, packageTimeLimit, parseDomjudgeIni, readMaxima } from '@judge/problem-package';
import { zipOf } from '../../runner/test/zips.js';

/**
 * Where a package's time limit comes from (problem.yaml, DOMjudge's domjudge-problem.ini, the legacy
 * .timelimit file) and the effective limits: assignment over package over defaults, capped by the
 * instance's maxima. Server, runner and judgectl all work them out here.
 */

const DATA = { 'data/sample/1.in': '1\n', 'data/sample/1.ans': '1\n' };

describe('domjudge-problem.ini', () => {
  it('reads key = value lines as PHP does: quotes, comments, sections and odd lines', () => {
    const ini = [
      '; DOMjudge problem settings',
      '[problem]',
      'name = "Hello, world ; not a comment"',
      "color='#ff0000'",
      'timelimit = 2.5 ; seconds',
      'not a setting',
      'allow_submit=1',
    ].join('\r\n');
    expect(parseDomjudgeIni(ini)).toEqual({ name: 'Hello, world ; not a comment', color: '#ff0000', timelimit: '2.5', allow_submit: '1' });
    expect(iniTimeLimit(ini)).toBe(2.5);
    expect(iniTimeLimit('name = x\n')).toBeUndefined();
    expect(iniTimeLimit('timelimit = "3"\n')).toBe(3);
    expect(() => iniTimeLimit('timelimit = soon\n')).toThrow(PackageError);
    expect(() => iniTimeLimit('timelimit = 0\n')).toThrow(/timelimit in domjudge-problem.ini must be a positive number of seconds/);
  });
});

describe('the time limit of a package', () => {
  it('is problem.yaml\'s, else domjudge-problem.ini\'s, else .timelimit\'s (DOMjudge\'s precedence); a disagreeing one is a warning', () => {
    const warnings: string[] = [];
    expect(packageTimeLimit({ manifest: 4, ini: 'timelimit=3', timelimit: '5\n' }, warnings)).toEqual({ seconds: 4, source: 'problem.yaml' });
    expect(warnings).toEqual(['domjudge-problem.ini says 3 s, problem.yaml 4 s: problem.yaml counts', '.timelimit says 5 s, problem.yaml 4 s: problem.yaml counts']);
    expect(packageTimeLimit({ ini: 'timelimit=3', timelimit: '5\n' })).toEqual({ seconds: 3, source: 'domjudge-problem.ini' });
    expect(packageTimeLimit({ ini: 'name=x', timelimit: '.5\n' })).toEqual({ seconds: 0.5, source: '.timelimit' });
    const agree: string[] = [];
    expect(packageTimeLimit({ manifest: 2, timelimit: '2.0' }, agree)).toEqual({ seconds: 2, source: 'problem.yaml' });
    expect(agree).toEqual([]);
    expect(packageTimeLimit({})).toBeUndefined();
    expect(() => packageTimeLimit({ manifest: 2, timelimit: 'soon' })).toThrow(/the \.timelimit file must be a positive number of seconds/);
  });

  it('is in the summary the server keeps of an uploaded package, from any of the three files', async () => {
    expect((await inspectPackageZip(await zipOf({ 'problem.yaml': 'name: A\n', 'domjudge-problem.ini': 'timelimit = 3\n', ...DATA }))).timeLimitSeconds).toBe(3);
    expect((await inspectPackageZip(await zipOf({ 'problem.yaml': 'name: A\n', '.timelimit': '7', 'domjudge-problem.ini': 'name=A', ...DATA }))).timeLimitSeconds).toBe(7);
    const all = await inspectPackageZip(
      await zipOf({ 'problem.yaml': 'name: A\nlimits:\n  time_limit: 4\n  memory: 64\n  output: 2\n', 'domjudge-problem.ini': 'timelimit = 3\n', '.timelimit': '5', ...DATA }),
    );
    expect(all).toMatchObject({ timeLimitSeconds: 4, memoryMiB: 64, outputMiB: 2 });
    expect(await inspectPackageZip(await zipOf({ 'problem.yaml': 'name: A\n', ...DATA }))).not.toHaveProperty('outputMiB');
  });
});

describe('effective limits', () => {
  it('take the assignment over the package over the defaults', () => {
    const pkg = { timeLimitSeconds: 1.5, timeLimitSource: '.timelimit', memoryMiB: 512 };
    expect(effectiveLimits(pkg, null)).toEqual({
      time: { value: 1.5, source: '.timelimit' },
      memory: { value: 512, source: 'problem.yaml' },
      output: { value: 8, source: 'default' },
    });
    expect(effectiveLimits(pkg, { timeLimitSeconds: 3, outputMiB: 16, memoryMiB: 'lots' })).toEqual({
      time: { value: 3, source: 'assignment' },
      memory: { value: 512, source: 'problem.yaml' },
      output: { value: 16, source: 'assignment' },
    });
    expect(effectiveLimits({}, null, { defaults: { timeLimitSeconds: 10 } }).time).toEqual({ value: 10, source: 'default' });
  });

  it('are capped by the maxima, saying what was asked: 100,000 s and 1,000,000 MiB are judged as the maxima', () => {
    const huge = { timeLimitSeconds: 100_000, memoryMiB: 1_000_000, outputMiB: 100_000 };
    expect(DEFAULT_MAXIMA).toEqual({ timeLimitSeconds: 60, memoryMiB: 2048, outputMiB: 64 });
    expect(effectiveLimits(huge, null)).toEqual({
      time: { value: 60, source: 'problem.yaml', asked: 100_000 },
      memory: { value: 2048, source: 'problem.yaml', asked: 1_000_000 },
      output: { value: 64, source: 'problem.yaml', asked: 100_000 },
    });
    // the assignment cannot lift them either
    expect(effectiveLimits({}, { timeLimitSeconds: 500 }, { maxima: { timeLimitSeconds: 30 } }).time).toEqual({ value: 30, source: 'assignment', asked: 500 });
  });

  it('read maxima leniently: a missing or bad figure is the default one', () => {
    expect(readMaxima(undefined)).toEqual(DEFAULT_MAXIMA);
    expect(readMaxima({ timeLimitSeconds: 10, memoryMiB: -1, outputMiB: 'x' })).toEqual({ ...DEFAULT_MAXIMA, timeLimitSeconds: 10 });
  });
});
