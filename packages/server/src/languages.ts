import { ApiError, type LanguageChoice } from '@judge/contract';
import { extensionIndex, languageOfFile, readLanguageTableFile } from '@judge/problem-package';

/**
 * The server's view of the language table (the `languages` setting, the same file the runners
 * read): which language a submission's file extension names, and which languages a submission to
 * an assignment may use. Read once per file.
 */
interface TableView {
  index: Map<string, string>;
  choices: LanguageChoice[];
  /** Extensions of files that accompany sources of any language (headers: .h, .hpp). */
  headers: Set<string>;
}

const views = new Map<string, TableView>();

function view(file: string): TableView {
  let v = views.get(file);
  if (!v) {
    const table = readLanguageTableFile(file);
    const choices = Object.entries(table.languages).map(([id, l]) => ({ id, name: l.name, extensions: l.extensions.map((e) => e.toLowerCase()) }));
    const headers = new Set(Object.values(table.languages).flatMap((l) => l.detect.headers.map((h) => h.toLowerCase())));
    v = { index: extensionIndex(table, file), choices, headers };
    views.set(file, v);
  }
  return v;
}

/** A language's name as the table gives it; undefined for an id the table lacks. */
export function languageName(file: string, id: string): string | undefined {
  return view(file).choices.find((l) => l.id === id)?.name;
}

/** The table's language ids by extension; throws (naming the file) when the table is unreadable or invalid. */
export function languageIndex(file: string): ReadonlyMap<string, string> {
  return view(file).index;
}

/**
 * What a submission's files say of its language: `props.language` when it names one; else each
 * file's extension, headers aside (they accompany sources of any language), where every source must
 * give the same language. `mixed` lists the languages when they disagree; `unnamed` the files that give none.
 */
function languageOfFiles(tableFile: string, fileNames: readonly string[], props?: Record<string, unknown> | null): { id?: string; mixed?: string[]; unnamed?: string[] } {
  const v = view(tableFile);
  const named = languageOfFile(v.index, '', props);
  if (named) return { id: named };
  const ext = (n: string) => /\.([^./]+)$/.exec(n)?.[1]?.toLowerCase() ?? '';
  const sources = fileNames.filter((n) => v.index.has(ext(n)) || !v.headers.has(ext(n)));
  const ids = sources.map((n) => languageOfFile(v.index, n));
  const unnamed = sources.filter((_, i) => !ids[i]);
  if (unnamed.length || !sources.length) return { unnamed: unnamed.length ? unnamed : [...fileNames] };
  const distinct = [...new Set(ids as string[])];
  return distinct.length === 1 ? { id: distinct[0] } : { mixed: distinct };
}

/**
 * The language a submission names in `props.language`, else the one the table gives its files'
 * extensions (headers aside); undefined when they give none or disagree.
 */
export function submissionLanguage(tableFile: string, fileNames: string | readonly string[], props?: Record<string, unknown> | null): string | undefined {
  return languageOfFiles(tableFile, typeof fileNames === 'string' ? [fileNames] : fileNames, props).id;
}

/** The languages an assignment allows, when its config names them as a list of strings (decisions §13). */
export function assignmentLanguages(config: Record<string, unknown> | null | undefined): string[] | undefined {
  const langs = config?.languages;
  return Array.isArray(langs) && langs.every((l) => typeof l === 'string') ? (langs as string[]) : undefined;
}

/** What narrows the table for one assignment: its config, and what its runners can judge (undefined: unknown, no limit). */
export interface LanguageLimits {
  config: Record<string, unknown> | null | undefined;
  judgeable: ReadonlySet<string> | undefined;
}

/** The languages of the table a submission to the assignment may use, in the table's order. */
export function allowedLanguages(tableFile: string, limits: LanguageLimits): LanguageChoice[] {
  const configured = assignmentLanguages(limits.config);
  return view(tableFile).choices.filter((l) => (!configured || configured.includes(l.id)) && (!limits.judgeable || limits.judgeable.has(l.id)));
}

/**
 * Why a submission cannot be judged, as the 422 `submission.language` it is refused with; undefined
 * when it can. Its `errors` hold `language` (the reason), `allowed` (the allowed ids) and, for each
 * allowed id, `allowed.<id>` its file extensions.
 */
export function languageRefusal(
  tableFile: string,
  fileNames: string | readonly string[],
  props: Record<string, unknown> | null | undefined,
  limits: LanguageLimits,
): ApiError | undefined {
  const names = typeof fileNames === 'string' ? [fileNames] : fileNames;
  const { id, mixed, unnamed } = languageOfFiles(tableFile, names, props);
  const known = id ? view(tableFile).choices.find((l) => l.id === id) : undefined;
  const configured = assignmentLanguages(limits.config);
  let why: string | undefined;
  if (mixed) why = `The files name several languages (${mixed.join(', ')}): a submission is in one language`;
  else if (!id) why = `The file name${unnamed!.length > 1 ? 's' : ''} ${unnamed!.join(', ')} ${unnamed!.length > 1 ? 'give' : 'gives'} no language and props.language names none`;
  else if (!known) why = `The language ${id} is not in the language table`;
  else if (configured && !configured.includes(id)) why = `This problem does not allow ${known.name} (${id})`;
  else if (limits.judgeable && !limits.judgeable.has(id)) why = `No runner that judges this problem can judge ${known.name} (${id})`;
  if (!why) return undefined;
  const allowed = allowedLanguages(tableFile, limits);
  const listed = allowed.map((l) => `${l.name} (${l.id}: ${l.extensions.map((e) => `.${e}`).join(', ')})`).join('; ') || 'none';
  const errors: Record<string, string[]> = { language: [why], allowed: allowed.map((l) => l.id) };
  for (const l of allowed) errors[`allowed.${l.id}`] = l.extensions.map((e) => `.${e}`);
  return ApiError.of('submission.language', `${why}. Allowed here: ${listed}`, errors);
}
