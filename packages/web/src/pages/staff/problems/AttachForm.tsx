import type { Series } from '@judge/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { problemLetter } from '../../activity/letters';
import { emptyDraft } from './assignment';
import { AssignmentFields } from './AssignmentFields';
import { libraryQuery, useLibrary } from './queries';
import { attach } from './saveAssignment';

/** Problems offered at once; a search narrows the library to the one wanted. */
const PICK_SIZE = 50;

/** A problem of the library assigned to the series, with its letter, slug, limits, points and languages. */
export function AttachForm({ series, count }: { series: Series; count: number }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const [problemId, setProblemId] = useState('');
  const [draft, setDraft] = useState(() => emptyDraft(count));
  useEffect(() => setDraft((d) => ({ ...d, letter: Math.min(d.letter, count) })), [count]);
  const library = useLibrary(libraryQuery({ search: search.trim(), mine: false, shared: false, archived: false, page: 1 }, PICK_SIZE));
  const options = library.data?.items ?? [];
  const chosen = options.find((p) => p.id === problemId);
  const send = useFormSend();
  const save = send.submit(async () => {
    await attach(series, problemId, draft);
    await qc.invalidateQueries({ queryKey: ['managedSeries'] });
    setProblemId('');
    setDraft(emptyDraft(count + 1));
  });
  return (
    <details className="attach">
      <summary>{t('staff.problems.assign.attachTo', { series: series.name })}</summary>
      <form className="form assignment-form" onSubmit={save}>
        <label htmlFor={`${id}-search`}>{t('staff.problems.assign.searchLibrary')}</label>
        <input id={`${id}-search`} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        <label htmlFor={`${id}-problem`}>{t('staff.problems.assign.problem')}</label>
        <select id={`${id}-problem`} value={problemId} required onChange={(e) => setProblemId(e.target.value)}>
          <option value="">{t('staff.problems.assign.pick', { count: library.data?.total ?? 0 })}</option>
          {options.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.slug})
            </option>
          ))}
        </select>
        <AssignmentFields draft={draft} set={setDraft} letters={count + 1} slugDefault={chosen?.slug ?? ''} />
        <button type="submit" className="primary" disabled={!problemId || send.busy}>
          {t('staff.problems.assign.attach', { letter: problemLetter(draft.letter) })}
        </button>
        {send.sent && <p role="status">{t('staff.problems.assign.attached')}</p>}
        {send.error !== null && <ErrorBox error={send.error} />}
      </form>
    </details>
  );
}
