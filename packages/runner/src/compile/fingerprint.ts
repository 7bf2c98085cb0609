import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readHead, type Language } from '../languages.js';
import type { JudgeSandbox } from '../problem/programs.js';

/**
 * The compiler's identity, part of the compile cache's key: what the table's `version` command
 * prints (run in the sandbox, as the compiler itself would be), plus the path, size and time of
 * the compiler binary the compile command names. Either changing means a new compiler, whose
 * output the cache must not hand out for the old one's. Found once per runner and language.
 */

const VERSION_LIMITS = { cpuMs: 20_000, wallMs: 30_000, memoryBytes: 1024 * 1024 * 1024, pids: 64, outputBytes: 1024 * 1024 };
const VERSION_BYTES = 4096;

export class CompilerFingerprints {
  private readonly found = new Map<string, Promise<string>>();

  /** The fingerprint of the compiler of `lang`, found on first use; throws when the version command fails. */
  of(sandbox: JudgeSandbox, lang: Language): Promise<string> {
    const key = JSON.stringify([lang.id, lang.version ?? null, lang.compile?.argv[0] ?? null, lang.mounts]);
    let p = this.found.get(key);
    if (!p) {
      p = fingerprint(sandbox, lang);
      // a failure (a sandbox fault) is not kept: the next compile asks again
      p.catch(() => this.found.delete(key));
      this.found.set(key, p);
    }
    return p;
  }
}

async function fingerprint(sandbox: JudgeSandbox, lang: Language): Promise<string> {
  const parts = [`binary ${binaryStat(lang.compile?.argv[0])}`];
  if (lang.version) parts.push(`version ${await versionOutput(sandbox, lang, lang.version)}`);
  return parts.join('\n');
}

/** realpath, size and mtime of the compiler binary; an unknown one is named as such. */
function binaryStat(argv0: string | undefined): string {
  if (!argv0 || !path.isAbsolute(argv0)) return `unknown ${argv0 ?? ''}`;
  try {
    const real = fs.realpathSync(argv0);
    const st = fs.statSync(real);
    return `${real} ${st.size} ${Math.floor(st.mtimeMs)}`;
  } catch {
    return `missing ${argv0}`;
  }
}

/** What the version command printed (stdout and stderr) and how it ended. */
async function versionOutput(sandbox: JudgeSandbox, lang: Language, argv: string[]): Promise<string> {
  const box = await sandbox.prepareBox();
  const logFile = path.join(sandbox.workRoot, `version-${process.pid}-${randomBytes(6).toString('hex')}.log`);
  try {
    const fd = fs.openSync(logFile, 'w', 0o600);
    let status: string;
    try {
      const r = await sandbox.run({
        argv,
        workDir: box.path,
        mounts: lang.mounts,
        stdin: 'ignore',
        stdout: { fd },
        stderr: { fd },
        stderrKeepBytes: VERSION_BYTES,
        env: lang.compile?.env ?? {},
        limits: VERSION_LIMITS,
        ...(lang.openFiles !== undefined ? { openFiles: lang.openFiles } : {}),
      });
      // a version command that fails says nothing of the compiler: no fingerprint, no cache this time
      if (r.status !== 'ok') throw new Error(`${argv.join(' ')}: ${r.reason ?? r.status}`);
      status = `${r.status} ${r.exitCode}`;
    } finally {
      fs.closeSync(fd);
    }
    return `${status}\n${readHead(logFile, VERSION_BYTES)}`;
  } finally {
    fs.rmSync(logFile, { force: true });
    await box.dispose();
  }
}
