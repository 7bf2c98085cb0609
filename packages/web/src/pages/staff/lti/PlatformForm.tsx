import type { LtiPlatform } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useFormSend } from '../../../components/useFormSend';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { CheckField, TextField } from '../activities/fields';
import { fieldErrors, Refused } from '../providers/Refused';
import { draftOf, EMPTY_PLATFORM, requestOf, type PlatformDraft } from './draft';

/** The refusals of this page in our words (the server's detail follows them). */
export const LTI_WORDS: Record<string, MessageKey> = {
  'lti.platform.duplicate': 'staff.lti.refused.duplicate',
  'lti.platform.url.insecure': 'staff.lti.refused.insecure',
  'lti.platform.identityNamespace.required': 'staff.lti.refused.namespace',
  'lti.platform.inUse': 'staff.lti.refused.inUse',
  'lti.link.taken': 'staff.lti.refused.linkTaken',
  validation_failed: 'staff.lti.refused.invalid',
};

type Set = (patch: Partial<PlatformDraft>) => void;
type Errors = Record<string, string[]>;

/** The registration: who the platform is and the judge's client and deployment there. */
function WhoFields({ d, set, errors }: { d: PlatformDraft; set: Set; errors: Errors }) {
  const t = useT();
  const text = (k: 'displayName' | 'clientId' | 'deploymentId', max: number, autoFocus = false) => (
    <TextField label={t(`staff.lti.${k}`)} hint={t(`staff.lti.${k}.hint`)} value={d[k]} required maxLength={max} autoFocus={autoFocus} errors={errors[k]} onChange={(v) => set({ [k]: v })} />
  );
  return (
    <fieldset>
      <legend>{t('staff.lti.form.who')}</legend>
      {text('displayName', 128, true)}
      <TextField label={t('staff.lti.issuer')} hint={t('staff.lti.issuer.hint')} type="url" value={d.issuer} required maxLength={500} errors={errors.issuer} onChange={(v) => set({ issuer: v })} />
      {text('clientId', 256)}
      {text('deploymentId', 256)}
      <CheckField label={t('staff.lti.enabled')} hint={t('staff.lti.enabled.hint')} checked={d.enabled} onChange={(v) => set({ enabled: v })} />
    </fieldset>
  );
}

/** The platform's three URLs. */
function UrlFields({ d, set, errors }: { d: PlatformDraft; set: Set; errors: Errors }) {
  const t = useT();
  const url = (k: 'keySetUrl' | 'authTokenUrl' | 'authLoginUrl') => (
    <TextField label={t(`staff.lti.${k}`)} hint={t(`staff.lti.${k}.hint`)} type="url" value={d[k]} required maxLength={500} errors={errors[k]} onChange={(v) => set({ [k]: v })} />
  );
  return (
    <fieldset>
      <legend>{t('staff.lti.form.urls')}</legend>
      <p className="muted field-help">{t('staff.lti.form.urls.intro')}</p>
      {url('keySetUrl')}
      {url('authTokenUrl')}
      {url('authLoginUrl')}
    </fieldset>
  );
}

/** Whether the platform makes accounts for the people it launches, and how it names them. */
function AccountFields({ d, set, errors }: { d: PlatformDraft; set: Set; errors: Errors }) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('staff.lti.form.accounts')}</legend>
      <CheckField label={t('staff.lti.isIdentityAuthority')} hint={t('staff.lti.isIdentityAuthority.hint')} checked={d.isIdentityAuthority} errors={errors.isIdentityAuthority} onChange={(v) => set({ isIdentityAuthority: v })} />
      <TextField
        label={t('staff.lti.identityNamespace')}
        hint={t('staff.lti.identityNamespace.hint')}
        value={d.identityNamespace}
        required={d.isIdentityAuthority}
        maxLength={32}
        autoCapitalize="none"
        spellCheck={false}
        errors={errors.identityNamespace}
        onChange={(v) => set({ identityNamespace: v })}
      />
      <TextField label={t('staff.lti.usernameClaim')} hint={t('staff.lti.usernameClaim.hint')} value={d.usernameClaim} maxLength={200} spellCheck={false} errors={errors.usernameClaim} onChange={(v) => set({ usernameClaim: v })} />
    </fieldset>
  );
}

/**
 * Registers an LMS or changes its registration (PUT replaces it). A refusal is said above the
 * buttons and under the fields it is about; the form keeps what was typed.
 */
export function PlatformForm({ editing, done }: { editing?: LtiPlatform; done(message: string, created?: LtiPlatform): void }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [d, setD] = useState<PlatformDraft>(() => (editing ? draftOf(editing) : EMPTY_PLATFORM));
  const set: Set = (patch) => setD((x) => ({ ...x, ...patch }));
  const send = useFormSend();
  const duplicate = { field: 'deploymentId', text: t('staff.lti.field.duplicate') };
  const errors = fieldErrors(send.error, { 'lti.platform.duplicate': duplicate });
  const onSubmit = send.submit(async () => {
    const body = requestOf(d);
    const saved = editing ? await call(ops.updateLtiPlatform, { params: { id: editing.id }, body }) : await call(ops.createLtiPlatform, { body });
    void qc.invalidateQueries({ queryKey: keys.ltiPlatforms });
    done(t(editing ? 'staff.lti.savedNow' : 'staff.lti.createdNow', { name: saved.displayName }), editing ? undefined : saved);
  });
  return (
    <form className="form staff-form platform-form card" onSubmit={onSubmit} aria-labelledby={`${id}-h`} data-platform-form={editing?.id ?? 'new'}>
      <h3 id={`${id}-h`}>{editing ? t('staff.lti.editTitle', { name: editing.displayName }) : t('staff.lti.createTitle')}</h3>
      {!editing && <p className="muted field-help">{t('staff.lti.form.intro')}</p>}
      <WhoFields d={d} set={set} errors={errors} />
      <UrlFields d={d} set={set} errors={errors} />
      <AccountFields d={d} set={set} errors={errors} />
      <Refused error={send.error} words={LTI_WORDS} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={send.busy}>
          {editing ? t('staff.lti.save') : t('staff.lti.create')}
        </button>
        <button type="button" onClick={() => done('')}>
          {t('staff.cancel')}
        </button>
      </div>
    </form>
  );
}
