import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { planClassList, planKind, type Planned } from './class-list-plan';
import { ClassListPreview } from './ClassListPreview';
import { importClassList, type ImportProgress } from './import-class-list';
import { usePeople } from './issued';
import { builtIn, useActivityRoles, useMembers } from './queries';

/**
 * A class list (the school office's CSV) chosen in the browser: read and checked here, shown as what
 * will happen, then its new accounts created and every account enrolled as a participant.
 */
export function ClassListPanel({ mayCreate }: { mayCreate: boolean }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const { activity, addIssued } = usePeople();
  const members = useMembers(activity.id);
  const roles = useActivityRoles(activity.id);
  const input = useRef<HTMLInputElement>(null);
  const [planned, setPlanned] = useState<Planned | null>(null);
  const [reading, setReading] = useState(false);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState('');

  const choose = async (file: File | undefined) => {
    setPlanned(null);
    setError(null);
    setSaid('');
    if (!file) return;
    setReading(true);
    try {
      setPlanned(await planClassList(file, members.data ?? []));
    } catch (e) {
      setError(e);
    } finally {
      setReading(false);
    }
  };

  const run = async () => {
    if (!planned?.ok) return;
    const participant = builtIn(roles.data, 'participant');
    if (!participant) return;
    const plan = planned.plan;
    setError(null);
    setProgress({ done: 0, total: plan.fresh.length + plan.enrol.length });
    try {
      await importClassList(plan, activity.id, participant.id, (c) => addIssued([c]), setProgress);
      const kind = planKind(plan.fresh.length, plan.enrol.length);
      const count = kind === 'create' ? plan.fresh.length : plan.enrol.length;
      setSaid(kind === 'both' ? t('staff.people.csv.done', { created: plan.fresh.length, enrolled: plan.enrol.length }) : t(`staff.people.csv.done.${kind}`, { count }));
      setPlanned(null);
      if (input.current) input.current.value = '';
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
      void qc.invalidateQueries({ queryKey: keys.staffMembers(activity.id) });
      void qc.invalidateQueries({ queryKey: keys.staffAllUsers });
    }
  };

  return (
    <section className="people-csv" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('staff.people.csv.title')}</h3>
      <p className="muted">{t(mayCreate ? 'staff.people.csv.about' : 'staff.people.csv.aboutEnrolOnly')}</p>
      <label htmlFor={`${id}-file`} className="people-file">
        {t('staff.people.csv.file')}
      </label>
      <input id={`${id}-file`} ref={input} type="file" accept=".csv,.txt,text/csv" disabled={!!progress} onChange={(e) => void choose(e.target.files?.[0])} />
      {reading && <p role="status">{t('staff.people.csv.reading')}</p>}
      {planned && <ClassListPreview planned={planned} mayCreate={mayCreate} busy={!!progress} onRun={() => void run()} />}
      <p role="status" aria-live="polite">
        {progress && t('staff.people.csv.progress', { done: progress.done, total: progress.total })}
        {said}
      </p>
      {error !== null && <ErrorBox error={error} title={t('staff.people.csv.stopped')} />}
      <JudgectlHint command={`judgectl users import class.csv --activity ${activity.slug} --enrol-existing`} />
    </section>
  );
}
