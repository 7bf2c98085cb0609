import { extensionIndex, languageOfFile, readLanguageTableFile } from '@judge/problem-package';

/**
 * The server's view of the language table (the `languages` setting, the same file the runners
 * read): which language a submission's file extension names. Read once per file.
 */
const indexes = new Map<string, Map<string, string>>();

/** The table's language ids by extension; throws (naming the file) when the table is unreadable or invalid. */
export function languageIndex(file: string): ReadonlyMap<string, string> {
  let index = indexes.get(file);
  if (!index) {
    index = extensionIndex(readLanguageTableFile(file), file);
    indexes.set(file, index);
  }
  return index;
}

/** The language a submission names in `props.language`, else the one the table gives its file extension. */
export function submissionLanguage(tableFile: string, fileName: string, props?: Record<string, unknown> | null): string | undefined {
  return languageOfFile(languageIndex(tableFile), fileName, props);
}
