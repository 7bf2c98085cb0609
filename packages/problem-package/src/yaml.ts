import { parse as parseYaml } from 'yaml';
import { PackageError } from './errors.js';

/** A YAML mapping as read: keys are checked by the reader that knows the file. */
export type Mapping = Record<string, unknown>;

export const isMapping = (v: unknown): v is Mapping => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A YAML file that must be a mapping; an empty file is an empty mapping (every key is optional). */
export function parseMapping(text: string, file: string): Mapping {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    // the parser's message ends with a code frame after the first line; the first line says it all
    const first = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/:$/, '');
    throw new PackageError(`${file} does not parse: ${first}`);
  }
  if (doc === null || doc === undefined) return {};
  if (!isMapping(doc)) throw new PackageError(`${file} must be a YAML mapping`);
  return doc;
}

/** Unknown keys are a warning, not a refusal: the format grows, and old packages carry old keys. */
export function checkKeys(m: Mapping, known: Set<string>, file: string, warnings: string[]): void {
  const unknown = Object.keys(m).filter((k) => !known.has(k));
  if (unknown.length > 0) warnings.push(`${file}: unknown keys ignored: ${unknown.join(', ')}`);
}

/** Arguments given as a string (split at whitespace) or a list of strings. */
export function splitArgs(v: unknown, where: string): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.split(/\s+/).filter(Boolean);
  if (typeof v === 'number') return [String(v)];
  if (Array.isArray(v) && v.every((a) => typeof a === 'string' || typeof a === 'number')) return v.map(String);
  throw new PackageError(`${where} must be a string or a list of strings`);
}

/** A number, or a string holding one (YAML authors quote them). */
export function number(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new PackageError(`${what} must be a number`);
  return n;
}

/** A range bound: a number, `inf`, `+inf` or `-inf`. */
export function bound(s: string, what: string): number {
  if (s === 'inf' || s === '+inf') return Infinity;
  if (s === '-inf') return -Infinity;
  return number(s, what);
}

/** Lexicographic by code unit: package names are ASCII, so this is byte order. */
export const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
