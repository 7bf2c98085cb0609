import type { SeriesProblem } from '@judge/contract';

/**
 * What the assignment form holds, as typed: the letter is the position in the series (A first),
 * limits and points empty for "the package's" (or none), languages as ICPC ids separated by commas.
 */
export interface AssignmentDraft {
  letter: number;
  slug: string;
  timeLimit: string;
  memory: string;
  points: string;
  languages: string;
}

/** The problems of a series in their order, which gives their letters. */
export const inOrder = (problems: SeriesProblem[]) => [...problems].sort((a, b) => a.order - b.order);

const text = (v: unknown) => (typeof v === 'number' ? String(v) : '');

/** The form for an assignment as it is, at its position. */
export function draftOf(sp: SeriesProblem, index: number): AssignmentDraft {
  const c = sp.config ?? {};
  return {
    letter: index,
    slug: sp.slug,
    timeLimit: text(c.timeLimitSeconds),
    memory: text(c.memoryMiB),
    points: text(sp.maxPoints),
    languages: Array.isArray(c.languages) ? c.languages.join(', ') : '',
  };
}

/** An empty form, placed after the problems the series has. */
export const emptyDraft = (count: number): AssignmentDraft => ({ letter: count, slug: '', timeLimit: '', memory: '', points: '', languages: '' });

/** The language ids typed: commas or spaces between, each once, in the order given. */
export function languagesOf(typed: string): string[] {
  return [...new Set(typed.split(/[\s,;]+/).map((l) => l.trim()).filter(Boolean))];
}

const positive = (typed: string): number | undefined => {
  const n = Number(typed.trim().replace(',', '.'));
  return typed.trim() && Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * The assignment's config with the draft's limits and languages: the judge reads
 * `timeLimitSeconds`, `memoryMiB` and `languages` there (over the package's); what the draft leaves
 * empty is taken out, and every other key of the config is kept as it was. Null when nothing is left.
 */
export function configOf(d: AssignmentDraft, base: Record<string, unknown> | undefined): Record<string, unknown> | null {
  const c: Record<string, unknown> = { ...base };
  const set = (key: string, v: unknown) => {
    if (v === undefined) delete c[key];
    else c[key] = v;
  };
  set('timeLimitSeconds', positive(d.timeLimit));
  const memory = positive(d.memory);
  set('memoryMiB', memory === undefined ? undefined : Math.round(memory));
  const langs = languagesOf(d.languages);
  set('languages', langs.length ? langs : undefined);
  return Object.keys(c).length ? c : null;
}

/** The draft's points: a whole number, or null for none. */
export function pointsOf(d: AssignmentDraft): number | null {
  const n = positive(d.points);
  return n === undefined ? null : Math.round(n);
}

/** The order of ids with id moved to position index (clamped to the list). */
export function moveTo(ids: string[], id: string, index: number): string[] {
  const rest = ids.filter((x) => x !== id);
  const at = Math.max(0, Math.min(index, rest.length));
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}
