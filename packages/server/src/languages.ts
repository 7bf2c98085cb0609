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
}

const views = new Map<string, TableView>();

function view(file: string): TableView {
  let v = views.get(file);
  if (!v) {
    const table = readLanguageTableFile(file);
    const choices = Object.entries(table.languages).map(([id, l]) => ({ id, name: l.name, extensions: l.extensions.map((e) => e.toLowerCase()) }));
    v = { index: extensionIndex(table, file), choices };
    views.set(file, v);
  }
  return v;
}

/** The table's language ids by extension; throws (naming the file) when the table is unreadable or invalid. */
export function languageIndex(file: string): ReadonlyMap<string, string> {
  return view(file).index;
}

/** The language a submission names in `props.language`, else the one the table gives its file extension. */
export function submissionLanguage(tableFile: string, fileName: string, props?: Record<string, unknown> | null): string | undefined {
  return languageOfFile(languageIndex(tableFile), fileName, props);
}

/** The languages an assignment allows, when its config names them as a list of strings (CONTRACT §13). */
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
export function languageRefusal(tableFile: string, fileName: string, props: Record<string, unknown> | null | undefined, limits: LanguageLimits): ApiError | undefined {
  const id = submissionLanguage(tableFile, fileName, props);
  const known = id ? view(tableFile).choices.find((l) => l.id === id) : undefined;
  const configured = assignmentLanguages(limits.config);
  let why: string | undefined;
  if (!id) why = `The file name ${fileName} gives no language and props.language names none`;
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
