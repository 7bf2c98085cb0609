import { createHash } from 'node:crypto';
import type { Language } from '../languages.js';
import { compileFiles, type Compiled, type JudgeSandbox, type ProgramFile } from '../problem/programs.js';
import { currentCancel } from '../sandbox/cancel-scope.js';
import type { Limits } from '../sandbox/types.js';
import type { CompileCache } from './cache.js';

/**
 * A submission's compile through the compile cache: the key is the SHA-256 of every file (name
 * and bytes), the entry file, the language entry as the compile uses it (id, command line,
 * environment, mounts, file names, entry rules, the compile limits, which fill `{heapMiB}` and
 * bound what may compile) and the compiler's fingerprint. A hit is the compiled box and the
 * outcome as the compiler left them, a compile error included; a miss compiles (with a
 * precompiled header when the source includes one) and keeps what came out.
 */

export interface ProgramCompile extends Compiled {
  /** Taken from the compile cache: no compiler ran. */
  cached: boolean;
  /** The precompiled header the compile used. */
  pch?: string;
}

/** Bump when what goes into the key changes meaning. */
const KEY_FORMAT = 'judge-compile-1';

/** The SHA-256 naming a compile of `files` (entry `main`) by `lang` under `limits` with the compiler `fingerprint`. */
export function compileKey(lang: Language, files: ProgramFile[], main: string, limits: Limits, fingerprint: string): string {
  const h = createHash('sha256');
  const used = {
    id: lang.id,
    compile: lang.compile ? { argv: lang.compile.argv, env: lang.compile.env } : null,
    compiled: lang.compiled,
    sourceFile: lang.sourceFile,
    binary: lang.binary ?? null,
    entry: lang.entry ?? null,
    extensions: lang.extensions,
    mounts: lang.mounts,
    limits,
  };
  h.update(`${KEY_FORMAT}\0${JSON.stringify(used)}\0${fingerprint}\0${main}\0${files.length}\0`);
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    h.update(`${f.name}\0${f.bytes.byteLength}\0`);
    h.update(f.bytes);
  }
  return h.digest('hex');
}

/**
 * Compiles `main` among `files` like compileFiles, through `cache` when there is one. The
 * caller disposes the box. A compile stopped by a limit (time, memory, output) is not kept: on a
 * loaded machine the same source may compile next time.
 */
export async function compileProgram(
  cache: CompileCache | undefined,
  sandbox: JudgeSandbox,
  lang: Language,
  files: ProgramFile[],
  main: string,
  opts: { limits?: Partial<Limits> } = {},
): Promise<ProgramCompile> {
  if (!cache || !lang.compile) return { ...(await compileFiles(sandbox, lang, files, main, opts)), cached: false };
  let fingerprint: string;
  try {
    fingerprint = await cache.fingerprints.of(sandbox, lang);
  } catch {
    return { ...(await compileFiles(sandbox, lang, files, main, opts)), cached: false };
  }
  const limits: Limits = { ...lang.compile.limits, ...opts.limits };
  const key = compileKey(lang, files, main, limits, fingerprint);
  const got = await cache.obtain(
    key,
    sandbox,
    async () => {
      const { lang: withPch, header } = await cache.pch.languageFor(sandbox, lang, files, fingerprint);
      if (!header) return { ...(await compileFiles(sandbox, lang, files, main, opts)), cached: false };
      const c = await compileFiles(sandbox, withPch, files, main, opts);
      if (c.ok) return { ...c, cached: false, pch: header };
      // a failure may be the header's (a .gch the compiler cannot read, a mount the sandbox cannot make):
      // the plain compile decides, and is what is kept
      await c.box.dispose();
      const plain = await compileFiles(sandbox, lang, files, main, opts);
      if (plain.ok) {
        await cache.pch.failedWith(withPch, header, async () => {
          const alone = await compileFiles(sandbox, withPch, [{ name: main, bytes: Buffer.from(`#include <${header}>\nint main() { return 0; }\n`) }], main, opts);
          await alone.box.dispose();
          // a limit (a loaded machine) says nothing of the header: only the compiler's own refusal does
          return alone.ok ? 'compiles' : keepable(alone) ? 'refused' : 'unknown';
        });
      }
      return { ...plain, cached: false };
    },
    keepable,
  );
  if ('cached' in got) return { ...got.cached, cached: true };
  return got.compiled;
}

/**
 * Whether a compile's outcome is the source's own: it compiled, or the compiler itself refused it
 * (an exit code, no signal). A limit, a signal (the runner's kill when the job was withdrawn or the
 * runner stops) or a cancelled judging say nothing of the source and are not kept.
 */
function keepable(c: Compiled): boolean {
  const r = c.result;
  if (!r || currentCancel()?.aborted) return false;
  if (r.status === 'ok') return true;
  return r.status === 're' && !r.signal && r.exitCode !== null && r.exitCode > 0 && r.exitCode < 128 && !/process limit/.test(r.reason ?? '');
}
