import type { IssuedCredentials } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { useAllActivities } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { ActivitySelect } from '../ActivitySelect';
import { JudgectlHint } from '../JudgectlHint';
import { temporaryBody, type TemporaryDraft } from './temporary';
import { TemporaryIssued } from './TemporaryIssued';

const EMPTY: TemporaryDraft = { prefix: '', count: '10', expiresAt: '', activity: '' };

/**
 * Numbered temporary accounts for an event (guest01, guest02 …), optionally enrolled in an
 * activity; their passwords are shown once below the form, in the component's state only.
 */
export function TemporaryUsersForm() {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [d, setD] = useState(EMPTY);
  const [issued, setIssued] = useState<{ prefix: string; accounts: IssuedCredentials[] } | null>(null);
  const activities = (useAllActivities().data?.items ?? []).filter((a) => !a.archivedAt);
  const send = useFormSend();
  const onSubmit = send.submit(async () => {
    setIssued(null);
    const body = temporaryBody(d, activities.find((a) => a.slug === d.activity)?.id);
    setIssued({ prefix: body.prefix, accounts: await call(ops.createTemporaryUsers, { body }) });
    void qc.invalidateQueries({ queryKey: ['managedUsers'] });
  });
  const field = (k: 'prefix' | 'count' | 'expiresAt', label: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label htmlFor={`${id}-${k}`}>
      {label}
      <input id={`${id}-${k}`} value={d[k]} onChange={(e) => setD({ ...d, [k]: e.target.value })} {...extra} />
    </label>
  );
  const command = `judgectl users temporary --prefix ${d.prefix.trim() || 'guest'} --count ${d.count || 'N'}${d.activity ? ` --activity ${d.activity}` : ' [--activity SLUG]'} [--out FILE.csv]`;
  return (
    <section className="card admin-card" aria-labelledby={`${id}-h`} data-temporary>
      <h2 id={`${id}-h`}>{t('staff.users.temp.title')}</h2>
      <p className="muted">{t('staff.users.temp.help')}</p>
      <form className="form admin-form" onSubmit={onSubmit}>
        {/* each help under its own field, also when a phone stacks the row */}
        <div className="admin-form-row">
          <div className="admin-field">
            {field('prefix', t('staff.users.temp.prefix'), { required: true, maxLength: 40, pattern: '[A-Za-z0-9][A-Za-z0-9._\\-]*', autoComplete: 'off', 'aria-describedby': `${id}-phelp` })}
            <p id={`${id}-phelp`} className="muted field-help">
              {t('staff.users.temp.prefixHelp')}
            </p>
          </div>
          {field('count', t('staff.users.temp.count'), { type: 'number', required: true, min: 1, max: 500, inputMode: 'numeric' })}
        </div>
        <div className="admin-form-row">
          <div className="admin-field">
            {field('expiresAt', t('staff.users.temp.expires'), { type: 'datetime-local', 'aria-describedby': `${id}-ehelp` })}
            <p id={`${id}-ehelp`} className="muted field-help">
              {t('staff.users.temp.expiresHelp')}
            </p>
          </div>
          <ActivitySelect activities={activities} value={d.activity} onChange={(slug) => setD({ ...d, activity: slug })} label={t('staff.users.temp.activity')} empty={t('staff.users.temp.noActivity')} />
        </div>
        <button type="submit" className="primary" disabled={send.busy || !d.prefix.trim() || !(Number(d.count) >= 1)}>
          {t('staff.users.temp.create')}
        </button>
        {send.error !== null && <ErrorBox error={send.error} />}
      </form>
      {issued && <TemporaryIssued prefix={issued.prefix} issued={issued.accounts} onForget={() => setIssued(null)} />}
      <JudgectlHint command={command} />
    </section>
  );
}
