import { pickLanguage, sourceExtensions, type Language, type LanguageTable } from '../languages.js';
import type { JudgeInput, SubmissionFileInput } from '../judging/types.js';

/**
 * A submission's language and entry file, as problemtools and DOMjudge choose them: the language is
 * `props.language`, else the one every source's extension names (headers such as .h and .hpp go
 * with any); of several sources the entry is `props.entry`, else a file the table names as an entry
 * (`detect.entryFiles`: `__main__.py`), else of the sources that are no library (`detect.libraryPattern`:
 * Pascal's `unit x;`) the only one, else the file named like the problem, else the one source
 * matching the table's `detect.mainPattern` (Python's `if __name__ == "__main__":`), else, for a
 * language with no such pattern, the first source (the JVM languages find their main class after
 * compiling; C and C++ compile every unit together).
 */
export type Chosen = { lang: Language; main: SubmissionFileInput } | { error: string; infrastructure?: boolean };

const extensionOf = (name: string): string => /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/** Every header extension of the table: files that accompany a source of any language. */
function headerExtensions(table: LanguageTable): Set<string> {
  return new Set([...table.languages.values()].flatMap((l) => l.detect.headers));
}

/** The language the files name, headers aside; an error naming the files when they name none or several. */
function languageOfFiles(table: LanguageTable, files: SubmissionFileInput[]): Language | { error: string } {
  const headers = headerExtensions(table);
  const sources = files.filter((f) => table.byExtension(extensionOf(f.name)) || !headers.has(extensionOf(f.name)));
  const langs = new Map<string, Language>();
  const unnamed: string[] = [];
  for (const f of sources) {
    const l = pickLanguage(table, f.name, null);
    if (l) langs.set(l.id, l);
    else unnamed.push(f.name);
  }
  if (unnamed.length || langs.size === 0) {
    const which = unnamed.length ? unnamed : files.map((f) => f.name);
    return { error: `cannot tell the language of ${which.join(', ')}: name it (props.language) or use a known file extension` };
  }
  if (langs.size > 1) return { error: `the files name several languages (${[...langs.keys()].join(', ')}): a submission is in one language` };
  return [...langs.values()][0]!;
}

/** Letters and digits only, lower case: how a file's stem is compared with the problem's name. */
const squashed = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The entry among the submission's files for `lang`, or why none can be told. */
export function chooseEntry(lang: Language, files: SubmissionFileInput[], props: Record<string, unknown> | null | undefined, problemName: string): SubmissionFileInput | { error: string } {
  const listed = files.map((f) => f.name).join(', ');
  const named = props?.entry;
  if (named !== undefined) {
    const hit = typeof named === 'string' ? files.find((f) => f.name === named) : undefined;
    return hit ?? { error: `props.entry names ${JSON.stringify(named)}, which is not among the submission's files (${listed})` };
  }
  const extensions = sourceExtensions(lang);
  const all = files.filter((f) => extensions.has(extensionOf(f.name)));
  if (all.length <= 1) return all[0] ?? files[0]!;
  // a library (Pascal's unit) is never the entry, however it is named
  const library = lang.detect.libraryPattern ? new RegExp(lang.detect.libraryPattern, 'm') : undefined;
  const programs = library ? all.filter((f) => !library.test(Buffer.from(f.bytes).toString('utf8'))) : all;
  const sources = programs.length ? programs : all;
  if (sources.length === 1) return sources[0]!;
  const byTable = sources.find((f) => lang.detect.entryFiles.includes(f.name));
  if (byTable) return byTable;
  const problem = squashed(problemName);
  const likeProblem = problem ? sources.find((f) => squashed(f.name.replace(/\.[^.]*$/, '')) === problem) : undefined;
  if (likeProblem) return likeProblem;
  if (!lang.detect.mainPattern) return sources[0]!;
  const pattern = new RegExp(lang.detect.mainPattern, 'm');
  const matching = sources.filter((f) => pattern.test(Buffer.from(f.bytes).toString('utf8')));
  if (matching.length === 1) return matching[0]!;
  return {
    error:
      `cannot tell which of ${sources.map((f) => f.name).join(', ')} is the entry point: ${matching.length ? `${matching.map((f) => f.name).join(', ')} all match` : 'none matches'} ` +
      `/${lang.detect.mainPattern}/; name the entry like the problem, or set props.entry`,
  };
}

/** The submission's language, allowed and installed, and its entry file; else why not (CE, or infrastructure). */
export function chooseLanguage(input: JudgeInput): Chosen {
  const { files, languages, props } = input;
  if (files.length === 0) return { error: 'the submission holds no files' };
  const named = typeof props?.language === 'string' && props.language ? props.language : undefined;
  let lang: Language | undefined;
  if (named) {
    lang = pickLanguage(languages, files[0]!.name, props);
    if (!lang) return { error: `the language "${named}" is not one this judge knows` };
  } else {
    const found = languageOfFiles(languages, files);
    if ('error' in found) return found;
    lang = found;
  }
  const allowed = stringList(input.config?.languages) ?? input.problem.languages;
  if (allowed && !allowed.includes(lang.id)) {
    return { error: `${lang.name} (${lang.id}) is not allowed for this problem; allowed: ${allowed.join(', ')}` };
  }
  if (!lang.present) return { error: `${lang.name} is not installed on this runner (${lang.requires.join(', ')})`, infrastructure: true };
  const main = chooseEntry(lang, files, props, input.problem.name);
  return 'error' in main ? main : { lang, main };
}
