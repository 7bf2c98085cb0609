import type { PackageInfo } from '@judge/contract';
import { parse as parseYaml } from 'yaml';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { z } from 'zod';
import { ApiError } from '@judge/contract';
import { compact } from '../../util.js';

export type PackageSummary = z.infer<typeof PackageInfo>;

/** What a package may declare before it is refused unread: a guard against zip bombs. */
export const PACKAGE_LIMITS = {
  entries: 10_000,
  uncompressedBytes: 1024 ** 3,
  /** problem.yaml and .timelimit are read into memory: they are small in any real package. */
  metadataBytes: 1024 ** 2,
} as const;

/** The first version of the format whose problem.yaml carries the limits itself. */
const FORMAT_2023_07 = '2023-07';

const invalid = (reason: string): ApiError =>
  ApiError.of('package.invalid', `The package is not a valid ICPC problem package: ${reason}`, { 'package.fileId': [reason] });

/** A readable entry of the package, named relative to the package root (a wrapping folder stripped). */
interface PackageEntry {
  name: string;
  entry: Entry;
}

/**
 * Checks a stored package against the ICPC problem package format (CONTRACT §13) and answers what
 * it says of itself. Only declared sizes and the central directory are trusted before the two small
 * metadata files are read, so a hostile zip costs at most those reads. Any fault is 422
 * `package.invalid` with the reason.
 */
export async function inspectPackage(path: string): Promise<PackageSummary> {
  const zip = await openZip(path);
  try {
    const entries = stripWrapper(await listEntries(zip));
    const byName = new Map(entries.map((e) => [e.name, e]));
    const yamlEntry = byName.get('problem.yaml');
    if (!yamlEntry) throw invalid('problem.yaml is missing');
    const manifest = parseManifest(await readText(zip, yamlEntry));
    const tests = countTests(entries.map((e) => e.name));
    const timelimit = byName.get('.timelimit');
    const limits = readLimits(manifest);
    const timeLimitSeconds = limits.timeLimitSeconds ?? (timelimit ? parseTimelimitFile(await readText(zip, timelimit)) : undefined);
    return compact({
      name: readName(manifest.name),
      timeLimitSeconds,
      memoryMiB: limits.memoryMiB,
      validation: readValidation(manifest),
      sampleCount: tests.sample,
      secretCount: tests.secret,
      format: readFormat(manifest.problem_format_version),
    }) as PackageSummary;
  } finally {
    zip.close();
  }
}

async function openZip(path: string): Promise<ZipFile> {
  try {
    // autoClose off: the metadata files are read after the whole directory has been listed
    return await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch {
    throw invalid('not a zip file');
  }
}

/** yauzl refuses names that would land outside the folder they are unpacked into; say so plainly. */
function describeZipFault(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const escape = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(message);
  if (escape) return `the entry "${escape[1]}" points outside the package (an absolute path, .. or a backslash escape)`;
  return `the zip is damaged (${message})`;
}

/**
 * Every entry of the central directory (folders included: `data/` may be one), refused early when
 * there are too many or they declare too many bytes.
 */
async function listEntries(zip: ZipFile): Promise<Entry[]> {
  if (zip.entryCount > PACKAGE_LIMITS.entries) {
    throw invalid(`it holds ${zip.entryCount} entries; at most ${PACKAGE_LIMITS.entries} are allowed`);
  }
  const entries: Entry[] = [];
  let declaredBytes = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      declaredBytes += entry.uncompressedSize;
      if (declaredBytes > PACKAGE_LIMITS.uncompressedBytes) throw invalid('it unpacks to more than 1 GiB');
      entries.push(entry);
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw invalid(describeZipFault(e));
  }
  return entries;
}

/** macOS archivers add this folder beside the real content; it is never part of a package. */
const isMacMetadata = (name: string) => name.startsWith('__MACOSX/');

/**
 * Many tools zip a package as one folder (`hello/problem.yaml`, `hello/data/...`): when a single
 * top-level folder wraps everything and there is no problem.yaml at the root, the folder is stripped.
 */
function stripWrapper(entries: Entry[]): PackageEntry[] {
  const content = entries.filter((e) => !isMacMetadata(e.fileName));
  const names = content.map((e) => e.fileName);
  const top = names[0]?.split('/')[0];
  const wrapped = top !== undefined && !names.includes('problem.yaml') && names.every((n) => n.startsWith(`${top}/`));
  const prefix = wrapped ? `${top}/` : '';
  return content.map((entry) => ({ name: entry.fileName.slice(prefix.length), entry }));
}

async function readText(zip: ZipFile, e: PackageEntry): Promise<string> {
  if (e.entry.uncompressedSize > PACKAGE_LIMITS.metadataBytes) throw invalid(`${e.name} is larger than 1 MiB`);
  try {
    const stream = await zip.openReadStreamPromise(e.entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    throw invalid(`${e.name} cannot be read: ${describeZipFault(err)}`);
  }
}

type Manifest = Record<string, unknown>;

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** problem.yaml as a mapping. An empty file is an empty mapping: every legacy key is optional. */
function parseManifest(text: string): Manifest {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    // the parser's message ends with a code frame after the first line; the first line says it all
    const first = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/:$/, '');
    throw invalid(`problem.yaml does not parse: ${first}`);
  }
  if (doc === null || doc === undefined) return {};
  if (!isMapping(doc)) throw invalid('problem.yaml must be a YAML mapping');
  return doc;
}

/** `name` is a string, or a map of languages to names (2023-07) of which English is taken. */
function readName(name: unknown): string | undefined {
  if (typeof name === 'string') return name;
  if (isMapping(name) && typeof name.en === 'string') return name.en;
  return undefined;
}

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

function readLimits(manifest: Manifest): { timeLimitSeconds?: number; memoryMiB?: number } {
  const limits = manifest.limits;
  if (limits === undefined || limits === null) return {};
  if (!isMapping(limits)) throw invalid('limits in problem.yaml must be a mapping');
  const out: { timeLimitSeconds?: number; memoryMiB?: number } = {};
  if (limits.time_limit !== undefined) {
    if (!positive(limits.time_limit)) throw invalid('limits.time_limit in problem.yaml must be a positive number of seconds');
    out.timeLimitSeconds = limits.time_limit;
  }
  if (limits.memory !== undefined) {
    if (!positive(limits.memory)) throw invalid('limits.memory in problem.yaml must be a positive number of MiB');
    out.memoryMiB = limits.memory;
  }
  return out;
}

/** The legacy `.timelimit` file holds the time limit in seconds as plain text. */
function parseTimelimitFile(text: string): number {
  const t = text.trim();
  const seconds = /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
  if (!positive(seconds)) throw invalid('the .timelimit file must hold a positive number of seconds');
  return seconds;
}

/** Legacy packages say `validation: custom interactive`; 2023-07 ones say `type: [pass-fail, interactive]`. */
function readValidation(manifest: Manifest): string | undefined {
  if (typeof manifest.validation === 'string') return manifest.validation;
  const type = manifest.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type.join(' ');
  return undefined;
}

/** `2023-07`, any later dated version and `draft` use the new layout of problem.yaml; anything else is legacy. */
function readFormat(version: unknown): 'legacy' | '2023-07' {
  if (typeof version !== 'string') return 'legacy';
  if (version === 'draft') return FORMAT_2023_07;
  const dated = /^(\d{4}-\d{2})/.exec(version);
  return dated && dated[1]! >= FORMAT_2023_07 ? FORMAT_2023_07 : 'legacy';
}

/** Test cases are `.in` files under data/sample and data/secret, in nested groups too. */
function countTests(names: string[]): { sample: number; secret: number } {
  if (!names.some((n) => n.startsWith('data/'))) throw invalid('data/ is missing');
  const count = (group: string) => names.filter((n) => n.startsWith(`data/${group}/`) && n.endsWith('.in')).length;
  const tests = { sample: count('sample'), secret: count('secret') };
  if (tests.sample + tests.secret === 0) throw invalid('data/ holds no tests: no .in files under data/sample or data/secret');
  return tests;
}
