import type { ParticipantProblem } from '@judge/contract';
import type { MessageKey, Params } from '../../i18n/catalogue';
import { guessFromCode } from './guessCode';
import { guessLanguage } from './languages';

/** A reason in words; `blocking`: the submit button stays off while it holds. */
export interface Notice {
  key: MessageKey;
  params?: Params;
  blocking: boolean;
}

export interface Pending {
  /** The chosen files (none: the editor's code is sent). */
  files: { name: string; size: number }[];
  codeBytes: number;
  language: string;
  /** The editor's text (sent when no file is chosen). */
  code?: string;
}

export type Limits = Pick<ParticipantProblem, 'canSubmit' | 'submissionsLeft' | 'allowedLanguages' | 'maxUploadBytes' | 'maxAttachments'>;

/** Whether anything may be sent here at all: the problem's own state, before anything is typed. */
export function closedReason(p: Limits): Notice | null {
  if (p.submissionsLeft === 0) return { key: 'submit.refuse.limit', blocking: true };
  if (!p.canSubmit) return { key: 'submit.refuse.closed', blocking: true };
  if (p.allowedLanguages.length === 0) return { key: 'submit.refuse.noLanguage', blocking: true };
  return null;
}

/**
 * What the server would refuse, said before sending (the same rules: size per file against
 * maxUploadBytes, the number of files against maxAttachments, a language from the allowed list),
 * and what is worth a word without blocking (a file name no allowed language claims).
 */
export function noticesBefore(p: Limits, s: Pending): Notice[] {
  const closed = closedReason(p);
  if (closed) return [closed];
  const out: Notice[] = [];
  const max = p.maxUploadBytes;
  if (s.files.length > p.maxAttachments) out.push({ key: 'submit.refuse.tooMany', params: { count: p.maxAttachments }, blocking: true });
  for (const f of s.files) if (f.size > max) out.push({ key: 'submit.refuse.fileTooLarge', params: { name: f.name, ...sizes(f.size, max) }, blocking: true });
  if (!s.files.length && s.codeBytes > max) out.push({ key: 'submit.refuse.codeTooLarge', params: sizes(s.codeBytes, max), blocking: true });
  if (!p.allowedLanguages.some((l) => l.id === s.language)) out.push({ key: 'submit.refuse.pickLanguage', blocking: true });
  const looks = !s.files.length && s.code ? guessFromCode(s.code, p.allowedLanguages, s.language) : undefined;
  if (looks) {
    const chosen = p.allowedLanguages.find((l) => l.id === s.language)?.name ?? s.language;
    out.push({ key: looks.language ? 'submit.hint.looksLike' : 'submit.hint.looksLikeOther', params: { family: looks.family, chosen, name: looks.language?.name ?? '' }, blocking: false });
  }
  if (s.files.length && !guessLanguage(s.files.map((f) => f.name), p.allowedLanguages)) {
    out.push({ key: 'submit.hint.noMatch', params: { allowed: p.allowedLanguages.map((l) => l.name).join(', ') }, blocking: false });
  }
  return out;
}

/** A size over a limit and the limit, exact where rounding would make them read the same. */
function sizes(size: number, max: number): { size: string; max: string } {
  const [a, b] = [bytes(size), bytes(max)];
  return a === b ? { size: `${size} B`, max: `${max} B` } : { size: a, max: b };
}

/** A size as people read it: 812 B, 64 KiB, 1.5 MiB. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${+(n / 1024 / 1024).toFixed(1)} MiB`;
}
