/**
 * The main class of a compiled JVM program, found as DOMjudge's judgehost finds it: among the class
 * files the compiler wrote, the classes with a `public static void main(String[])` (Kotlin's
 * `fun main()` compiles to one too), named with their package (`foo.Main`, `foo.bar.MainKt`).
 * The class files are read here rather than with `javap` in the sandbox: a JVM start per compile
 * saved, and only the constant pool and the method table are looked at.
 */
import fs from 'node:fs';
import path from 'node:path';

/** More than this and the box is not a program's output: stop looking. */
const MAX_FILES = 5000;
const MAX_DEPTH = 16;
const MAX_CLASS_BYTES = 32 * 1024 * 1024;

const ACC_PUBLIC = 0x0001;
const ACC_STATIC = 0x0008;
const MAIN_DESCRIPTOR = '([Ljava/lang/String;)V';

/** The class files below `dir` (relative paths), symbolic links never followed. */
export function classFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string, depth: number): void => {
    if (depth > MAX_DEPTH || out.length >= MAX_FILES) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile() && e.name.endsWith('.class')) out.push(p);
      if (out.length >= MAX_FILES) return;
    }
  };
  walk('', 0);
  return out;
}

/** Reads a class file's own name and whether it declares `public static void main(String[])`; null when it is no class file. */
export function readClass(bytes: Buffer): { name: string; hasMain: boolean } | null {
  try {
    return parseClass(bytes);
  } catch {
    return null; // truncated or malformed: not a class the JVM would run either
  }
}

function parseClass(b: Buffer): { name: string; hasMain: boolean } | null {
  if (b.length < 10 || b.readUInt32BE(0) !== 0xcafebabe) return null;
  let at = 8;
  const count = b.readUInt16BE(at);
  at += 2;
  const utf8 = new Map<number, string>();
  const classNames = new Map<number, number>();
  for (let i = 1; i < count; i++) {
    const tag = b.readUInt8(at++);
    if (tag === 1) {
      const len = b.readUInt16BE(at);
      utf8.set(i, b.toString('utf8', at + 2, at + 2 + len));
      at += 2 + len;
    } else if (tag === 7) {
      classNames.set(i, b.readUInt16BE(at));
      at += 2;
    } else if (tag === 5 || tag === 6) {
      at += 8;
      i++; // longs and doubles take two slots
    } else {
      const size = CONSTANT_SIZE[tag];
      if (size === undefined) return null;
      at += size;
    }
  }
  at += 2; // access flags
  const self = utf8.get(classNames.get(b.readUInt16BE(at)) ?? -1);
  if (!self) return null;
  at += 4; // this, super
  at += 2 + 2 * b.readUInt16BE(at); // interfaces
  at = skipMembers(b, at); // fields
  const methods = b.readUInt16BE(at);
  at += 2;
  let hasMain = false;
  for (let m = 0; m < methods; m++) {
    const flags = b.readUInt16BE(at);
    const name = utf8.get(b.readUInt16BE(at + 2));
    const descriptor = utf8.get(b.readUInt16BE(at + 4));
    if (name === 'main' && descriptor === MAIN_DESCRIPTOR && (flags & (ACC_PUBLIC | ACC_STATIC)) === (ACC_PUBLIC | ACC_STATIC)) hasMain = true;
    at = skipAttributes(b, at + 6);
  }
  return { name: self.replace(/\//g, '.'), hasMain };
}

/** Bytes after the tag of the constant pool entries of fixed size (Utf8, Long and Double are read apart). */
const CONSTANT_SIZE: Record<number, number> = { 3: 4, 4: 4, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2 };

function skipAttributes(b: Buffer, at: number): number {
  const n = b.readUInt16BE(at);
  at += 2;
  for (let i = 0; i < n; i++) at += 6 + b.readUInt32BE(at + 2);
  if (at > b.length) throw new RangeError('truncated');
  return at;
}

function skipMembers(b: Buffer, at: number): number {
  const n = b.readUInt16BE(at);
  at += 2;
  for (let i = 0; i < n; i++) at = skipAttributes(b, at + 6);
  return at;
}

export interface MainClass {
  /** The class to run, package-qualified; undefined when none has a main method. */
  name?: string;
  /** Info and warnings for the compile log, as DOMjudge writes them. */
  notes: string[];
}

/**
 * The main class among the class files in `dir`: the one named `preferred` (fully or by its simple
 * name: the submission's entry point, the source's public class, `MainKt` for main.kt), else the
 * first with a main method in name order; the others with one are named in a warning.
 */
export function findMainClass(dir: string, preferred: string[] = []): MainClass {
  const mains: string[] = [];
  for (const rel of classFiles(dir)) {
    const file = path.join(dir, rel);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(file);
    } catch {
      continue;
    }
    if (!st.isFile() || st.size > MAX_CLASS_BYTES) continue;
    const c = readClass(fs.readFileSync(file));
    if (c?.hasMain) mains.push(c.name);
  }
  if (!mains.length) return { notes: ["Error: no class has a 'public static void main(String[])'."] };
  const simple = (n: string) => n.slice(n.lastIndexOf('.') + 1);
  const name = preferred.map((p) => mains.find((m) => m === p) ?? mains.find((m) => simple(m) === p)).find((m) => m !== undefined) ?? mains[0]!;
  const notes = [`Info: using 'main' from '${name}'`, ...mains.filter((m) => m !== name).map((m) => `Warning: found another 'main' in '${m}'`)];
  return { name, notes };
}
