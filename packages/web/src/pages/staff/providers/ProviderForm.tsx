import type { IdentityProvider } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useFormSend } from '../../../components/useFormSend';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { draftOf, EMPTY_PROVIDER, requestOf, type ProviderDraft } from './draft';
import { AccountLinks, DeletionChannel, ProviderBasics } from './ProviderFields';
import { fieldErrors, Refused } from './Refused';
import { RolesFieldset } from './RolesFieldset';

/** The refusals of these forms in our words (the server's detail follows them). */
export const PROVIDER_WORDS: Record<string, MessageKey> = {
  'provider.slug.taken': 'staff.providers.refused.slugTaken',
  'provider.rule.template.unknown': 'staff.providers.refused.ruleUnknown',
  'provider.rule.administrator': 'staff.providers.refused.ruleAdministrator',
  'provider.rule.excess': 'staff.providers.refused.ruleExcess',
  'provider.defaultTemplate.required': 'staff.providers.refused.defaultRequired',
  'provider.issuer.insecure': 'staff.providers.refused.issuerInsecure',
  'provider.linked': 'staff.providers.refused.linked',
  validation_failed: 'staff.providers.refused.invalid',
};

/** Refusals that name no member, put under the field they are about. */
function useByCode() {
  const t = useT();
  return {
    'provider.slug.taken': { field: 'slug', text: t('staff.providers.field.slugTaken') },
    'provider.rule.administrator': { field: 'mappingRules', text: t('staff.providers.refused.ruleAdministrator') },
    'provider.rule.excess': { field: 'mappingRules', text: t('staff.providers.refused.ruleExcess') },
  };
}

interface Props {
  /** The provider changed; undefined to add one. */
  editing?: IdentityProvider;
  /** Closes the form: with what was saved and a sentence to say, or with nothing when cancelled. */
  done(message: string): void;
}

/**
 * Adds an identity provider or replaces one (PUT sends every member; a secret left empty is kept).
 * A refusal is said above the buttons and under the fields it is about, and the form keeps what
 * was typed.
 */
export function ProviderForm({ editing, done }: Props) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [d, setD] = useState<ProviderDraft>(() => (editing ? draftOf(editing) : EMPTY_PROVIDER));
  const set = (patch: Partial<ProviderDraft>) => setD((x) => ({ ...x, ...patch }));
  const send = useFormSend();
  const byCode = useByCode();
  const errors = fieldErrors(send.error, byCode);
  const onSubmit = send.submit(async () => {
    const body = requestOf(d);
    const saved = editing ? await call(ops.updateProvider, { params: { id: editing.id }, body }) : await call(ops.createProvider, { body });
    void qc.invalidateQueries({ queryKey: keys.providers });
    // the sign-in page lists the enabled providers from GET /instance
    void qc.invalidateQueries({ queryKey: keys.instance });
    done(t(editing ? 'staff.providers.savedNow' : 'staff.providers.createdNow', { name: saved.displayName }));
  });
  const part = { d, set, errors, editing };
  return (
    <form className="form staff-form provider-form card" onSubmit={onSubmit} aria-labelledby={`${id}-h`} data-provider-form={editing?.slug ?? 'new'}>
      <h3 id={`${id}-h`}>{editing ? t('staff.providers.editTitle', { name: editing.displayName }) : t('staff.providers.createTitle')}</h3>
      <ProviderBasics {...part} />
      <RolesFieldset d={d} set={set} errors={errors} />
      <AccountLinks {...part} />
      <DeletionChannel {...part} />
      <Refused error={send.error} words={PROVIDER_WORDS} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={send.busy}>
          {editing ? t('staff.providers.save') : t('staff.providers.create')}
        </button>
        <button type="button" onClick={() => done('')}>
          {t('staff.cancel')}
        </button>
      </div>
    </form>
  );
}
