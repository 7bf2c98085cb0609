import { ZipFile } from 'yazl';

/** An entry's content, or content with a Unix mode (symlinks, executables). */
export type ZipContent = string | Buffer | { content: string | Buffer; mode: number };

/**
 * Every entry's modification time. yazl stamps the current time by default, in DOS format with a
 * two-second resolution, so the same files zipped twice a second apart gave different bytes.
 */
const FIXED_MTIME = new Date(2024, 0, 1, 12, 0, 0);

/** A zip built in memory from names and contents (deflated unless `store`); the same entries always give the same bytes. */
export async function zipOf(entries: Record<string, ZipContent>, opts: { store?: boolean } = {}): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, value] of Object.entries(entries)) {
    if (name.endsWith('/')) {
      zip.addEmptyDirectory(name, { mtime: FIXED_MTIME });
      continue;
    }
    const { content, mode } = typeof value === 'object' && !Buffer.isBuffer(value) ? value : { content: value, mode: undefined };
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compress: !opts.store, mtime: FIXED_MTIME, ...(mode !== undefined ? { mode } : {}) });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Renames an entry by rewriting its name bytes in the local header and the central directory.
 * yazl refuses names like `../x` (rightly); hostile archives are made this way. Both names must
 * have the same length.
 */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('the names must have the same length');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  let at = out.indexOf(needle);
  if (at < 0) throw new Error(`no entry named ${from}`);
  while (at >= 0) {
    Buffer.from(to).copy(out, at);
    at = out.indexOf(needle, at + needle.length);
  }
  return out;
}

/** Sets the uncompressed size every central-directory record declares, as a zip bomb would. */
export function declareUncompressedSize(zip: Buffer, bytes: number): Buffer {
  const out = Buffer.from(zip);
  const CENTRAL_HEADER = 0x02014b50;
  for (let i = 0; i + 46 <= out.length; i++) {
    if (out.readUInt32LE(i) === CENTRAL_HEADER) out.writeUInt32LE(bytes, i + 24);
  }
  return out;
}

/** A well-formed legacy package (problem.yaml, .timelimit, samples and secret tests in groups). */
export function legacyPackage(name = 'Hello'): Record<string, string> {
  return {
    'problem.yaml': `name: ${name}\nvalidation: default\nlimits:\n  memory: 512\n`,
    '.timelimit': '2.5\n',
    'data/sample/1.in': '1 2\n',
    'data/sample/1.ans': '3\n',
    'data/secret/1.in': '5 5\n',
    'data/secret/1.ans': '10\n',
    'data/secret/group1/2.in': '7 8\n',
    'data/secret/group1/2.ans': '15\n',
    'submissions/accepted/hello.py': 'print(sum(map(int, input().split())))\n',
  };
}

/** A well-formed 2023-07 package: the limits live in problem.yaml. */
export function modernPackage(): Record<string, string> {
  return {
    'problem.yaml': [
      'problem_format_version: 2023-07',
      'name:',
      '  en: Sum of two',
      '  pl: Suma dwóch',
      'type: [pass-fail, interactive]',
      'limits:',
      '  time_limit: 1.5',
      '  memory: 1024',
      '',
    ].join('\n'),
    'data/sample/1.in': '1 2\n',
    'data/sample/1.ans': '3\n',
    'data/sample/2.in': '2 2\n',
    'data/sample/2.ans': '4\n',
    'data/secret/1.in': '5 5\n',
    'data/secret/1.ans': '10\n',
  };
}
