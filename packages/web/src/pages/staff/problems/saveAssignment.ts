import type { Series } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { call } from '../../../api/client';
import { configOf, inOrder, moveTo, pointsOf, type AssignmentDraft } from './assignment';

/** Puts the assignment at the draft's letter, when the series has it elsewhere. */
async function placeAt(series: Series, assignmentId: string, letter: number): Promise<Series> {
  const ids = inOrder(series.problems).map((p) => p.id);
  if (ids.indexOf(assignmentId) === letter) return series;
  return call(ops.reorderSeriesProblems, { params: { seriesId: series.id }, body: { orderedIds: moveTo(ids, assignmentId, letter) } });
}

/** Assigns a problem of the library to the series with the draft's slug, limits, points and languages, at its letter. */
export async function attach(series: Series, problemId: string, d: AssignmentDraft): Promise<Series> {
  const config = configOf(d, undefined);
  const points = pointsOf(d);
  const after = await call(ops.attachProblem, {
    params: { seriesId: series.id },
    body: { problemId, ...(d.slug.trim() ? { slug: d.slug.trim() } : {}), ...(config ? { config } : {}), ...(points !== null ? { maxPoints: points } : {}) },
  });
  const known = new Set(series.problems.map((p) => p.id));
  const added = after.problems.find((p) => !known.has(p.id));
  return added ? placeAt(after, added.id, d.letter) : after;
}

/** Changes an assignment to the draft: its slug, limits, points and languages (an empty field clears), and its letter. */
export async function update(series: Series, assignmentId: string, d: AssignmentDraft): Promise<Series> {
  const sp = series.problems.find((p) => p.id === assignmentId)!;
  const after = await call(ops.updateAssignment, {
    params: { assignmentId },
    body: { problemId: sp.problemId, slug: d.slug.trim(), config: configOf(d, sp.config), maxPoints: pointsOf(d) },
  });
  return placeAt(after, assignmentId, d.letter);
}
