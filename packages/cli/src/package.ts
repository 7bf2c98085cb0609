import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isMacMetadata, parseMapping, readName, STATEMENT_PATH, wrapperPrefix } from '@judge/problem-package';
import { slugFromName } from '@judge/sdk';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import { CliError } from './errors.js';

/** A statement found in a package: `problem_statement/problem.en.md` and the like. */
export interface Statement {
  name: string;
  language: string | undefined;
  mimeType: string;
  bytes: Buffer;
}

/** An ICPC problem package read from a directory or a zip, ready to upload. */
export interface LocalPackage {
  /** The path given. */
  source: string;
  /** The package as a zip (a directory is zipped in memory; a zip is taken as is). */
  zip: Buffer;
  /** problem.yaml's `name` (the English one of a map), when it has one and parses. */
  name: string | undefined;
  hasManifest: boolean;
  /** One statement per language, the preferred format first (md, pdf, html, tex). */
  statements: Statement[];
}

const FORMATS = ['md', 'pdf', 'html', 'tex'] as const;
const MIME: Record<(typeof FORMATS)[number], string> = { md: 'text/markdown', pdf: 'application/pdf', html: 'text/html', tex: 'application/x-tex' };
/** What never belongs in a package made from a directory. */
const SKIPPED = new Set(['.git', '.svn', '.hg', '.DS_Store', '__MACOSX', 'Thumbs.db']);

/** A slug made from a file or directory name (the web's import names its packages by the same rule). */
export const slugFrom = (path: string): string => slugFromName(path);

/** problem.yaml's name: a string, or a map by language (English first, else the first one). */
export function manifestName(text: string): string | undefined {
  try {
    return readName(parseMapping(text, 'problem.yaml').name)?.trim() || undefined;
  } catch {
    return undefined; // the server says what is wrong with it
  }
}

/** The best statement per language among the files named. */
function pickStatements(files: Map<string, () => Promise<Buffer>>): Promise<Statement[]> {
  const best = new Map<string, { path: string; rank: number; language: string | undefined; format: (typeof FORMATS)[number] }>();
  for (const path of files.keys()) {
    const m = STATEMENT_PATH.exec(path);
    if (!m) continue;
    const format = m[2] as (typeof FORMATS)[number];
    const key = m[1] ?? '';
    const rank = FORMATS.indexOf(format);
    const had = best.get(key);
    if (!had || rank < had.rank) best.set(key, { path, rank, language: m[1], format });
  }
  return Promise.all(
    [...best.values()].map(async (s) => ({ name: basename(s.path), language: s.language, mimeType: MIME[s.format], bytes: await files.get(s.path)!() })),
  );
}

/** Every regular file under `dir`, as package-relative paths with `/`. */
function walk(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (SKIPPED.has(e.name)) continue;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    const full = join(dir, e.name);
    const st = statSync(full); // follows symbolic links: a linked test file is packed as the file
    if (st.isDirectory()) out.push(...walk(full, rel));
    else if (st.isFile()) out.push(rel);
  }
  return out;
}

async function zipDirectory(dir: string, files: string[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const rel of files) zip.addFile(join(dir, rel), rel);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The entries of a zip, named relative to the package root: a single folder wrapping everything
 * (`hello/problem.yaml`) is stripped, by the rule the server and the runners apply. Undefined when the bytes are not a zip.
 */
export async function zipEntries(bytes: Buffer): Promise<Map<string, () => Promise<Buffer>> | undefined> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, autoClose: false });
  } catch {
    return undefined;
  }
  const entries: yauzl.Entry[] = [];
  try {
    for await (const e of zip.eachEntry()) if (!isMacMetadata(e.fileName) && !e.fileName.endsWith('/')) entries.push(e);
  } catch {
    zip.close();
    return undefined;
  }
  const cut = wrapperPrefix(entries.map((e) => e.fileName)).length;
  const out = new Map<string, () => Promise<Buffer>>();
  for (const e of entries) out.set(e.fileName.slice(cut), async () => readAll(await zip.openReadStreamPromise(e)));
  return out;
}

/**
 * Reads a package from a directory or a zip file. Only a path that is neither is refused here;
 * whatever is wrong inside the package is for the server to say when the version is created.
 */
export async function readPackage(path: string): Promise<LocalPackage> {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new CliError(`${path}: no such file or directory`);
  }
  if (st.isDirectory()) {
    const list = walk(path);
    if (list.length === 0) throw new CliError(`${path} is empty`);
    const files = new Map(list.map((rel) => [rel, async () => readFileSync(join(path, rel))]));
    const manifest = files.has('problem.yaml') ? readFileSync(join(path, 'problem.yaml'), 'utf8') : undefined;
    return {
      source: path,
      zip: await zipDirectory(path, list),
      name: manifest === undefined ? undefined : manifestName(manifest),
      hasManifest: manifest !== undefined,
      statements: await pickStatements(files),
    };
  }
  if (!st.isFile()) throw new CliError(`${path} is neither a directory nor a zip file`);
  const zip = readFileSync(path);
  const files = await zipEntries(zip);
  const manifest = files?.get('problem.yaml');
  const text = manifest ? (await manifest()).toString('utf8') : undefined;
  return {
    source: path,
    zip,
    name: text === undefined ? undefined : manifestName(text),
    hasManifest: text !== undefined,
    statements: files ? await pickStatements(files) : [],
  };
}

/** Whether a zip file holds problem.yaml (at its root or in one wrapping folder); undefined when it is not a zip. */
export async function zipHasManifest(path: string): Promise<boolean | undefined> {
  const files = await zipEntries(readFileSync(path));
  return files && files.has('problem.yaml');
}
