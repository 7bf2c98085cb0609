import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareOutput, parseDefaultValidatorFlags } from '../src/problem/default-validator.js';

const b = (s: string) => Buffer.from(s, 'latin1');
const check = (answer: string, output: string, flags: string[] = []) => compareOutput(b(answer), b(output), parseDefaultValidatorFlags(flags));

describe('default validator: tokens and whitespace', () => {
  it('accepts identical output and any whitespace change by default', async () => {
    expect((await check('1 2\n3\n', '1 2\n3\n')).accepted).toBe(true);
    expect((await check('1 2\n3\n', '  1\t\t2 3')).accepted).toBe(true);
    expect((await check('1 2\n3\n', '1\r\n2\r\n3\r\n\n\n')).accepted).toBe(true);
    expect((await check('', '\n \n')).accepted).toBe(true);
  });

  it('space_change_sensitive demands the same whitespace byte for byte, leading and trailing included', async () => {
    const flags = ['space_change_sensitive'];
    expect((await check('1 2\n3\n', '1 2\n3\n', flags)).accepted).toBe(true);
    const doubled = await check('1 2\n3\n', '1  2\n3\n', flags);
    expect(doubled.accepted).toBe(false);
    expect(doubled.message).toContain('whitespace differs before token 2');
    expect((await check('1 2\n3\n', '1 2\n3', flags)).accepted).toBe(false); // the final newline is missing
    expect((await check('1 2\n3\n', '1 2\n3\n\n', flags)).accepted).toBe(false); // one newline too many
    expect((await check('1 2\n3\n', ' 1 2\n3\n', flags)).accepted).toBe(false); // leading space
    expect((await check('1 2\n', '1\t2\n', flags)).accepted).toBe(false); // tab for space
    expect((await check('1 2\n', '1\t2\n')).accepted).toBe(true);
  });

  it('ignores ASCII case unless case_sensitive', async () => {
    expect((await check('Yes\n', 'YES\n')).accepted).toBe(true);
    expect((await check('Yes\n', 'yes\n')).accepted).toBe(true);
    const strict = await check('Yes\n', 'yes\n', ['case_sensitive']);
    expect(strict.accepted).toBe(false);
    expect(strict.message).toContain('expected "Yes", got "yes"');
    // only ASCII letters fold: Latin-1 É (0xC9) and é (0xE9) differ
    expect((await check('\xc9\n', '\xe9\n')).accepted).toBe(false);
  });

  it('names the first differing token and its lines', async () => {
    const out = await check('1\n2\n3\n', '1\n\n2\n4\n');
    expect(out.accepted).toBe(false);
    expect(out.message).toBe('Wrong answer on line 4 of the output (line 3 of the answer): token 3: expected "3", got "4"');
  });

  it('rejects missing, empty and trailing output with a message that says so', async () => {
    expect((await check('1 2\n', '1\n')).message).toContain('the output ends early; expected token 2: "2"');
    expect((await check('1\n', '')).message).toContain('the output is empty');
    expect((await check('1\n', ' \n')).message).toContain('the output holds only whitespace');
    const trailing = await check('1\n', '1\n2\n');
    expect(trailing.accepted).toBe(false);
    expect(trailing.message).toContain('trailing output after the last expected token: "2"');
  });

  it('clips very long tokens in the message', async () => {
    const out = await check('a\n', `${'x'.repeat(1000)}\n`);
    expect(out.accepted).toBe(false);
    expect(out.message.length).toBeLessThan(200);
    expect(out.message).toContain('...');
  });
});

describe('default validator: floats', () => {
  it('without a tolerance, numbers are plain tokens', async () => {
    expect((await check('1.0\n', '1\n')).accepted).toBe(false);
    expect((await check('1.0\n', '1.0\n')).accepted).toBe(true);
  });

  it('float_absolute_tolerance accepts |s − a| ≤ ε', async () => {
    expect((await check('1.0\n', '1.0004\n', ['float_absolute_tolerance', '1e-3'])).accepted).toBe(true);
    expect((await check('1.0\n', '0.9996\n', ['float_absolute_tolerance', '1e-3'])).accepted).toBe(true);
    const wa = await check('1.0\n', '1.0004\n', ['float_absolute_tolerance', '1e-4']);
    expect(wa.accepted).toBe(false);
    expect(wa.message).toContain('exceeds the tolerance (absolute 0.0001)');
    // large values: absolute only, relative would have allowed it
    expect((await check('1000000\n', '1000000.5\n', ['float_absolute_tolerance', '1e-3'])).accepted).toBe(false);
  });

  it('float_relative_tolerance accepts |s − a| ≤ ε|a|', async () => {
    expect((await check('1000\n', '1000.5\n', ['float_relative_tolerance', '1e-3'])).accepted).toBe(true); // 0.5 ≤ 1
    expect((await check('1000\n', '1000.5\n', ['float_relative_tolerance', '1e-4'])).accepted).toBe(false); // 0.5 > 0.1
    // an answer of 0 leaves no room for a relative tolerance
    expect((await check('0\n', '0.000001\n', ['float_relative_tolerance', '0.5'])).accepted).toBe(false);
  });

  it('with both tolerances either one suffices; float_tolerance sets both', async () => {
    const both = ['float_absolute_tolerance', '1e-6', 'float_relative_tolerance', '1e-3'];
    expect((await check('1000\n', '1000.5\n', both)).accepted).toBe(true); // relative
    expect((await check('0\n', '0.0000005\n', both)).accepted).toBe(true); // absolute
    expect((await check('0\n', '0.00001\n', both)).accepted).toBe(false); // neither
    expect((await check('1000\n', '1000.5\n', ['float_tolerance', '1e-3'])).accepted).toBe(true); // relative half
    expect((await check('0\n', '0.0005\n', ['float_tolerance', '1e-3'])).accepted).toBe(true); // absolute half
    expect((await check('10\n', '10.5\n', ['float_tolerance', '1e-3'])).accepted).toBe(false); // 0.5 > 0.01 and > 0.001
  });

  it('accepts any float formatting and parses integers as floats once a tolerance is set', async () => {
    const tol = ['float_tolerance', '1e-9'];
    expect((await check('0.0314\n', '3.14000000e-2\n', tol)).accepted).toBe(true);
    expect((await check('3\n', '3.000\n', tol)).accepted).toBe(true);
    expect((await check('-0.5\n', '-.5\n', tol)).accepted).toBe(true);
    expect((await check('2\n', '+2.\n', tol)).accepted).toBe(true);
    const notFloat = await check('1.5\n', 'abc\n', tol);
    expect(notFloat.accepted).toBe(false);
    expect(notFloat.message).toContain('expected a number near "1.5", got "abc"');
    expect((await check('1.5\n', '0x1p0\n', tol)).accepted).toBe(false); // hex is not in the grammar
    expect((await check('1.5\n', 'nan\n', tol)).accepted).toBe(false);
    // answer tokens that are not floats still compare as strings
    expect((await check('Case #1: 2.5\n', 'case #1: 2.5000001\n', ['float_absolute_tolerance', '1e-6'])).accepted).toBe(true);
  });
});

describe('default validator: flags', () => {
  it('reads every flag and refuses unknown ones and bad tolerances', () => {
    expect(parseDefaultValidatorFlags(['case_sensitive', 'space_change_sensitive', 'float_tolerance', '1e-6'])).toEqual({
      caseSensitive: true,
      spaceChangeSensitive: true,
      floatAbsoluteTolerance: 1e-6,
      floatRelativeTolerance: 1e-6,
    });
    expect(() => parseDefaultValidatorFlags(['ignore_case'])).toThrow('does not know the flag "ignore_case"');
    expect(() => parseDefaultValidatorFlags(['float_tolerance'])).toThrow('float_tolerance needs a non-negative number');
    expect(() => parseDefaultValidatorFlags(['float_tolerance', 'x'])).toThrow('not "x"');
    expect(() => parseDefaultValidatorFlags(['float_absolute_tolerance', '-1'])).toThrow('non-negative');
  });
});

describe('default validator: files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'default-validator-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('streams large files across chunk boundaries, long tokens included', async () => {
    const n = 300_000;
    const lines = Array.from({ length: n }, (_, i) => `${i} ${(i * 0.5).toFixed(3)}`);
    const answer = join(dir, 'big.ans');
    const good = join(dir, 'good.out');
    const bad = join(dir, 'bad.out');
    await writeFile(answer, `${lines.join('\n')}\n`);
    await writeFile(good, `${lines.join('  \n')}\n`);
    lines[n - 1] = `${n - 1} 7`;
    await writeFile(bad, `${lines.join('\n')}\n`);
    expect((await compareOutput(answer, good, parseDefaultValidatorFlags([]))).accepted).toBe(true);
    const wa = await compareOutput(answer, bad, parseDefaultValidatorFlags([]));
    expect(wa.accepted).toBe(false);
    expect(wa.message).toContain(`line ${n} of the output (line ${n} of the answer)`);

    const token = 'ab'.repeat(150_000); // 300 KB: several 64 KiB chunks
    await writeFile(join(dir, 'long.ans'), `x ${token}\n`);
    await writeFile(join(dir, 'long.out'), `x ${token.toUpperCase()}`);
    expect((await compareOutput(join(dir, 'long.ans'), join(dir, 'long.out'), parseDefaultValidatorFlags([]))).accepted).toBe(true);
    expect((await compareOutput(join(dir, 'long.ans'), join(dir, 'long.out'), parseDefaultValidatorFlags(['case_sensitive']))).accepted).toBe(false);
  });
});
