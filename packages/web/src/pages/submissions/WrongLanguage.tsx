import type { LanguageChoice, SubmissionDetail } from '@judge/contract';
import { useT } from '../../i18n/I18n';
import { guessFromCode } from '../submit/guessCode';
import { useFileText } from './files';

/**
 * A compile error of code that looks like another language (Python pasted while C was chosen):
 * says so above the compiler's words, which alone would not tell a beginner what went wrong.
 */
export function WrongLanguage({ s, language, allowed }: { s: SubmissionDetail; language: LanguageChoice | undefined; allowed: LanguageChoice[] }) {
  const t = useT();
  const failed = s.verdict === 'CE';
  const text = useFileText(failed && s.files.length === 1 ? s.files[0]!.fileId : undefined).data;
  const guess = failed && text !== undefined && language ? guessFromCode(text, allowed, language.id) : undefined;
  if (!guess || !language) return null;
  const params = { family: guess.family, chosen: language.name, name: guess.language?.name ?? '' };
  return (
    <p className="notice wrong-language" role="note">
      {t(guess.language ? 'submission.wrongLanguage' : 'submission.wrongLanguageOther', params)}
    </p>
  );
}
