import type { IdentityProvider, OperationInput, Role } from '@judge/contract';
import type { ops } from '@judge/sdk/browser';

export type ProviderBody = OperationInput<typeof ops.createProvider>['body'];
type Behaviour = IdentityProvider['unmappedBehavior'];

/** One mapping rule as typed; `key` keeps a row's inputs in place when another row is removed. */
export interface RuleDraft {
  key: number;
  claimValue: string;
  templateName: string;
}

/**
 * A secret as the form holds it: write-only, so `value` is only what is typed now. Empty keeps a
 * stored secret (or sets none on a new provider); `remove` sends '' to delete the stored one.
 */
export interface SecretDraft {
  value: string;
  remove: boolean;
}

/** The provider form as typed: text as the fields hold it, so a refused value stays as it was typed. */
export interface ProviderDraft {
  slug: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret: SecretDraft;
  scopes: string;
  enabled: boolean;
  claimPath: string;
  mappingRules: RuleDraft[];
  unmappedBehavior: Behaviour;
  defaultTemplateName: string;
  accountUrl: string;
  deletionUrl: string;
  deletionChannelEnabled: boolean;
  deletionSecret: SecretDraft;
}

const NO_SECRET: SecretDraft = { value: '', remove: false };

export const EMPTY_PROVIDER: ProviderDraft = {
  slug: '',
  displayName: '',
  issuer: '',
  clientId: '',
  clientSecret: NO_SECRET,
  scopes: 'openid profile email',
  enabled: true,
  claimPath: '',
  mappingRules: [],
  unmappedBehavior: 'deny',
  defaultTemplateName: '',
  accountUrl: '',
  deletionUrl: '',
  deletionChannelEnabled: false,
  deletionSecret: NO_SECRET,
};

let nextKey = 1;
export const newRule = (claimValue = '', templateName = ''): RuleDraft => ({ key: nextKey++, claimValue, templateName });

export function draftOf(p: IdentityProvider): ProviderDraft {
  return {
    slug: p.slug,
    displayName: p.displayName,
    issuer: p.issuer,
    clientId: p.clientId,
    clientSecret: NO_SECRET,
    scopes: p.scopes,
    enabled: p.enabled,
    claimPath: p.claimPath ?? '',
    mappingRules: p.mappingRules.map((r) => newRule(r.claimValue, r.templateName)),
    unmappedBehavior: p.unmappedBehavior,
    defaultTemplateName: p.defaultTemplateName ?? '',
    accountUrl: p.accountUrl ?? '',
    deletionUrl: p.deletionUrl ?? '',
    deletionChannelEnabled: p.deletionChannelEnabled,
    deletionSecret: NO_SECRET,
  };
}

/** What a secret field sends: '' removes, typed text replaces, nothing keeps (absent from the body). */
export function secretOf(s: SecretDraft): string | undefined {
  if (s.remove) return '';
  return s.value ? s.value : undefined;
}

const optional = <K extends string>(key: K, text: string) => (text.trim() ? ({ [key]: text.trim() } as Record<K, string>) : {});

/**
 * The request for a draft. PUT replaces the provider, so every member is sent except the secrets
 * left empty (absent keeps the stored one); empty rows of the rules are left out.
 */
export function requestOf(d: ProviderDraft): ProviderBody {
  const clientSecret = secretOf(d.clientSecret);
  const deletionSecret = secretOf(d.deletionSecret);
  const byDefault = d.unmappedBehavior === 'defaultTemplate';
  return {
    slug: d.slug.trim(),
    displayName: d.displayName.trim(),
    issuer: d.issuer.trim(),
    clientId: d.clientId.trim(),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...optional('scopes', d.scopes),
    enabled: d.enabled,
    ...optional('claimPath', d.claimPath),
    mappingRules: d.mappingRules
      .filter((r) => r.claimValue.trim() || r.templateName.trim())
      .map((r) => ({ claimValue: r.claimValue.trim(), templateName: r.templateName.trim() })),
    unmappedBehavior: d.unmappedBehavior,
    ...(byDefault ? optional('defaultTemplateName', d.defaultTemplateName) : {}),
    ...optional('accountUrl', d.accountUrl),
    ...optional('deletionUrl', d.deletionUrl),
    deletionChannelEnabled: d.deletionChannelEnabled,
    ...(deletionSecret !== undefined ? { deletionSecret } : {}),
  };
}

/**
 * Where the provider sends the browser back (decisions §4: `/api/v1/identity/providers/{slug}/callback`),
 * for a provider not saved yet; a saved one says its own `callbackPath`.
 */
export function callbackUrl(slug: string, origin = window.location.origin): string {
  return `${origin}/api/v1/identity/providers/${encodeURIComponent(slug)}/callback`;
}

export const SLUG = /^[a-z0-9][a-z0-9-]{0,30}[a-z0-9]$/;

/** The roles a rule may give: system-wide ones without system:administrator (the server refuses the rest). */
export const mappable = (roles: readonly Role[]) => roles.filter((r) => !r.activityId && !r.permissions.includes('system:administrator')).map((r) => r.name);
