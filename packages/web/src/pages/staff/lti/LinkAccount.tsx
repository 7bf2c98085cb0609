import type { LtiPlatform, UserLookup } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useState } from 'react';
import { call } from '../../../api/client';
import { Labelled } from '../../../components/Labelled';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { fieldErrors, Refused } from '../providers/Refused';
import { UserPicker, userLabel } from '../roles/UserPicker';
import { LTI_WORDS } from './PlatformForm';
import '../roles/user-picker.css';

/**
 * Links an account to a person of the platform (POST /lti/platforms/{id}/links): the subject
 * (their `sub`, which the judge's refusal page showed them) and the account, found by search.
 * The way in for the people of a platform that makes no accounts.
 */
export function LinkAccount({ p }: { p: LtiPlatform }) {
  const t = useT();
  const [subject, setSubject] = useState('');
  const [user, setUser] = useState<UserLookup | null>(null);
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const errors = fieldErrors(send.error, { 'lti.link.taken': { field: 'subject', text: t('staff.lti.link.taken') } });
  const onSubmit = send.submit(async () => {
    setSaid('');
    await call(ops.linkLtiAccount, { params: { id: p.id }, body: { subject: subject.trim(), userId: user!.id } });
    setSaid(t('staff.lti.link.done', { user: userLabel(user!), subject: subject.trim(), name: p.displayName }));
    setSubject('');
    setUser(null);
  });
  return (
    <form className="form staff-form link-form" onSubmit={onSubmit} aria-label={t('staff.lti.link.titleFor', { name: p.displayName })} data-link-form={p.id}>
      <p className="muted field-help">{t(p.isIdentityAuthority ? 'staff.lti.link.introAuthority' : 'staff.lti.link.intro')}</p>
      <Labelled label={t('staff.lti.link.subject')} hint={t('staff.lti.link.subject.hint')} errors={errors.subject}>
        {(c) => <input {...c} value={subject} required maxLength={255} spellCheck={false} autoComplete="off" onChange={(e) => setSubject(e.target.value)} />}
      </Labelled>
      <UserPicker chosen={user} choose={setUser} label={t('staff.lti.link.user')} />
      {errors.userId && <p className="field-error">{errors.userId.join(' ')}</p>}
      <Refused error={send.error} words={LTI_WORDS} />
      <div className="form-actions">
        <button type="submit" disabled={send.busy || !subject.trim() || !user}>
          {t('staff.lti.link.submit')}
        </button>
      </div>
      <p role="status">{said}</p>
    </form>
  );
}
