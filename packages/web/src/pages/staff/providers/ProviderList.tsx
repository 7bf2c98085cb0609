import type { IdentityProvider } from '@judge/contract';
import { useState } from 'react';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { CopyValue } from './CopyValue';
import { PROVIDER_WORDS, ProviderForm } from './ProviderForm';
import { useDeleteProvider, useDisableProvider, useProvider } from './queries';
import { RemoveOrDisable } from './RemoveOrDisable';

/** The form for one provider, filled from the server's copy as it is now. */
function ProviderEditor({ id, done }: { id: string; done(message: string): void }) {
  const p = useProvider(id);
  if (p.isPending) return <Loading />;
  if (p.isError) return <ErrorBox error={p.error} />;
  return <ProviderForm editing={p.data} done={done} />;
}

function ProviderFacts({ p }: { p: IdentityProvider }) {
  const t = useT();
  return (
    <>
      <dl className="admin-facts">
        <dt>{t('staff.providers.slug')}</dt>
        <dd>
          <code>{p.slug}</code>
        </dd>
        <dt>{t('staff.providers.issuer')}</dt>
        <dd>{p.issuer}</dd>
        <dt>{t('staff.providers.clientId')}</dt>
        <dd>
          {p.clientId} <span className="muted">({t(p.hasClientSecret ? 'staff.providers.withSecret' : 'staff.providers.publicClient')})</span>
        </dd>
        <dt>{t('staff.providers.linked')}</dt>
        <dd data-linked={p.linkedAccounts}>{p.linkedAccounts}</dd>
        <dt>{t('staff.providers.rules')}</dt>
        <dd>{p.mappingRules.length ? p.mappingRules.map((r) => `${r.claimValue} → ${r.templateName}`).join(', ') : t('staff.providers.rules.none')}</dd>
        <dt>{t('staff.providers.unmapped')}</dt>
        <dd>{p.unmappedBehavior === 'deny' ? t('staff.providers.unmapped.deny') : t('staff.providers.unmapped.given', { role: p.defaultTemplateName ?? '' })}</dd>
      </dl>
      <dl className="copy-values">
        <CopyValue name="callback" label={t('staff.providers.callback')} value={`${window.location.origin}${p.callbackPath}`} copyLabel={t('staff.providers.callback.copyFor', { name: p.displayName })} />
      </dl>
    </>
  );
}

/** Removing a provider, asked first; refused while accounts are linked, with switching it off offered instead. */
function RemoveProvider({ p, said }: { p: IdentityProvider; said(message: string): void }) {
  const t = useT();
  const remove = useDeleteProvider(p, () => said(t('staff.providers.deletedNow', { name: p.displayName })));
  const disable = useDisableProvider(p, () => (remove.reset(), said(t('staff.providers.disabledNow', { name: p.displayName }))));
  const labels = {
    remove: t('staff.providers.delete'),
    confirm: t('staff.providers.deleteConfirm', { name: p.displayName }),
    yes: t('staff.providers.deleteYes'),
    disableInstead: t('staff.providers.disableInstead'),
  };
  return <RemoveOrDisable enabled={p.enabled} remove={remove} disable={disable} words={PROVIDER_WORDS} labels={labels} />;
}

function ProviderCard({ p, said }: { p: IdentityProvider; said(message: string): void }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  if (editing) return <li className="provider-item">{<ProviderEditor id={p.id} done={(m) => (setEditing(false), said(m))} />}</li>;
  return (
    <li className="card provider-item" data-provider={p.slug}>
      <header className="provider-head">
        <h3>{p.displayName}</h3>
        <span className={p.enabled ? 'badge on' : 'badge off'}>{t(p.enabled ? 'staff.providers.on' : 'staff.providers.off')}</span>
      </header>
      <ProviderFacts p={p} />
      <div className="confirm">
        <button type="button" onClick={() => (said(''), setEditing(true))} aria-label={t('staff.providers.editNamed', { name: p.displayName })}>
          {t('staff.providers.edit')}
        </button>
        <RemoveProvider p={p} said={said} />
      </div>
    </li>
  );
}

export function ProviderList({ providers, said }: { providers: readonly IdentityProvider[]; said(message: string): void }) {
  const t = useT();
  if (!providers.length) return <p className="muted">{t('staff.providers.none')}</p>;
  return (
    <ul className="provider-list">
      {providers.map((p) => (
        <ProviderCard key={p.id} p={p} said={said} />
      ))}
    </ul>
  );
}
