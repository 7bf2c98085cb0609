/**
 * The samples of a problem, paired from its participant files: the server names them
 * `sample/<name>.in`, `.ans` and `.interaction` (problems: samples.ts).
 */

export interface FileItem {
  name: string;
  fileId: string;
  sizeBytes: number;
  sha256: string;
  mimeType: string;
}

export interface Sample<F extends FileItem = FileItem> {
  name: string;
  input?: F;
  answer?: F;
  interaction?: F;
}

const SAMPLE = /^sample\/(.+)\.(in|ans|interaction)$/;

export const isSampleFile = (name: string): boolean => SAMPLE.test(name);

/** Samples by name, in natural order (2 before 10), each with the files it has. */
export function pairSamples<F extends FileItem>(files: F[]): Sample<F>[] {
  const byName = new Map<string, Sample<F>>();
  for (const f of files) {
    const m = SAMPLE.exec(f.name);
    if (!m) continue;
    const name = m[1]!;
    const s = byName.get(name) ?? { name };
    if (m[2] === 'in') s.input = f;
    else if (m[2] === 'ans') s.answer = f;
    else s.interaction = f;
    byName.set(name, s);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}

/** Files a statement shows (its images): they are part of the statement, not attachments to offer. */
export const isStatementFile = (name: string): boolean => name.startsWith('statement/');
