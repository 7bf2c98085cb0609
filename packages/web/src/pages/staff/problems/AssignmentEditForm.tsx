import type { Series, SeriesProblem } from '@judge/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { draftOf } from './assignment';
import { AssignmentFields } from './AssignmentFields';
import { update } from './saveAssignment';

interface Props {
  activitySlug: string;
  series: Series;
  ordered: SeriesProblem[];
  index: number;
  done(): void;
}

/** An assignment's letter, slug, limits, points and languages, changed in place. */
export function AssignmentEditForm({ activitySlug, series, ordered, index, done }: Props) {
  const t = useT();
  const qc = useQueryClient();
  const sp = ordered[index]!;
  const [draft, setDraft] = useState(() => draftOf(sp, index));
  const send = useFormSend();
  const save = send.submit(async () => {
    await update(series, sp.id, draft);
    await qc.invalidateQueries({ queryKey: keys.managedSeries(activitySlug) });
    done();
  });
  return (
    <form className="form assignment-form" onSubmit={save} aria-label={t('staff.problems.assign.editTitle', { name: sp.name })}>
      <AssignmentFields draft={draft} set={setDraft} letters={ordered.length} />
      <div className="form-buttons">
        <button type="submit" className="primary" disabled={send.busy}>
          {t('staff.problems.assign.save')}
        </button>
        <button type="button" onClick={done}>
          {t('staff.cancel')}
        </button>
      </div>
      {send.error !== null && <ErrorBox error={send.error} />}
    </form>
  );
}
