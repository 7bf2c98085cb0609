import { open, type FileHandle } from 'node:fs/promises';

/**
 * The ICPC problem package format's default output validator, in process (it runs only our own
 * code, so it needs no sandbox). Both files are read as bytes in chunks, so memory stays bounded
 * by the longest token and the time by the input size.
 *
 * Semantics follow the format (legacy and 2023-07/2025-09 alike): the files are split into tokens
 * at runs of the six ASCII whitespace bytes; tokens are compared ignoring ASCII case unless
 * `case_sensitive`; whitespace is ignored unless `space_change_sensitive`, which then demands the
 * same whitespace byte for byte (leading and trailing included); with a float tolerance, every
 * answer token that parses as a decimal float makes the output token a float too, accepted when
 * within the absolute or (|answer| times) the relative tolerance.
 */

export interface DefaultValidatorOptions {
  caseSensitive: boolean;
  spaceChangeSensitive: boolean;
  /** Set by `float_absolute_tolerance ε` or `float_tolerance ε`. */
  floatAbsoluteTolerance?: number;
  /** Set by `float_relative_tolerance ε` or `float_tolerance ε`. */
  floatRelativeTolerance?: number;
}

export interface ValidationOutcome {
  accepted: boolean;
  /** Empty when accepted; otherwise the first difference, with its line numbers. */
  message: string;
}

/** A file path, or the bytes themselves. */
export type ByteSource = string | Uint8Array;

/** The format's float grammar (2025-09 general requirements): decimal, optional exponent. */
const FLOAT = /^[+-]?(?:\d*\.\d+|\d+\.?)(?:[eE][+-]?\d+)?$/;

/**
 * Reads the validator's arguments (`validator_flags`, `output_validator_flags`,
 * `output_validator_args`). Throws an Error naming the fault for an unknown flag or a tolerance that
 * is missing or not a non-negative number.
 */
export function parseDefaultValidatorFlags(args: readonly string[]): DefaultValidatorOptions {
  const options: DefaultValidatorOptions = { caseSensitive: false, spaceChangeSensitive: false };
  const tolerance = (flag: string, value: string | undefined): number => {
    const v = value !== undefined && FLOAT.test(value) ? Number(value) : NaN;
    if (!Number.isFinite(v) || v < 0) {
      throw new Error(`the default validator's ${flag} needs a non-negative number${value === undefined ? '' : `, not "${value}"`}`);
    }
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    switch (flag) {
      case 'case_sensitive':
        options.caseSensitive = true;
        break;
      case 'space_change_sensitive':
        options.spaceChangeSensitive = true;
        break;
      case 'float_absolute_tolerance':
        options.floatAbsoluteTolerance = tolerance(flag, args[++i]);
        break;
      case 'float_relative_tolerance':
        options.floatRelativeTolerance = tolerance(flag, args[++i]);
        break;
      case 'float_tolerance': {
        const v = tolerance(flag, args[++i]);
        options.floatAbsoluteTolerance = v;
        options.floatRelativeTolerance = v;
        break;
      }
      default:
        throw new Error(`the default validator does not know the flag "${flag}"`);
    }
  }
  return options;
}

const CHUNK = 64 * 1024;

/** Space, \t, \n, \v, \f, \r: the format's whitespace (C isspace in the "C" locale). */
const isSpace = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d);

/** Bytes in chunks from a file or a buffer; the current chunk is read synchronously. */
class ByteReader {
  buf: Uint8Array = new Uint8Array(0);
  pos = 0;
  /** Bytes consumed before the current chunk. */
  private base = 0;
  /** Line number (1-based) of the next byte. */
  line = 1;
  private done = false;

  private constructor(
    private readonly file: FileHandle | null,
    bytes: Uint8Array | null,
  ) {
    if (bytes) {
      this.buf = bytes;
      this.done = true;
    }
  }

  static async of(source: ByteSource): Promise<ByteReader> {
    if (typeof source !== 'string') return new ByteReader(null, source);
    return new ByteReader(await open(source, 'r'), null);
  }

  /** Makes `pos < buf.length` true unless the input is exhausted; answers whether a byte is available. */
  async more(): Promise<boolean> {
    if (this.pos < this.buf.length) return true;
    if (this.done || !this.file) return false;
    this.base += this.buf.length;
    const chunk = new Uint8Array(CHUNK);
    const { bytesRead } = await this.file.read(chunk, 0, CHUNK, null);
    if (bytesRead === 0) {
      this.done = true;
      this.buf = new Uint8Array(0);
      this.pos = 0;
      return false;
    }
    this.buf = chunk.subarray(0, bytesRead);
    this.pos = 0;
    return true;
  }

  /** Bytes consumed so far. */
  get offset(): number {
    return this.base + this.pos;
  }

  /**
   * Skips whitespace within the current chunk, counting lines; answers whether it stopped at a
   * token's byte. The common case, so that a large file costs no promise per token: only a run that
   * reaches the chunk's end goes on to `whitespace`, which reads the next chunk.
   */
  skipSpaceInChunk(): boolean {
    const { buf } = this;
    let i = this.pos;
    while (i < buf.length && isSpace(buf[i]!)) {
      if (buf[i] === 0x0a) this.line++;
      i++;
    }
    this.pos = i;
    return i < buf.length;
  }

  /** The next token when it ends inside the current chunk, else undefined with nothing consumed (then `token` reads on). */
  tokenInChunk(): Uint8Array | undefined {
    const { buf } = this;
    let i = this.pos;
    while (i < buf.length && !isSpace(buf[i]!)) i++;
    if (i === buf.length) return undefined;
    const token = buf.subarray(this.pos, i);
    this.pos = i;
    return token;
  }

  /**
   * Skips a run of whitespace. In `keep` mode the run's bytes are returned (for
   * space_change_sensitive); otherwise only lines are counted.
   */
  async whitespace(keep: boolean): Promise<Uint8Array | null> {
    const kept: Uint8Array[] = [];
    for (;;) {
      const start = this.pos;
      const { buf } = this;
      let i = start;
      while (i < buf.length && isSpace(buf[i]!)) {
        if (buf[i] === 0x0a) this.line++;
        i++;
      }
      if (keep && i > start) kept.push(buf.slice(start, i));
      this.pos = i;
      if (i < buf.length || !(await this.more())) break;
    }
    return keep ? concat(kept) : null;
  }

  /** The next token (empty at the end of the input); call after `whitespace`. */
  async token(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for (;;) {
      const start = this.pos;
      const { buf } = this;
      let i = start;
      while (i < buf.length && !isSpace(buf[i]!)) i++;
      if (i > start) parts.push(buf.subarray(start, i));
      this.pos = i;
      // a chunk boundary may split a token: keep the bytes (subarray views stay valid, chunks are fresh)
      if (i < buf.length || !(await this.more())) break;
    }
    return concat(parts);
  }

  async close(): Promise<void> {
    await this.file?.close();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const lower = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

function sameBytes(a: Uint8Array, b: Uint8Array, caseSensitive: boolean): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && (caseSensitive || lower(a[i]!) !== lower(b[i]!))) return false;
  }
  return true;
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** A token for a message: printable, at most 60 characters. */
function show(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 240)).toString('utf8');
  const clipped = text.length > 60 || bytes.byteLength > 240 ? `${text.slice(0, 57)}...` : text;
  return JSON.stringify(clipped);
}

function showSpace(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'no whitespace';
  const names: Record<number, string> = { 0x20: 'space', 0x09: '\\t', 0x0a: '\\n', 0x0b: '\\v', 0x0c: '\\f', 0x0d: '\\r' };
  const shown = Array.from(bytes.subarray(0, 8), (b) => names[b] ?? String(b)).join(' ');
  return `"${shown}${bytes.length > 8 ? ' ...' : ''}" (${bytes.length} byte${bytes.length === 1 ? '' : 's'})`;
}

/**
 * Compares a team's output with the answer file under the given options. Reads both inputs to
 * the first difference at most.
 */
export async function compareOutput(answer: ByteSource, output: ByteSource, options: DefaultValidatorOptions): Promise<ValidationOutcome> {
  const judge = await ByteReader.of(answer);
  let team: ByteReader;
  try {
    team = await ByteReader.of(output);
  } catch (e) {
    await judge.close();
    throw e;
  }
  try {
    return await compareReaders(judge, team, options);
  } finally {
    await Promise.all([judge.close(), team.close()]);
  }
}

async function compareReaders(judge: ByteReader, team: ByteReader, options: DefaultValidatorOptions): Promise<ValidationOutcome> {
  const { caseSensitive, spaceChangeSensitive: spaceSensitive } = options;
  const abs = options.floatAbsoluteTolerance;
  const rel = options.floatRelativeTolerance;
  const useFloats = abs !== undefined || rel !== undefined;
  const wrong = (what: string, line = team.line, judgeLine = judge.line): ValidationOutcome => ({
    accepted: false,
    message: `Wrong answer on line ${line} of the output (line ${judgeLine} of the answer): ${what}`,
  });

  for (let index = 1; ; index++) {
    const teamLineBefore = team.line;
    if (spaceSensitive) {
      const judgeSpace = (await judge.whitespace(true))!;
      const teamSpace = (await team.whitespace(true))!;
      if (!sameBytes(judgeSpace, teamSpace, true)) {
        return wrong(`whitespace differs before token ${index}: expected ${showSpace(judgeSpace)}, got ${showSpace(teamSpace)}`, teamLineBefore);
      }
    } else {
      if (!judge.skipSpaceInChunk()) await judge.whitespace(false);
      if (!team.skipSpaceInChunk()) await team.whitespace(false);
    }
    const expected = judge.tokenInChunk() ?? (await judge.token());
    const got = team.tokenInChunk() ?? (await team.token());
    if (expected.length === 0) {
      if (got.length === 0) return { accepted: true, message: '' };
      return wrong(`trailing output after the last expected token: ${show(got)}`);
    }
    if (got.length === 0) {
      const what = team.offset === 0 ? 'the output is empty' : index === 1 ? 'the output holds only whitespace' : 'the output ends early';
      return wrong(`${what}; expected token ${index}: ${show(expected)}`);
    }
    if (useFloats) {
      const judgeText = latin1(expected);
      if (FLOAT.test(judgeText)) {
        const a = Number(judgeText);
        if (Number.isFinite(a)) {
          const teamText = latin1(got);
          const s = FLOAT.test(teamText) ? Number(teamText) : NaN;
          if (!Number.isFinite(s)) return wrong(`token ${index}: expected a number near ${show(expected)}, got ${show(got)}`);
          const diff = Math.abs(s - a);
          const within = (abs !== undefined && diff <= abs) || (rel !== undefined && diff <= rel * Math.abs(a));
          if (!within) {
            const tol = [abs !== undefined ? `absolute ${abs}` : '', rel !== undefined ? `relative ${rel}` : ''].filter(Boolean).join(', ');
            return wrong(`token ${index}: expected ${show(expected)}, got ${show(got)}, difference ${diff.toPrecision(6)} exceeds the tolerance (${tol})`);
          }
          continue;
        }
      }
    }
    if (!sameBytes(expected, got, caseSensitive)) {
      return wrong(`token ${index}: expected ${show(expected)}, got ${show(got)}`);
    }
  }
}
