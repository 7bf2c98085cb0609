import type { InstanceSettings } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { RequireTwoFactor } from './RequireTwoFactor';

/**
 * The switches that have an effect today. requireApproval holds self-registered accounts back from
 * enrolling until staff approve them on the user's page (/staff/users/ID, which the users list
 * marks "Awaiting approval").
 */
export const SWITCHES = [
  'localRegistrationEnabled',
  'requireApproval',
  'requireConfirmedEmail',
  'allowRenameStaffAccounts',
  'allowRenameSelfRegistered',
  'keepSignedInByDefault',
  'accountDeletionEnabled',
] as const;
type Switch = (typeof SWITCHES)[number];

const LABEL: Record<Switch, { label: MessageKey; help: MessageKey }> = {
  localRegistrationEnabled: { label: 'staff.instance.localRegistrationEnabled', help: 'staff.instance.localRegistrationEnabled.help' },
  requireApproval: { label: 'staff.instance.requireApproval', help: 'staff.instance.requireApproval.help' },
  allowRenameStaffAccounts: { label: 'staff.instance.allowRenameStaffAccounts', help: 'staff.instance.allowRenameStaffAccounts.help' },
  allowRenameSelfRegistered: { label: 'staff.instance.allowRenameSelfRegistered', help: 'staff.instance.allowRenameSelfRegistered.help' },
  keepSignedInByDefault: { label: 'staff.instance.keepSignedInByDefault', help: 'staff.instance.keepSignedInByDefault.help' },
  requireConfirmedEmail: { label: 'staff.instance.requireConfirmedEmail', help: 'staff.instance.requireConfirmedEmail.help' },
  accountDeletionEnabled: { label: 'staff.instance.accountDeletionEnabled', help: 'staff.instance.accountDeletionEnabled.help' },
};

/** The judge's name and its switches; a switch is saved the moment it flips, and said so. */
export function InstanceSettingsForm({ settings }: { settings: InstanceSettings }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [name, setName] = useState(settings.name);
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const save = async (body: Partial<Record<Switch, boolean>> & { name?: string }) => {
    const next = await call(ops.updateInstance, { body });
    qc.setQueryData(keys.instance, next);
    return next;
  };
  const flip = useMutation({
    mutationFn: ({ k, on }: { k: Switch; on: boolean }) => save({ [k]: on }),
    onMutate: () => setSaid(''),
    onSuccess: (_, { k, on }) => setSaid(t('staff.instance.savedSwitch', { what: t(LABEL[k].label), state: t(on ? 'staff.instance.on' : 'staff.instance.off') })),
  });
  const onName = send.submit(async () => {
    setSaid('');
    const next = await save({ name: name.trim() });
    setSaid(t('staff.instance.savedName', { name: next.name }));
  });
  return (
    <section className="card admin-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.instance.settings')}</h2>
      <form className="form admin-form" onSubmit={onName}>
        <label htmlFor={`${id}-name`}>
          {t('staff.instance.name')}
          <input id={`${id}-name`} value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} aria-describedby={`${id}-name-help`} />
        </label>
        <p id={`${id}-name-help`} className="muted field-help">
          {t('staff.instance.nameHelp')}
        </p>
        <button type="submit" disabled={send.busy || !name.trim() || name.trim() === settings.name}>
          {t('staff.instance.saveName')}
        </button>
      </form>
      <fieldset className="switches">
        <legend>{t('staff.instance.switches')}</legend>
        <p className="muted">{t('staff.instance.switchesHelp')}</p>
        {SWITCHES.map((k) => (
          <div key={k} className="switch" data-switch={k}>
            <label className="check">
              <input
                type="checkbox"
                checked={settings[k]}
                disabled={flip.isPending}
                aria-describedby={`${id}-${k}-help`}
                onChange={(e) => flip.mutate({ k, on: e.target.checked })}
              />
              {t(LABEL[k].label)}
            </label>
            <p id={`${id}-${k}-help`} className="muted field-help">
              {t(LABEL[k].help)}
            </p>
          </div>
        ))}
      </fieldset>
      {send.error !== null && <ErrorBox error={send.error} />}
      {flip.isError && <ErrorBox error={flip.error} />}
      <p role="status">{said}</p>
      <JudgectlHint command="judgectl instance show  ·  judgectl instance set <switch> on|off  ·  judgectl instance set name <text>" />
      <RequireTwoFactor settings={settings} />
    </section>
  );
}
