import { z } from 'zod';
import { Timestamp } from '../wire.js';

/** A provider's slug: its sign-in paths name it (`/identity/providers/{slug}/…`). */
export const ProviderSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,30}[a-z0-9]$/, 'lowercase letters, digits and dashes, 2 to 32, not starting or ending with a dash');

export const UnmappedBehavior = z.enum(['deny', 'defaultTemplate']);

export const MappingRule = z.object({
  claimValue: z.string().trim().min(1).max(200).meta({ description: 'A value of the claim at claimPath (e.g. a group name)' }),
  templateName: z.string().trim().min(1).max(64).meta({ description: 'The name of the role given system-wide to accounts whose claim holds the value' }),
});

export const IdentityProvider = z.object({
  id: z.string(),
  slug: z.string(),
  displayName: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  scopes: z.string(),
  enabled: z.boolean(),
  accountUrl: z.string().optional(),
  deletionUrl: z.string().optional(),
  claimPath: z.string().optional(),
  unmappedBehavior: UnmappedBehavior,
  defaultTemplateName: z.string().optional(),
  deletionChannelEnabled: z.boolean(),
  hasClientSecret: z.boolean(),
  hasDeletionSecret: z.boolean(),
  callbackPath: z.string().meta({ description: 'The redirect URI to register at the provider, under the public URL' }),
  mappingRules: z.array(MappingRule),
  linkedAccounts: z.number().int(),
  createdAt: Timestamp,
});
export type IdentityProvider = z.infer<typeof IdentityProvider>;

const HttpsUrl = z.url({ protocol: /^https?$/ }).max(500);

/**
 * What an administrator sends to create or replace a provider. Secrets are write-only: absent keeps
 * the stored one, `''` removes it.
 */
export const IdentityProviderRequest = z.object({
  slug: ProviderSlug,
  displayName: z.string().trim().min(1).max(128),
  issuer: HttpsUrl.meta({ description: "The OpenID issuer; its /.well-known/openid-configuration is read at sign-in. https, except http on loopback for trials" }),
  clientId: z.string().trim().min(1).max(256),
  clientSecret: z.string().max(512).optional().meta({ description: 'Write-only; absent keeps the stored secret, empty removes it (a public client with PKCE)' }),
  scopes: z.string().trim().max(300).optional().meta({ description: "Space-separated; default 'openid profile email'" }),
  enabled: z.boolean().optional(),
  accountUrl: HttpsUrl.optional(),
  deletionUrl: HttpsUrl.optional(),
  claimPath: z
    .string()
    .trim()
    .max(200)
    .regex(/^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*$/, 'claim names separated by dots, e.g. groups or realm_access.roles')
    .optional(),
  unmappedBehavior: UnmappedBehavior.optional(),
  defaultTemplateName: z.string().trim().min(1).max(64).optional(),
  deletionChannelEnabled: z.boolean().optional(),
  deletionSecret: z.string().max(512).optional(),
  mappingRules: z.array(MappingRule).max(100).optional(),
});

/** What an identity provider's back channel sends to have the account of one of its subjects deleted. */
export const ProviderDeletionRequest = z.object({
  subject: z.string().min(1).max(255).meta({ description: "The provider's `sub` of the account" }),
  requestId: z.string().min(1).max(200).meta({ description: "The provider's id of the request: sending it again answers the first" }),
});

export const DeletionRequestState = z.enum(['pending', 'completed', 'halted', 'attention']);

/** What the back channel is answered: the same for a subject with no account here, which records nothing. */
export const DeletionRequestReceipt = z.object({
  id: z.string(),
  state: DeletionRequestState,
  dueAt: Timestamp,
});
export type DeletionRequestReceipt = z.infer<typeof DeletionRequestReceipt>;

/** A deletion request as administrators see it; the login and name while the account still has them. */
export const AccountDeletionRequest = z.object({
  id: z.string(),
  channel: z.enum(['holder', 'provider']),
  state: DeletionRequestState,
  userId: z.string().optional(),
  username: z.string().optional(),
  displayName: z.string().optional(),
  providerSlug: z.string().optional(),
  requestId: z.string().optional(),
  requestedAt: Timestamp,
  dueAt: Timestamp,
  doneAt: Timestamp.optional(),
  haltedByUserId: z.string().optional(),
  note: z.string().optional(),
});
export type AccountDeletionRequest = z.infer<typeof AccountDeletionRequest>;
