import type { FileMeta, Problem, ProblemVersion } from '@judge/contract';
import type { ApiClient } from './client.js';
import { ops } from './op-table.js';
import { ApiProblem } from './problem.js';

/**
 * What `judgectl contest import` and the web's "new contest from packages" page share: how a
 * package's name becomes a slug, how its problem is named in the library, and the steps that make
 * one problem of one package (deleting it again when a later step fails). Nothing here touches a
 * file system, so it runs in Node and in browsers alike.
 */

/** A slug made from a file or folder name (its last path segment, `.zip` dropped): letters, digits, dash and underscore, at most 64. */
export function slugFromName(name: string): string {
  const last = name.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';
  return last
    .replace(/\.zip$/i, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
}

/** The library problem's slug of a contest's problem: the contest's slug in front, so contests never collide. */
export function librarySlug(contestSlug: string, slug: string): string {
  return `${contestSlug}-${slug}`.slice(0, 64);
}

/** The markdown statement of a package that brings none. */
export function generatedStatement(name: string): string {
  return `# ${name}\n\nThe statement of this problem was not part of its package; ask the organisers for it.\n`;
}

/** A statement in a package: `problem_statement/problem.en.md`, `problem_statement/problem.tex` and the like (either format's folder). */
const STATEMENT_IN_PACKAGE = /^(?:problem_statement|statement)\/problem(?:\.[A-Za-z-]+)?\.(?:md|pdf|html|tex)$/;

/** Whether a package, given the paths of its files (relative to its root), brings a statement of its own. */
export function hasOwnStatement(paths: Iterable<string>): boolean {
  for (const p of paths) if (STATEMENT_IN_PACKAGE.test(p)) return true;
  return false;
}

/** Finder's and Explorer's leftovers in a zip, never part of a package. */
const JUNK = /(^|\/)(__MACOSX|\.DS_Store|Thumbs\.db)(\/|$)|(^|\/)\._/;

/** One package found in an archive of packages. */
export interface PackageInArchive {
  /** Its folder inside the archive (`a/`), or the nested zip's path (`b.zip`). */
  path: string;
  kind: 'folder' | 'zip';
  /** The assignment's slug, from the folder or zip name. */
  slug: string;
}

/**
 * The packages of a contest archive, as `judgectl contest import` finds them in a directory: each
 * top-level folder holding a problem.yaml, and each top-level .zip (whether it holds a
 * problem.yaml is the caller's to check, by opening it). One folder wrapping everything is looked
 * through. `skipped` names the top-level folders that hold no problem.yaml.
 */
export function packagesInArchive(paths: string[]): { found: PackageInArchive[]; skipped: string[] } {
  const files = paths.filter((p) => !p.endsWith('/') && !JUNK.test(p));
  const tops = new Set(files.map((p) => p.split('/')[0]!));
  // everything inside one folder that is no package itself: the archive's own wrapper
  const wrapper = tops.size === 1 && files.every((p) => p.includes('/')) && !files.includes(`${[...tops][0]}/problem.yaml`) ? `${[...tops][0]}/` : '';
  const inner = files.map((p) => p.slice(wrapper.length));
  const found: PackageInArchive[] = [];
  const skipped: string[] = [];
  for (const top of [...new Set(inner.map((p) => p.split('/')[0]!))].sort()) {
    const isFolder = inner.some((p) => p.startsWith(`${top}/`));
    if (isFolder) {
      if (inner.includes(`${top}/problem.yaml`)) found.push({ path: `${wrapper}${top}/`, kind: 'folder', slug: slugFromName(top) });
      else skipped.push(top);
    } else if (/\.zip$/i.test(top)) found.push({ path: `${wrapper}${top}`, kind: 'zip', slug: slugFromName(top) });
  }
  return { found, skipped };
}

/** The steps of making one problem of a package, in order, as progress reports name them. */
export type ImportStep = 'problem' | 'upload' | 'version' | 'done';

export interface PackageToImport {
  /** The library problem's slug. */
  slug: string;
  /** Its name until the server read the package's own (problem.yaml's name). */
  name: string;
  zip: Uint8Array;
  /** Whether the package brings a statement; without one a generated one goes along. */
  hasStatement: boolean;
  /** The version's note. */
  note: string;
  type?: string | undefined;
}

export interface ImportHooks {
  /** Uploads bytes (the SDK's plain upload by default; a caller may count the bytes sent). */
  upload?: ((name: string, bytes: Uint8Array, mimeType: string) => Promise<FileMeta>) | undefined;
  onStep?: ((step: ImportStep) => void) | undefined;
}

/** A package refused after its problem was made, and the problem could not be deleted again. */
export class LeftBehindError extends Error {
  constructor(
    readonly refusal: unknown,
    readonly problem: Pick<Problem, 'id' | 'slug'>,
    readonly again: unknown,
  ) {
    super(`${describeFailure(refusal)}; and the problem ${problem.slug} (${problem.id}) could not be deleted again: ${describeFailure(again)}`);
  }
}

/** A failure in words: the server's detail, else its code, else the error's message. */
export function describeFailure(e: unknown): string {
  if (e instanceof ApiProblem) return e.detail || e.code;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Makes one problem of one package: creates it, uploads the package (the server takes its
 * statements from it; a generated one goes along when it has none) and creates the first version.
 * A failure after the problem was created deletes it again, so a refused package leaves no problem
 * behind (LeftBehindError when even that fails).
 */
export async function importPackage(client: ApiClient, pkg: PackageToImport, hooks: ImportHooks = {}): Promise<{ problem: Problem; version: ProblemVersion }> {
  const upload = hooks.upload ?? ((name: string, bytes: Uint8Array, mimeType: string) => client.upload(name, bytes, mimeType));
  hooks.onStep?.('problem');
  const problem = await client.call(ops.createProblem, { body: { slug: pkg.slug, name: pkg.name, type: pkg.type ?? 'standard-io@1' } });
  try {
    hooks.onStep?.('upload');
    const file = await upload(`${pkg.slug}.zip`, pkg.zip, 'application/zip');
    hooks.onStep?.('version');
    const statements = pkg.hasStatement ? [] : [{ fileId: (await client.upload('statement.md', generatedStatement(pkg.name), 'text/markdown')).id }];
    const version = await client.call(ops.createProblemVersion, {
      params: { problemId: problem.id },
      body: { note: pkg.note, ...(statements.length ? { statements } : {}), package: { fileId: file.id } },
    });
    hooks.onStep?.('done');
    return { problem: { ...problem, currentVersion: version.version, versionCount: 1 }, version };
  } catch (e) {
    try {
      await client.call(ops.deleteProblem, { params: { id: problem.id } });
    } catch (again) {
      throw new LeftBehindError(e, problem, again);
    }
    throw e;
  }
}
