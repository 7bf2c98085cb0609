import { pickLanguage, type LanguageTable } from '../languages.js';
import type { ExampleSubmission, ProblemSpec } from '../problem/types.js';

/**
 * Why an example submission cannot be judged on this runner, before it is tried: no language to
 * be told from its files, a language the table does not know or whose toolchain is not installed
 * here, or one the package's `languages` leaves out. Such an example is reported as not run, not
 * as a disagreement: another runner may judge it.
 */
export function whyNotRunnable(
  sub: ExampleSubmission,
  problem: ProblemSpec,
  languages: LanguageTable,
  needsLanguage: boolean,
): { reason: string; language?: string } | undefined {
  if (!needsLanguage) return undefined;
  let lang;
  if (sub.language) {
    lang = languages.get(sub.language);
    if (!lang) return { reason: `its language ${sub.language} is not in this runner's language table`, language: sub.language };
  } else {
    for (const f of sub.files) {
      lang = pickLanguage(languages, f, null);
      if (lang) break;
    }
    if (!lang) return { reason: `no language can be told from its files (${sub.files.slice(0, 5).join(', ')}${sub.files.length > 5 ? ', ...' : ''})` };
  }
  if (!lang.present) return { reason: `${lang.name} (${lang.id}) is not installed on this runner (it needs ${lang.requires.join(', ')})`, language: lang.id };
  if (problem.languages && !problem.languages.includes(lang.id)) {
    return { reason: `${lang.name} (${lang.id}) is not among the languages problem.yaml allows (${problem.languages.join(', ')})`, language: lang.id };
  }
  return undefined;
}
