import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';

type State = 'active' | 'disabled' | 'missing';
const stateLabel = (s: State): MessageKey => `staff.look.redirects.state.${s}`;

/** Whether the sign-in and registration pages go straight to an identity provider, and whether that holds now. */
export function RedirectsCard() {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const redirects = useQuery({ queryKey: ['instance-redirects'], queryFn: () => call(ops.getRedirects) });
  // every provider, enabled or not: a redirect may be set before the provider is switched on
  const providers = useQuery({ queryKey: ['identity-providers'], queryFn: () => call(ops.listProviders) });
  const [signIn, setSignIn] = useState<string | undefined>(undefined);
  const [register, setRegister] = useState<string | undefined>(undefined);
  const send = useFormSend();
  const current = { signIn: signIn ?? redirects.data?.signIn?.slug ?? '', register: register ?? redirects.data?.register?.slug ?? '' };
  const onSave = send.submit(async () => {
    qc.setQueryData(keys.instance, await call(ops.updateInstance, { body: { signInRedirectProvider: current.signIn, registerRedirectProvider: current.register } }));
    await redirects.refetch();
  });
  const select = (which: 'signIn' | 'register', set: (v: string) => void) => {
    const r = redirects.data?.[which];
    return (
      <>
        <label htmlFor={`${id}-${which}`}>{t(which === 'signIn' ? 'staff.look.redirects.signIn' : 'staff.look.redirects.register')}</label>
        <select id={`${id}-${which}`} value={current[which]} onChange={(e) => set(e.target.value)} aria-describedby={r ? `${id}-${which}-state` : undefined}>
          <option value="">{t('staff.look.redirects.none')}</option>
          {providers.data?.map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.displayName}
            </option>
          ))}
        </select>
        {r && (
          <small id={`${id}-${which}-state`} className={r.state === 'active' ? 'muted' : 'field-error'}>
            {r.displayName}: {t(stateLabel(r.state))}
          </small>
        )}
      </>
    );
  };
  return (
    <section className="card admin-card" id="look-redirects" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.look.redirects')}</h2>
      <p className="muted">{t('staff.look.redirects.help')}</p>
      {providers.data?.length === 0 && <p className="notice">{t('staff.look.redirects.noProviders')}</p>}
      {(redirects.isError || providers.isError) && <ErrorBox error={redirects.error ?? providers.error} />}
      <form className="form admin-form" onSubmit={onSave}>
        {select('signIn', setSignIn)}
        {select('register', setRegister)}
        {send.error !== null && <ErrorBox error={send.error} />}
        <button type="submit" className="primary" disabled={send.busy || !providers.data}>
          {t('staff.look.redirects.save')}
        </button>
      </form>
    </section>
  );
}
