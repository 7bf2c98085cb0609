import type { Series, SeriesProblem } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { problemLetter } from '../../activity/letters';
import { moveTo } from './assignment';
import { AssignmentEditForm } from './AssignmentEditForm';
import { AssignmentFacts } from './AssignmentFacts';

interface Props {
  activitySlug: string;
  series: Series;
  /** The series' problems in letter order. */
  ordered: SeriesProblem[];
  index: number;
  mayEdit: boolean;
}

/** One assignment: letter and name, what it is judged with, its links, and (for its editors) move, change and remove. */
export function AssignmentRow({ activitySlug, series, ordered, index, mayEdit }: Props) {
  const t = useT();
  const qc = useQueryClient();
  const sp = ordered[index]!;
  const letter = problemLetter(index);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const act = async (what: () => Promise<unknown>) => {
    setError(null);
    try {
      await what();
      await qc.invalidateQueries({ queryKey: keys.managedSeries(activitySlug) });
    } catch (e) {
      setError(e);
    }
  };
  const move = (to: number) => act(() => call(ops.reorderSeriesProblems, { params: { seriesId: series.id }, body: { orderedIds: moveTo(ordered.map((p) => p.id), sp.id, to) } }));
  const remove = () => act(() => call(ops.deleteAssignment, { params: { assignmentId: sp.id } }));
  const title = t('staff.problems.assign.letterName', { letter, name: sp.name });
  return (
    <li className="assignment" data-assignment={sp.slug} data-letter={letter}>
      <div className="assignment-head">
        <span className="letter" aria-hidden="true">
          {letter}
        </span>
        <h4>
          <span className="visually-hidden">{title}</span>
          <span aria-hidden="true">{sp.name}</span>
        </h4>
        <code>{sp.slug}</code>
      </div>
      <AssignmentFacts sp={sp} />
      <p className="assignment-links">
        <Link to={`/staff/problems/${sp.problemId}`}>{t('staff.problems.assign.problemPage', { letter })}</Link>
        <Link to={`/a/${encodeURIComponent(activitySlug)}/p/${encodeURIComponent(sp.slug)}`}>{t('staff.problems.assign.asParticipant', { letter })}</Link>
      </p>
      {mayEdit && (
        <div className="assignment-actions">
          <button type="button" onClick={() => void move(index - 1)} disabled={index === 0} aria-label={t('staff.problems.assign.upLabel', { letter })}>
            {t('staff.problems.assign.up')}
          </button>
          <button type="button" onClick={() => void move(index + 1)} disabled={index === ordered.length - 1} aria-label={t('staff.problems.assign.downLabel', { letter })}>
            {t('staff.problems.assign.down')}
          </button>
          <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)} aria-label={t('staff.problems.assign.editLabel', { letter })}>
            {t('staff.problems.assign.edit')}
          </button>
          {sp.submissionCount === 0 && (
            <button type="button" className="danger" onClick={() => void remove()} aria-label={t('staff.problems.assign.removeLabel', { letter })}>
              {t('staff.problems.assign.remove')}
            </button>
          )}
        </div>
      )}
      {error !== null && <ErrorBox error={error} />}
      {editing && <AssignmentEditForm activitySlug={activitySlug} series={series} ordered={ordered} index={index} done={() => setEditing(false)} />}
    </li>
  );
}
