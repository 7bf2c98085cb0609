import fs from 'node:fs';
import path from 'node:path';
import { entryOf, runsSource, sourceName, type Language } from '../languages.js';
import { trim } from '../judging/log.js';
import type { SubmissionFileInput } from '../judging/types.js';
import { chooseLanguage } from './entry.js';
import { compileProgram } from '../compile/program.js';
import type { ProgramFile } from '../problem/programs.js';
import type { ProblemSpec } from '../problem/types.js';
import type { Box } from '../sandbox/sandbox.js';
import { listFiles } from './files.js';
import type { GradeContext, Refusal } from './grader.js';

/**
 * The submission as a program, for the modes that run it (standard, interactive): its language
 * (`props.language`, else its files' extensions) must be one the assignment allows (`config.languages`,
 * else the package's `languages`); its files plus `include/default/` and `include/<language>/` are
 * compiled together in a fresh box (entry.ts picks the entry), which stays until the judging ends.
 */
export interface Program {
  lang: Language;
  entry: string;
  box: Box;
  /**
   * The file an interpreter runs: the entry under its submitted name (made safe by boxName), as
   * problemtools and DOMjudge run it, so that `sys.argv[0]` and `__file__` are what was sent;
   * absent for a package's driver (include/) and for languages that run a binary or a class.
   */
  source?: string;
}

/** Compiles the submission once; a refusal is CE (with the compiler's output in the log) or an infrastructure failure. */
export async function compileSubmission(ctx: GradeContext): Promise<{ program: Program } | Refusal> {
  const { input, limits, log } = ctx;
  const { problem, sandbox } = input;
  const chosen = chooseLanguage(input);
  if ('error' in chosen) return chosen.infrastructure ? { infrastructure: chosen.error } : { rejected: 'CE', message: chosen.error };
  const lang = chosen.lang;
  const language = lang.id;
  log.add(`language: ${lang.name} (${lang.id}); ${limits.notes.join(', ')}`);
  const code = input.files.reduce((n, f) => n + f.bytes.byteLength, 0);
  if (problem.limits.codeKiB !== undefined && code > problem.limits.codeKiB * 1024) {
    return { rejected: 'CE', message: `the submission is ${Math.ceil(code / 1024)} KiB; this problem takes at most ${problem.limits.codeKiB} KiB of code`, language };
  }
  const files = await programFiles(input.files, chosen.main, problem, lang);
  if ('error' in files) return { rejected: 'CE', message: files.error, language };
  const compiled = await compileProgram(input.compileCache, sandbox, lang, files.files, files.main, { limits: limits.compile });
  ctx.onCleanup(() => compiled.box.dispose());
  if (compiled.cached) log.add('compile: cached (the same source, language and compiler compiled before on this runner)');
  else if (compiled.pch) log.add(`compile: with the precompiled ${compiled.pch}`);
  const output = compiled.log.trim() ? trim(compiled.log.trimEnd(), 48 * 1024) : '';
  if (output) log.add(`compiler output:\n${output}`);
  if (output || !compiled.ok) ctx.compileOutput = compiled.ok ? output : `${output}${output ? '\n' : ''}compilation failed`;
  if (!compiled.ok) return { rejected: 'CE', message: 'compilation failed', language };
  // compileFiles compiles a package's driver (include/) of the language's own file name instead of the entry
  const driver = files.files.some((f) => f.name === compiled.source && f.name !== files.main);
  const source = runsSource(lang) && !driver ? files.main : undefined;
  return { program: { lang, entry: compiled.entry, box: compiled.box, ...(source ? { source } : {}) } };
}

/** A submitted file's name as written into the box: its base name, odd characters replaced. */
function boxName(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1).slice(-200);
  const clean = base.replace(/[^A-Za-z0-9_.+-]/g, '_').replace(/^[.-]+/, '_');
  return clean || 'source';
}

/** The submission's files and the package's include/ files (which win on a name collision). */
async function programFiles(
  files: SubmissionFileInput[],
  main: SubmissionFileInput,
  problem: ProblemSpec,
  lang: Language,
): Promise<{ files: ProgramFile[]; main: string } | { error: string }> {
  const out = new Map<string, ProgramFile>();
  for (const f of files) {
    const name = boxName(f.name);
    if (out.has(name)) return { error: `two files are named ${name}` };
    out.set(name, { name, bytes: f.bytes });
  }
  // the entry is compiled and run under the language's own file name: another file of the
  // submission by that name would be lost under it (or taken for the package's driver)
  const asSource = sourceName(lang, entryOf(lang, main.bytes));
  if (asSource !== boxName(main.name) && out.has(asSource)) {
    return { error: `the entry ${main.name} runs as ${asSource}, which another file of the submission is named: rename that file, or make it the entry (props.entry)` };
  }
  for (const dir of [problem.include.default, problem.include.byLanguage[lang.id]]) {
    if (!dir) continue;
    for (const rel of await listFiles(dir)) out.set(rel, { name: rel, bytes: await fs.promises.readFile(path.join(dir, rel)) });
  }
  return { files: [...out.values()], main: boxName(main.name) };
}
