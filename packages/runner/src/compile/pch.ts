import { makePrivate, openUp, placeDirectory } from '../place.js';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Language } from '../languages.js';
import { compileInBox } from '../languages.js';
import type { JudgeSandbox, ProgramFile } from '../problem/programs.js';
import { outsideCancel } from '../sandbox/cancel-scope.js';

/**
 * Precompiled headers for g++ (the table's `pch`: `bits/stdc++.h`), built once per runner per
 * compiler and flags. GCC uses `<dir>/bits/stdc++.h.gch` for `#include <bits/stdc++.h>` when
 * `<dir>` is an `-I` directory (searched before the system's) and the .gch was made with the same
 * flags (-std, -O, ...); otherwise it quietly reads the header as usual, so a .gch that does not
 * fit costs nothing but its use. The .gch is built in the sandbox like any compile, from the
 * language's own compile command (sources and `-o` taken out, `-x c++-header`), kept under the
 * compile cache's `pch/<sha256 of compiler and flags>/` (private, as the whole cache), and mounted
 * read-only at /judge-pch from a copy in the sandbox's work root that every slot uid may read:
 * made of system headers alone, a .gch holds nothing secret.
 */

export const PCH_MOUNT = '/judge-pch';
const WRAPPER = 'judge-pch.h';
/** A header unused this long is removed; a temporary directory this old is a killed build's. */
const UNUSED_MS = 30 * 24 * 3600 * 1000;
const STALE_TMP_MS = 3600 * 1000;

export class PrecompiledHeaders {
  /** By key: the host directory holding the .gch, or undefined when it would not build here. */
  private readonly built = new Map<string, Promise<string | undefined>>();
  /** Headers that compiled a program of the header alone after some compile failed with them. */
  private readonly sound = new Set<string>();
  /** The sandbox-readable copies of cached headers, by path. */
  private readonly copies = new Map<string, Promise<string>>();

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * The language to compile `files` with: `lang` with the precompiled header's directory first in
   * the include path when a source includes one of the table's `pch` headers and it builds, else
   * `lang` itself. `fingerprint` names the compiler (compile/fingerprint.ts).
   */
  async languageFor(sandbox: JudgeSandbox, lang: Language, files: ProgramFile[], fingerprint: string): Promise<{ lang: Language; header?: string }> {
    const header = lang.compile && lang.pch.find((h) => files.some((f) => includes(f.bytes, h)));
    if (!header || !lang.compile) return { lang };
    const flags = headerFlags(lang.compile.argv);
    if (!flags) return { lang };
    const key = createHash('sha256').update(JSON.stringify([fingerprint, header, flags, lang.compile.env, lang.mounts])).digest('hex');
    let p = this.built.get(key);
    if (!p) {
      // shared by every judging that waits for it: one judging's cancel must not stop it
      p = outsideCancel(() => this.build(sandbox, lang, header, flags, key)).catch((e: Error) => {
        this.log(`precompiled header ${header} for ${lang.id}: ${e.message}; compiling without it`);
        return undefined;
      });
      this.built.set(key, p);
    }
    const cached = await p;
    if (!cached) return { lang };
    const host = await this.exposed(sandbox, cached).catch(() => undefined);
    if (!host) return { lang };
    // in use: not pruned by another runner sharing the directory
    const now = new Date();
    fs.promises.utimes(cached, now, now).catch(() => undefined);
    const [argv0, ...rest] = lang.compile.argv;
    return {
      header,
      lang: { ...lang, compile: { ...lang.compile, argv: [argv0!, `-I${PCH_MOUNT}`, ...rest] }, mounts: [...lang.mounts, { host, box: PCH_MOUNT }] },
    };
  }

  /**
   * A compile failed with the header and worked without it. One source can do that on purpose (it
   * may test whether the .gch is in its include path and refuse to compile), so that alone never
   * turns the header off for the compiles after it: `headerAlone` compiles a program of nothing but
   * the header with it, and only when the compiler refuses that too (a limit hit on a loaded
   * machine proves nothing) is the header given up on this runner (said once). A header that
   * passed is not checked again.
   */
  async failedWith(withPch: Language, header: string, headerAlone: () => Promise<'compiles' | 'refused' | 'unknown'>): Promise<void> {
    const host = withPch.mounts.find((m) => m.box === PCH_MOUNT)?.host;
    if (!host) return;
    const key = path.basename(host).replace(/^\.pch-/, '');
    if (this.sound.has(key)) return;
    const alone = await headerAlone().catch(() => 'unknown' as const);
    if (alone === 'compiles') this.sound.add(key);
    if (alone !== 'refused') {
      this.log(`precompiled header ${header} for ${withPch.id}: a compile failed with it and worked without it; only that compile went without it`);
      return;
    }
    this.log(`precompiled header ${header} for ${withPch.id}: a compile failed with it and worked without it, and so does the header alone; compiling without it from now on`);
    this.built.set(key, Promise.resolve(undefined));
  }

  /** The copy of a cached header directory the sandbox mounts (made once per work root). */
  private exposed(sandbox: JudgeSandbox, cached: string): Promise<string> {
    const dest = path.join(sandbox.workRoot, `.pch-${path.basename(cached)}`);
    let p = this.copies.get(dest);
    if (!p) {
      p = (async () => {
        const tmp = `${dest}.tmp-${randomBytes(6).toString('hex')}`;
        await fs.promises.cp(cached, tmp, { recursive: true });
        await openUp(tmp);
        await placeDirectory(tmp, dest);
        return dest;
      })();
      p.catch(() => this.copies.delete(dest));
      this.copies.set(dest, p);
    }
    return p;
  }

  /** Builds (or finds from an earlier run) the .gch; throws when it does not build. */
  private async build(sandbox: JudgeSandbox, lang: Language, header: string, flags: string[], key: string): Promise<string> {
    const dest = path.join(this.dir, key);
    await this.prune(key);
    if (fs.existsSync(path.join(dest, `${header}.gch`))) {
      const now = new Date();
      await fs.promises.utimes(dest, now, now).catch(() => undefined);
      return dest;
    }
    const started = Date.now();
    const box = await sandbox.prepareBox();
    try {
      await fs.promises.writeFile(path.join(box.path, WRAPPER), `#include <${header}>\n`, { mode: 0o644 });
      const sub = path.dirname(header);
      if (sub !== '.') {
        await fs.promises.mkdir(path.join(box.path, sub), { recursive: true, mode: 0o755 });
        if (process.geteuid?.() === 0) await fs.promises.chown(path.join(box.path, sub), box.uid, box.gid);
      }
      const compiler = { ...lang, compiled: false, entry: undefined, compile: { ...lang.compile!, argv: [...flags, '-o', `${header}.gch`, WRAPPER] } };
      const r = await compileInBox(sandbox, compiler, box, 'main');
      const gch = path.join(box.path, `${header}.gch`);
      if (!r.ok || !fs.existsSync(gch)) throw new Error(`did not build (${r.result.reason ?? r.result.status}): ${r.log.trim().split('\n').slice(-3).join(' ')}`);
      await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
      await fs.promises.chmod(this.dir, 0o700);
      const tmp = path.join(this.dir, `.tmp-${randomBytes(8).toString('hex')}`);
      await fs.promises.mkdir(path.join(tmp, path.dirname(header)), { recursive: true, mode: 0o755 });
      await fs.promises.copyFile(gch, path.join(tmp, `${header}.gch`));
      await makePrivate(tmp);
      await placeDirectory(tmp, dest);
      this.log(`precompiled header ${header} for ${lang.id} built in ${Date.now() - started} ms`);
      return dest;
    } finally {
      await box.dispose();
    }
  }

  /**
   * Removes headers no runner on this directory has used for a month (an old compiler's, or flags
   * the table no longer has): at over 100 MiB each they are not left to pile up.
   */
  private async prune(keep: string): Promise<void> {
    const entries = await fs.promises.readdir(this.dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isDirectory() || e.name === keep) continue;
      const p = path.join(this.dir, e.name);
      const st = await fs.promises.stat(p).catch(() => undefined);
      const limit = e.name.startsWith('.tmp-') ? STALE_TMP_MS : UNUSED_MS;
      if (st && Date.now() - st.mtimeMs > limit) await fs.promises.rm(p, { recursive: true, force: true });
    }
  }
}

/** Whether the source includes `header` with angle brackets. */
function includes(bytes: Uint8Array, header: string): boolean {
  const text = Buffer.from(bytes).toString('latin1');
  if (!text.includes(header)) return false;
  const escaped = header.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`^[ \\t]*#[ \\t]*include[ \\t]*<${escaped}>`, 'm').test(text);
}

/**
 * The compile command as a header compile: without the sources and the output, with
 * `-x c++-header`; undefined when it has placeholders a header build cannot fill.
 */
export function headerFlags(argv: string[]): string[] | undefined {
  const out: string[] = [];
  let x = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '{sources}' || a === '{source}') continue;
    if (a === '-o') {
      i++;
      continue;
    }
    if (a === '-x') {
      out.push('-x', 'c++-header');
      i++;
      x = true;
      continue;
    }
    if (/\{\w+\}/.test(a)) return undefined;
    out.push(a);
  }
  if (!out.length) return undefined;
  return x ? out : [out[0]!, '-x', 'c++-header', ...out.slice(1)];
}
