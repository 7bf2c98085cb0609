import type { LtiPlatform } from '@judge/contract';
import { useState, type ReactNode } from 'react';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { RemoveOrDisable } from '../providers/RemoveOrDisable';
import { LinkAccount } from './LinkAccount';
import { LTI_WORDS, PlatformForm } from './PlatformForm';
import { useDeletePlatform, useDisablePlatform, usePlatform } from './queries';
import { Registration } from './Registration';

type Said = (message: string) => void;

/** The form for one platform, filled from the server's copy as it is now. */
function PlatformEditor({ id, done }: { id: string; done: Said }) {
  const p = usePlatform(id);
  if (p.isPending) return <Loading />;
  if (p.isError) return <ErrorBox error={p.error} />;
  return <PlatformForm editing={p.data} done={done} />;
}

function PlatformFacts({ p }: { p: LtiPlatform }) {
  const t = useT();
  return (
    <dl className="admin-facts">
      <dt>{t('staff.lti.issuer')}</dt>
      <dd>{p.issuer}</dd>
      <dt>{t('staff.lti.clientId')}</dt>
      <dd>{p.clientId}</dd>
      <dt>{t('staff.lti.deploymentId')}</dt>
      <dd>{p.deploymentId}</dd>
      <dt>{t('staff.lti.keySetUrl')}</dt>
      <dd>{p.keySetUrl}</dd>
      <dt>{t('staff.lti.authTokenUrl')}</dt>
      <dd>{p.authTokenUrl}</dd>
      <dt>{t('staff.lti.authLoginUrl')}</dt>
      <dd>{p.authLoginUrl}</dd>
      <dt>{t('staff.lti.accounts')}</dt>
      <dd>{p.isIdentityAuthority ? t('staff.lti.accounts.made', { namespace: p.identityNamespace ?? '', claim: p.usernameClaim }) : t('staff.lti.accounts.linked')}</dd>
    </dl>
  );
}

/** A fold of the card whose content is made (and its data asked for) only while it is open. */
function Fold({ summary, initiallyOpen = false, children }: { summary: string; initiallyOpen?: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <details className="platform-fold" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && children}
    </details>
  );
}

/** Removing a platform, asked first; refused while it is in use, with switching it off offered instead. */
function RemovePlatform({ p, said }: { p: LtiPlatform; said: Said }) {
  const t = useT();
  const remove = useDeletePlatform(p, () => said(t('staff.lti.deletedNow', { name: p.displayName })));
  const disable = useDisablePlatform(p, () => (remove.reset(), said(t('staff.lti.disabledNow', { name: p.displayName }))));
  const labels = {
    remove: t('staff.lti.delete'),
    confirm: t('staff.lti.deleteConfirm', { name: p.displayName }),
    yes: t('staff.lti.deleteYes'),
    disableInstead: t('staff.lti.disableInstead'),
  };
  return <RemoveOrDisable enabled={p.enabled} remove={remove} disable={disable} words={LTI_WORDS} labels={labels} />;
}

function PlatformCard({ p, fresh, said }: { p: LtiPlatform; fresh: boolean; said: Said }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  if (editing) return <li className="provider-item">{<PlatformEditor id={p.id} done={(m) => (setEditing(false), said(m))} />}</li>;
  return (
    <li className="card provider-item" data-platform={p.displayName}>
      <header className="provider-head">
        <h3>{p.displayName}</h3>
        <span className={p.enabled ? 'badge on' : 'badge off'}>{t(p.enabled ? 'staff.lti.on' : 'staff.lti.off')}</span>
        {p.isIdentityAuthority && <span className="badge">{t('staff.lti.makesAccounts')}</span>}
      </header>
      <PlatformFacts p={p} />
      <Fold summary={t('staff.lti.reg.title')} initiallyOpen={fresh}>
        <Registration id={p.id} name={p.displayName} />
      </Fold>
      <Fold summary={t('staff.lti.link.title')}>
        <LinkAccount p={p} />
      </Fold>
      <div className="confirm">
        <button type="button" onClick={() => (said(''), setEditing(true))} aria-label={t('staff.lti.editNamed', { name: p.displayName })}>
          {t('staff.lti.edit')}
        </button>
        <RemovePlatform p={p} said={said} />
      </div>
    </li>
  );
}

/** The platforms as cards; `fresh` is the one just added, whose registration values are shown at once. */
export function PlatformList({ platforms, fresh, said }: { platforms: readonly LtiPlatform[]; fresh: string | undefined; said: Said }) {
  const t = useT();
  if (!platforms.length) return <p className="muted">{t('staff.lti.none')}</p>;
  return (
    <ul className="provider-list platform-list">
      {platforms.map((p) => (
        <PlatformCard key={p.id} p={p} fresh={p.id === fresh} said={said} />
      ))}
    </ul>
  );
}
