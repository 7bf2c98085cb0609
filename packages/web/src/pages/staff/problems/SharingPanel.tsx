import type { Problem } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useMay } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { idsOf } from './sharedWith';
import { JudgectlHint } from '../JudgectlHint';

type Visibility = Problem['visibility'];
const CHOICES: Visibility[] = ['private', 'shared', 'instance'];


/**
 * Who may read the problem (private, shared with some users by id, or everyone with problem
 * access on the instance), and archiving: an archived problem leaves the lists and takes no new
 * versions or assignments. Each only for holders of its permission.
 */
export function SharingPanel({ problem }: { problem: Problem }) {
  const t = useT();
  const mayShare = useMay(undefined, 'problem:share');
  const mayArchive = useMay(undefined, 'problem:archive');
  if (!mayShare && !mayArchive) return null;
  return (
    <section className="card" aria-labelledby="sharing-title">
      <h2 id="sharing-title">{t('staff.problems.sharing.title')}</h2>
      {mayShare && <VisibilityForm problem={problem} />}
      {mayShare && <JudgectlHint command={`judgectl problems share ${problem.slug} --private|--instance|--with USER,USER`} />}
      {mayArchive && <ArchiveButton problem={problem} />}
      {mayArchive && <JudgectlHint command={`judgectl problems archive ${problem.slug} [--restore]`} />}
    </section>
  );
}

function VisibilityForm({ problem }: { problem: Problem }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [visibility, setVisibility] = useState<Visibility>(problem.visibility);
  const [users, setUsers] = useState(problem.sharedWith.join('\n'));
  useEffect(() => {
    setVisibility(problem.visibility);
    setUsers(problem.sharedWith.join('\n'));
  }, [problem.visibility, problem.sharedWith]);
  const send = useFormSend();
  const save = send.submit(async () => {
    const sharedWith = visibility === 'shared' ? await idsOf(users, (name) => new Error(t('staff.problems.sharing.noUser', { name }))) : [];
    await call(ops.setProblemVisibility, { params: { id: problem.id }, body: { visibility, ...(visibility === 'shared' ? { sharedWith } : {}) } });
    await qc.invalidateQueries({ queryKey: ['staffProblem'] });
    await qc.invalidateQueries({ queryKey: ['staffProblems'] });
  });
  return (
    <form className="form" onSubmit={save}>
      <fieldset className="choices">
        <legend>{t('staff.problems.sharing.who')}</legend>
        {CHOICES.map((v) => (
          <label key={v} className="check">
            <input type="radio" name={`${id}-visibility`} value={v} checked={visibility === v} onChange={() => setVisibility(v)} />
            {t(`staff.problems.sharing.${v}`)}
          </label>
        ))}
      </fieldset>
      {visibility === 'shared' && (
        <>
          <label htmlFor={`${id}-users`}>{t('staff.problems.sharing.users')}</label>
          <textarea id={`${id}-users`} rows={3} value={users} onChange={(e) => setUsers(e.target.value)} />
        </>
      )}
      <button type="submit" disabled={send.busy}>
        {t('staff.problems.sharing.save')}
      </button>
      {send.sent && <p role="status">{t('staff.problems.sharing.saved')}</p>}
      {send.error !== null && <ErrorBox error={send.error} />}
    </form>
  );
}

function ArchiveButton({ problem }: { problem: Problem }) {
  const t = useT();
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const archived = !!problem.archivedAt;
  const toggle = async () => {
    setError(null);
    try {
      await call(ops.setProblemArchived, { params: { id: problem.id }, body: { archived: !archived } });
      await qc.invalidateQueries({ queryKey: keys.staffProblem(problem.id) });
      await qc.invalidateQueries({ queryKey: ['staffProblems'] });
    } catch (e) {
      setError(e);
    }
  };
  return (
    <div className="archive">
      <p className="muted">{t(archived ? 'staff.problems.archive.isArchived' : 'staff.problems.archive.explain')}</p>
      <button type="button" onClick={() => void toggle()}>
        {t(archived ? 'staff.problems.archive.restore' : 'staff.problems.archive.do')}
      </button>
      {error !== null && <ErrorBox error={error} />}
    </div>
  );
}
