import type { MaintenanceLevel } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox, Loading } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';

const OWN_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Each level with what it does, in words, and the word judgectl uses for it. */
export const LEVELS: { level: MaintenanceLevel; label: MessageKey; help: MessageKey; word: string }[] = [
  { level: 'open', label: 'staff.maintenance.open', help: 'staff.maintenance.open.help', word: 'off' },
  { level: 'draining', label: 'staff.maintenance.draining', help: 'staff.maintenance.draining.help', word: 'drain' },
  { level: 'closed', label: 'staff.maintenance.closed', help: 'staff.maintenance.closed.help', word: 'on' },
];

/** The maintenance level now, and a choice of the three with what each does. */
export function MaintenanceForm() {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: keys.maintenance, queryFn: () => call(ops.getMaintenance) });
  const [choice, setChoice] = useState<MaintenanceLevel | null>(null);
  const [reason, setReason] = useState('');
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const level = choice ?? q.data?.level ?? 'open';
  const labelOf = (l: MaintenanceLevel) => t(LEVELS.find((x) => x.level === l)!.label);
  const onSubmit = send.submit(async () => {
    setSaid('');
    const next = await call(ops.setMaintenance, { body: { level, ...(reason.trim() && level !== 'open' ? { reason: reason.trim() } : {}) } });
    qc.setQueryData(keys.maintenance, next);
    // the banner of this page reads /health
    void qc.invalidateQueries({ queryKey: keys.health });
    setChoice(null);
    setSaid(t('staff.maintenance.done', { level: labelOf(next.level) }));
  });
  return (
    <section className="card admin-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.maintenance.title')}</h2>
      {q.isPending && <Loading />}
      {q.isError && <ErrorBox error={q.error} />}
      {q.data && (
        <p data-level={q.data.level}>
          <strong>{t('staff.maintenance.current', { level: labelOf(q.data.level) })}</strong>
          {q.data.since && (
            <>
              {' '}
              {t('staff.maintenance.since')} <Time iso={q.data.since} timeZone={OWN_ZONE} />
            </>
          )}
          {q.data.reason && <> · {q.data.reason}</>}
        </p>
      )}
      <form className="form admin-form" onSubmit={onSubmit}>
        <fieldset className="levels">
          <legend>{t('staff.maintenance.level')}</legend>
          {LEVELS.map((l) => (
            <label key={l.level} className="level">
              <input type="radio" name={`${id}-level`} value={l.level} checked={level === l.level} onChange={() => setChoice(l.level)} />
              <span>
                <strong>{t(l.label)}</strong> <span className="muted">{t(l.help)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {level !== 'open' && (
          <label htmlFor={`${id}-reason`}>
            {t('staff.maintenance.reason')}
            <input id={`${id}-reason`} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </label>
        )}
        <button type="submit" disabled={send.busy || !q.data}>
          {t('staff.maintenance.set')}
        </button>
        {send.error !== null && <ErrorBox error={send.error} />}
        <p role="status">{said}</p>
      </form>
      <JudgectlHint command={`judgectl maintenance ${LEVELS.find((l) => l.level === level)!.word} [--reason <text>]`} />
    </section>
  );
}
