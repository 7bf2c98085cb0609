/**
 * Which files a new version holds: the previous version's, less what the request removes or
 * replaces, plus what it names and what its package brings (samples, statements and their
 * images). A new package replaces everything the old one brought; removing it removes that too.
 */
import type { CreateVersionRequest } from '@judge/contract';
import { ApiError } from '@judge/contract';
import type { z } from 'zod';
import { STATEMENT_NAME } from './statements/convert.js';

type VersionInput = z.output<typeof CreateVersionRequest>;

/** A file row of a version being planned: carried from the previous version or named by the request. */
export interface PlannedFile {
  name: string;
  scope: string;
  /** statement: sent in the request; packageStatement, statementImage, sample: read from the package. */
  role: 'statement' | 'packageStatement' | 'statementImage' | 'file' | 'package' | 'samples' | 'sample';
  language: string | null;
  fileId: string;
}

/** What was made of the request's files before the version is planned. */
export interface MadeFiles {
  samples: PlannedFile[];
  /** The package's statements and the images they show. */
  packageStatements: PlannedFile[];
  /** The request's statements, as stored (converted where they needed it). */
  statements: PlannedFile[];
}

export const NOTHING_MADE: MadeFiles = { samples: [], packageStatements: [], statements: [] };

export const PACKAGE_NAME = 'package.zip';
const SAMPLES_NAME = 'samples.zip';
const STATEMENT_ROLES: ReadonlySet<string> = new Set(['statement', 'packageStatement']);
/** What a package brings with it, and takes along when replaced or removed. */
const FROM_PACKAGE: ReadonlySet<string> = new Set(['sample', 'packageStatement', 'statementImage']);

export const isStatementRole = (role: string): boolean => STATEMENT_ROLES.has(role);

/** The statement name the request's statement of `language` takes, for the duplicate check. */
const requestStatementName = (language: string | undefined) => `statement${language ? `.${language}` : ''}`;

/** Refusals that depend on the request alone. */
export function checkVersionRequest(input: VersionInput): void {
  if (input.statements && input.statements.length === 0) {
    throw ApiError.of('version.statements.empty', 'statements, when given, must name at least one statement', { statements: ['must not be empty'] });
  }
  for (const [i, f] of (input.files ?? []).entries()) {
    if (STATEMENT_NAME.test(f.name)) {
      throw ApiError.of('version.file.isStatement', `${f.name} is a statement name; send statements in statements`, { [`files[${i}].name`]: ['is a statement name'] });
    }
    if ([PACKAGE_NAME, SAMPLES_NAME].includes(f.name.toLowerCase())) {
      throw ApiError.of('version.file.isPackage', `${f.name} is reserved for the package; send it in package`, { [`files[${i}].name`]: ['is reserved for the package'] });
    }
  }
  const names = [...(input.statements ?? []).map((s) => `${requestStatementName(s.language)}.md`), ...(input.files ?? []).map((f) => f.name)];
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (repeated.length) throw ApiError.of('version.file.duplicate', `The version would hold more than one file named ${repeated.join(', ')}`);
}

/** Sets the statement of its language, whatever the format of the one it replaces. */
function putStatement(next: Map<string, PlannedFile>, s: PlannedFile): void {
  for (const [name, f] of next) if (isStatementRole(f.role) && f.language === s.language) next.delete(name);
  next.set(s.name, s);
}

/**
 * The files of the next version: the previous version's files not replaced, not removed and (when
 * a new package comes or the old one goes) not brought by the old package, then the new package's,
 * then what the request names, whose statements win over the package's for their language.
 */
export function nextFiles(previous: PlannedFile[], input: VersionInput, made: MadeFiles): PlannedFile[] {
  const known = new Set(previous.map((f) => f.name));
  const unknown = (input.removedFiles ?? []).filter((name) => !known.has(name));
  if (unknown.length) {
    throw ApiError.of('validation_failed', `removedFiles names files the previous version does not hold: ${unknown.join(', ')}`, {
      removedFiles: unknown.map((name) => `no file named ${name}`),
    });
  }
  const removed = new Set(input.removedFiles ?? []);
  if (input.package) removed.add(PACKAGE_NAME).add(SAMPLES_NAME);
  const next = new Map<string, PlannedFile>();
  const packageGoes = !!input.package || removed.has(PACKAGE_NAME);
  for (const f of previous) if (!removed.has(f.name) && !(packageGoes && FROM_PACKAGE.has(f.role))) next.set(f.name, f);
  if (input.package) {
    next.set(PACKAGE_NAME, { name: PACKAGE_NAME, scope: 'runner', role: 'package', language: null, fileId: input.package.fileId });
    for (const s of made.samples) next.set(s.name, s);
    for (const s of made.packageStatements) (isStatementRole(s.role) ? putStatement(next, s) : next.set(s.name, s));
    if (input.package.samplesFileId) {
      next.set(SAMPLES_NAME, { name: SAMPLES_NAME, scope: 'participant', role: 'samples', language: null, fileId: input.package.samplesFileId });
    }
  }
  for (const s of made.statements) putStatement(next, s);
  for (const f of input.files ?? []) next.set(f.name, { name: f.name, scope: f.scope, role: 'file', language: null, fileId: f.fileId });
  return [...next.values()];
}
