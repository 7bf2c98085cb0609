import type { ParticipantSeries, Question } from '@judge/contract';
import { problemLetter } from '../activity/letters';

/**
 * Whether a question or announcement has something the reader has not read: an announcement, or an
 * answer. A participant's own question waiting for its answer holds nothing new, so it is neither
 * counted nor marked read (a read mark is never cleared, and the answer must still count when it comes).
 */
export function needsReading(q: Question): boolean {
  return !q.isRead && (q.kind === 'announcement' || !!q.answer);
}

/** The number on the Questions tab. */
export function unreadCount(questions: readonly Question[] | undefined): number {
  return questions?.filter(needsReading).length ?? 0;
}

/** What a question is about, as the ask form's one select names it: the activity, a series or an assignment. */
export type Subject = { kind: 'activity' } | { kind: 'series'; seriesId: string } | { kind: 'problem'; problemId: string };

export function subjectValue(s: Subject): string {
  return s.kind === 'activity' ? '' : s.kind === 'series' ? `s:${s.seriesId}` : `p:${s.problemId}`;
}

/** The select's value back to a subject; anything unknown is the whole activity. */
export function parseSubject(value: string | null | undefined): Subject {
  if (value?.startsWith('s:') && value.length > 2) return { kind: 'series', seriesId: value.slice(2) };
  if (value?.startsWith('p:') && value.length > 2) return { kind: 'problem', problemId: value.slice(2) };
  return { kind: 'activity' };
}

/** The body of askQuestion for a subject: a problem names only its assignment (the server fills in its series). */
export function subjectFields(s: Subject): { seriesId?: string; problemId?: string } {
  return s.kind === 'series' ? { seriesId: s.seriesId } : s.kind === 'problem' ? { problemId: s.problemId } : {};
}

export interface SubjectOption {
  value: string;
  series?: string;
  letter?: string;
  name: string;
}

/** The series and problems a participant may ask about, in the order of the problems page. */
export function subjectOptions(series: readonly ParticipantSeries[] | undefined): SubjectOption[] {
  const out: SubjectOption[] = [];
  for (const s of series ?? []) {
    out.push({ value: subjectValue({ kind: 'series', seriesId: s.id }), name: s.name });
    const problems = [...(s.problems ?? [])].sort((a, b) => a.order - b.order);
    problems.forEach((p, i) => out.push({ value: subjectValue({ kind: 'problem', problemId: p.id }), series: s.name, letter: problemLetter(i), name: p.name }));
  }
  return out;
}

/** Announcements first (they concern everybody), then the questions; each part newest first. */
export function ordered(questions: readonly Question[]): Question[] {
  const newest = (a: Question, b: Question) => b.createdAt.localeCompare(a.createdAt);
  return [...questions.filter((q) => q.kind === 'announcement').sort(newest), ...questions.filter((q) => q.kind === 'question').sort(newest)];
}
