import type { IdentityProvider } from '@judge/contract';
import { useT } from '../../../i18n/I18n';
import { CheckField, TextField } from '../activities/fields';
import { CopyValue } from './CopyValue';
import { callbackUrl, SLUG, type ProviderDraft } from './draft';
import { SecretField } from './SecretField';

type Set = (patch: Partial<ProviderDraft>) => void;
type Errors = Record<string, string[]>;
interface Part {
  d: ProviderDraft;
  set: Set;
  errors: Errors;
  /** The provider being changed; undefined while adding one. */
  editing: IdentityProvider | undefined;
}

/**
 * The callback URL to register at the provider: the saved one's own path, or for a new provider
 * (or a changed slug) the one its slug will have, once the slug is well-formed.
 */
export function CallbackUrl({ slug, saved }: { slug: string; saved: IdentityProvider | undefined }) {
  const t = useT();
  const path = saved && saved.slug === slug.trim() ? `${window.location.origin}${saved.callbackPath}` : SLUG.test(slug.trim()) ? callbackUrl(slug.trim()) : undefined;
  if (!path) return <p className="muted field-help">{t('staff.providers.callback.needSlug')}</p>;
  return (
    <dl className="copy-values">
      <CopyValue name="callback" label={t('staff.providers.callback')} value={path} copyLabel={t('staff.providers.callback.copy')} />
    </dl>
  );
}

/** The provider itself: its names, where it is, the judge's client there, and whether it is in use. */
export function ProviderBasics({ d, set, errors, editing }: Part) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('staff.providers.basics')}</legend>
      <TextField label={t('staff.providers.displayName')} hint={t('staff.providers.displayName.hint')} value={d.displayName} required maxLength={128} autoFocus errors={errors.displayName} onChange={(v) => set({ displayName: v })} />
      <TextField
        label={t('staff.providers.slug')}
        hint={t('staff.providers.slug.hint')}
        value={d.slug}
        required
        maxLength={32}
        autoCapitalize="none"
        spellCheck={false}
        errors={errors.slug}
        onChange={(v) => set({ slug: v })}
      />
      <CallbackUrl slug={d.slug} saved={editing} />
      <TextField label={t('staff.providers.issuer')} hint={t('staff.providers.issuer.hint')} type="url" value={d.issuer} required maxLength={500} errors={errors.issuer} onChange={(v) => set({ issuer: v })} />
      <TextField label={t('staff.providers.clientId')} hint={t('staff.providers.clientId.hint')} value={d.clientId} required maxLength={256} errors={errors.clientId} onChange={(v) => set({ clientId: v })} />
      <SecretField kind="client" stored={!!editing?.hasClientSecret} value={d.clientSecret} onChange={(v) => set({ clientSecret: v })} errors={errors.clientSecret} />
      <TextField label={t('staff.providers.scopes')} hint={t('staff.providers.scopes.hint')} value={d.scopes} maxLength={300} errors={errors.scopes} onChange={(v) => set({ scopes: v })} />
      <CheckField label={t('staff.providers.enabled')} hint={t('staff.providers.enabled.hint')} checked={d.enabled} errors={errors.enabled} onChange={(v) => set({ enabled: v })} />
    </fieldset>
  );
}

/** The links an account linked to the provider finds on its account page. */
export function AccountLinks({ d, set, errors }: Part) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('staff.providers.links')}</legend>
      <p className="muted field-help">{t('staff.providers.links.intro')}</p>
      <TextField label={t('staff.providers.accountUrl')} hint={t('staff.providers.accountUrl.hint')} type="url" value={d.accountUrl} maxLength={500} errors={errors.accountUrl} onChange={(v) => set({ accountUrl: v })} />
      <TextField label={t('staff.providers.deletionUrl')} hint={t('staff.providers.deletionUrl.hint')} type="url" value={d.deletionUrl} maxLength={500} errors={errors.deletionUrl} onChange={(v) => set({ deletionUrl: v })} />
    </fieldset>
  );
}

/** The deletion channel: a switch and its write-only secret. */
export function DeletionChannel({ d, set, errors, editing }: Part) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t('staff.providers.deletion')}</legend>
      <p className="muted field-help">{t('staff.providers.deletion.intro')}</p>
      <CheckField label={t('staff.providers.deletionChannelEnabled')} checked={d.deletionChannelEnabled} errors={errors.deletionChannelEnabled} onChange={(v) => set({ deletionChannelEnabled: v })} />
      <SecretField kind="deletion" stored={!!editing?.hasDeletionSecret} value={d.deletionSecret} onChange={(v) => set({ deletionSecret: v })} errors={errors.deletionSecret} />
    </fieldset>
  );
}
