import { ops, type Problem, type ProblemVersion } from '@judge/contract';
import { generatedStatement, importPackage, LeftBehindError, type JudgeClient } from '@judge/sdk';
import { CliError } from './errors.js';
import { readPackage, slugFrom, type LocalPackage } from './package.js';
import { upload } from './upload.js';

export interface ImportOptions {
  slug?: string | undefined;
  name?: string | undefined;
  type?: string | undefined;
}

export interface Imported {
  problem: Problem;
  version: ProblemVersion;
  /** The version's statements the server took from the package (`statement.en.html`, ...); empty when one was generated. */
  statements: string[];
}

/** The names the server gives a version's statements. */
const STATEMENT_FILE = /^statement(\.[^./]+)?\.(md|html|pdf)$/;

export { generatedStatement };

/**
 * Uploads a package and makes it a new version of `problem`; the server takes the package's own
 * statements (converting LaTeX, keeping PDF). A package without any gets a generated one when
 * `statementIfNone` names the problem (a first version), else the previous version's carry forward.
 */
export async function publishVersion(
  client: JudgeClient,
  problem: Pick<Problem, 'id' | 'slug'>,
  pkg: LocalPackage,
  o: { note: string; statementIfNone?: string },
): Promise<{ version: ProblemVersion; statements: string[] }> {
  const packageFile = await upload(client, `${problem.slug}.zip`, pkg.zip, 'application/zip', `${problem.slug}.zip`);
  const generate = !pkg.statements.length && o.statementIfNone !== undefined;
  const statements = generate ? [{ fileId: (await client.upload('statement.md', generatedStatement(o.statementIfNone!), 'text/markdown')).id }] : [];
  const version = await client.call(ops.createProblemVersion, {
    params: { problemId: problem.id },
    body: { note: o.note, ...(statements.length ? { statements } : {}), package: { fileId: packageFile.id } },
  });
  return { version, statements: pkg.statements.length ? version.files.filter((f) => STATEMENT_FILE.test(f.name)).map((f) => f.name) : [] };
}

/**
 * Imports one ICPC problem package: creates the problem, uploads the package (the server takes its
 * statements from it; a generated one goes along when it has none) and creates the first version,
 * by the steps the web's contest import takes too (importPackage). A failure after the problem was
 * created deletes it again, so a broken package leaves no problem behind.
 */
export async function importProblem(client: JudgeClient, source: string | LocalPackage, o: ImportOptions = {}): Promise<Imported> {
  const pkg = typeof source === 'string' ? await readPackage(source) : source;
  const slug = o.slug ?? slugFrom(pkg.source);
  if (!slug) throw new CliError(`cannot make a slug of ${pkg.source}: give --slug`);
  const name = o.name ?? pkg.name ?? slug;
  try {
    const { problem, version } = await importPackage(
      client,
      { slug, name, zip: pkg.zip, hasStatement: pkg.statements.length > 0, note: `imported by judgectl from ${pkg.source}`, type: o.type },
      { upload: (file, bytes, mimeType) => upload(client, file, bytes, mimeType, file) },
    );
    return { problem, version, statements: pkg.statements.length ? version.files.filter((f) => STATEMENT_FILE.test(f.name)).map((f) => f.name) : [] };
  } catch (e) {
    if (e instanceof LeftBehindError) throw new CliError(e.message);
    throw e;
  }
}
