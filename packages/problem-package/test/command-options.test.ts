import { Command, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { httpOrigin, httpUrl, optionParser, wholeNumber } from '@judge/problem-package';

/**
 * The option parsers `judge` and `judge-runner` share: a value is taken as the command means it or
 * refused with commander's InvalidArgumentError (which commander reports as a bad option).
 */

/** What the parser answers, or the message it refuses with. */
const outcome = <T>(parse: (v: string) => T, v: string): T | string => {
  try {
    return parse(v);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    return `refused: ${(e as Error).message}`;
  }
};

describe('command option parsers', () => {
  it('wholeNumber takes digits within its bounds and names the bounds when it refuses', () => {
    const uid = wholeNumber(1000, 65000, 'a uid');
    expect(outcome(uid, '1000')).toBe(1000);
    expect(outcome(uid, '65000')).toBe(65000);
    expect(outcome(uid, ' 62000 ')).toBe(62000);
    for (const bad of ['999', '65001', '-1000', '1e4', '0x1000', '1000.5', '', 'abc']) expect(outcome(uid, bad), bad).toBe('refused: a uid from 1000 to 65000');
  });

  it('httpUrl keeps the URL as given, httpOrigin keeps its origin; both refuse other schemes and non-URLs', () => {
    expect(outcome(httpUrl, 'https://judge.example.org/course/')).toBe('https://judge.example.org/course/');
    expect(outcome(httpOrigin, 'https://judge.example.org:8443/course/?x=1')).toBe('https://judge.example.org:8443');
    expect(outcome(httpOrigin, 'http://judge.lab:8080')).toBe('http://judge.lab:8080');
    for (const parse of [httpUrl, httpOrigin]) {
      for (const bad of ['ftp://judge.lab', 'judge.lab:8080', '', 'file:///etc/passwd']) expect(outcome(parse, bad), bad).toBe(`refused: not an http(s) URL: ${bad}`);
    }
  });

  it('optionParser passes the value through and turns a plain refusal into an option refusal', () => {
    const even = optionParser((v: string) => {
      if (Number(v) % 2) throw new Error('an even number');
      return Number(v);
    });
    expect(outcome(even, '4')).toBe(4);
    expect(outcome(even, '3')).toBe('refused: an even number');
  });

  it('commander reports a refused value as a bad option, naming it, and runs nothing', () => {
    let ran = false;
    const program = new Command('t')
      .exitOverride()
      .configureOutput({ writeErr: () => {} })
      .option('--port <port>', 'a port', wholeNumber(1, 65535, 'a port'))
      .action(() => {
        ran = true;
      });
    expect(() => program.parse(['--port', '0'], { from: 'user' })).toThrow("option '--port <port>' argument '0' is invalid. a port from 1 to 65535");
    expect(ran).toBe(false);
  });
});
