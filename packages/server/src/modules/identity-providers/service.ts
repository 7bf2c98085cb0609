import { ApiError, notFound, type IdentityProvider } from '@judge/contract';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { identityProviders, roles, userIdentities } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { compact, iso, newId } from '../../util.js';
import type { InstanceService } from '../instance/index.js';

type ProviderRow = typeof identityProviders.$inferSelect;

export interface ProviderInput {
  slug: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  scopes?: string | undefined;
  enabled?: boolean | undefined;
  accountUrl?: string | undefined;
  deletionUrl?: string | undefined;
  claimPath?: string | undefined;
  unmappedBehavior?: 'deny' | 'defaultTemplate' | undefined;
  defaultTemplateName?: string | undefined;
  deletionChannelEnabled?: boolean | undefined;
  deletionSecret?: string | undefined;
  mappingRules?: { claimValue: string; templateName: string }[] | undefined;
}

const DEFAULT_SCOPES = 'openid profile email';

/** Where the provider sends the browser back: what to register at the provider, under the public URL. */
export const callbackPath = (slug: string) => `/api/v1/identity/providers/${slug}/callback`;

/** http is for a provider on this machine only (trying one out); anywhere else tokens would cross the network in the clear. */
function secureIssuer(issuer: string): boolean {
  const u = new URL(issuer);
  return u.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
}

function toProvider(p: ProviderRow, linked: number): IdentityProvider {
  return compact({
    id: p.id,
    slug: p.slug,
    displayName: p.displayName,
    issuer: p.issuer,
    clientId: p.clientId,
    scopes: p.scopes,
    enabled: p.enabled,
    accountUrl: p.accountUrl,
    deletionUrl: p.deletionUrl,
    claimPath: p.claimPath,
    unmappedBehavior: p.unmappedBehavior,
    defaultTemplateName: p.defaultTemplateName,
    deletionChannelEnabled: p.deletionChannelEnabled,
    hasClientSecret: !!p.clientSecret,
    hasDeletionSecret: !!p.deletionSecret,
    callbackPath: callbackPath(p.slug),
    mappingRules: p.mappingRules,
    linkedAccounts: linked,
    createdAt: p.createdAt,
  }) as IdentityProvider;
}

/**
 * The OpenID Connect providers (decisions §4): what administrators register. A mapping rule gives a
 * system role to whoever the provider says holds a claim value, so a rule is a grant made in
 * advance: it may name no administrator role (the provider's staff would decide who runs the judge)
 * and no role with keys the caller lacks (as `grant.excess`).
 */
export class IdentityProvidersService {
  constructor(
    private readonly d: Deps,
    private readonly instance: InstanceService,
  ) {}

  async list(actor: Actor): Promise<IdentityProvider[]> {
    await this.d.permissions.require(actor, 'provider:manage');
    return this.d.tx.read(async (q) => {
      const rows = await q.select().from(identityProviders).orderBy(asc(identityProviders.displayName), asc(identityProviders.id));
      const out: IdentityProvider[] = [];
      for (const r of rows) out.push(toProvider(r, await linkedCount(q, r.id)));
      return out;
    });
  }

  async get(actor: Actor, id: string): Promise<IdentityProvider> {
    await this.d.permissions.require(actor, 'provider:manage');
    return this.d.tx.read(async (q) => {
      const row = await providerRow(q, id);
      return toProvider(row, await linkedCount(q, row.id));
    });
  }

  async create(actor: Actor, body: ProviderInput): Promise<IdentityProvider> {
    await this.d.permissions.require(actor, 'provider:manage');
    return this.d.tx.write(async (q, out) => {
      const fields = await this.checked(q, actor, body, undefined);
      const [row] = await q
        .insert(identityProviders)
        .values({ id: newId(), ...fields, createdAt: iso(this.d.clock.now()) })
        .returning();
      await this.instance.announce(q, out);
      this.d.log.info({ providerId: row!.id, slug: row!.slug, by: actor.userId }, 'identity provider added');
      return toProvider(row!, 0);
    });
  }

  async update(actor: Actor, id: string, body: ProviderInput): Promise<IdentityProvider> {
    await this.d.permissions.require(actor, 'provider:manage');
    return this.d.tx.write(async (q, out) => {
      const before = await providerRow(q, id);
      const fields = await this.checked(q, actor, body, before);
      const [row] = await q.update(identityProviders).set(fields).where(eq(identityProviders.id, id)).returning();
      await this.instance.announce(q, out);
      return toProvider(row!, await linkedCount(q, id));
    });
  }

  async remove(actor: Actor, id: string): Promise<void> {
    await this.d.permissions.require(actor, 'provider:manage');
    await this.d.tx.write(async (q, out) => {
      const row = await providerRow(q, id);
      const linked = await linkedCount(q, id);
      if (linked > 0) throw ApiError.of('provider.linked', `${linked} account${linked === 1 ? ' is' : 's are'} linked to ${row.displayName}: disable it instead (enabled: false)`);
      await q.delete(identityProviders).where(eq(identityProviders.id, id));
      await this.instance.announce(q, out);
    });
  }

  /** The stored fields of a request, refused as the operation documents; `before`: the provider replaced (secrets kept unless sent). */
  private async checked(q: Q, actor: Actor, b: ProviderInput, before: ProviderRow | undefined) {
    if (!secureIssuer(b.issuer)) throw ApiError.of('provider.issuer.insecure', 'The issuer must be an https URL (http only for a provider on this machine)', { issuer: ['must be https'] });
    const taken = await q.select({ id: identityProviders.id }).from(identityProviders).where(eq(identityProviders.slug, b.slug)).limit(1);
    if (taken[0] && taken[0].id !== before?.id) throw ApiError.of('provider.slug.taken', `Another provider is called ${b.slug}`);
    const unmappedBehavior = b.unmappedBehavior ?? 'deny';
    if (unmappedBehavior === 'defaultTemplate' && !b.defaultTemplateName) {
      throw ApiError.of('provider.defaultTemplate.required', 'Giving unmapped accounts a default role needs the role (defaultTemplateName)', { defaultTemplateName: ['required'] });
    }
    const rules = dedupe(b.mappingRules ?? []);
    for (const name of new Set([...rules.map((r) => r.templateName), ...(b.defaultTemplateName ? [b.defaultTemplateName] : [])])) await this.mayMap(q, actor, name);
    const secret = (sent: string | undefined, kept: string | null | undefined) => (sent === undefined ? (kept ?? null) : sent || null);
    return {
      slug: b.slug,
      displayName: b.displayName,
      issuer: b.issuer.replace(/\/+$/, ''),
      clientId: b.clientId,
      clientSecret: secret(b.clientSecret, before?.clientSecret),
      scopes: normaliseScopes(b.scopes),
      enabled: b.enabled ?? true,
      accountUrl: b.accountUrl ?? null,
      deletionUrl: b.deletionUrl ?? null,
      claimPath: b.claimPath ?? null,
      unmappedBehavior,
      defaultTemplateName: b.defaultTemplateName ?? null,
      deletionChannelEnabled: b.deletionChannelEnabled ?? false,
      deletionSecret: secret(b.deletionSecret, before?.deletionSecret),
      mappingRules: rules,
    };
  }

  /** A role a rule may give: a system role, without system:administrator, and none of whose keys the caller lacks. */
  private async mayMap(q: Q, actor: Actor, name: string): Promise<void> {
    const [role] = await q
      .select({ permissions: roles.permissions })
      .from(roles)
      .where(and(eq(roles.name, name), isNull(roles.activityId)))
      .limit(1);
    if (!role) throw ApiError.of('provider.rule.template.unknown', `There is no system role called ${name}`, { mappingRules: [`unknown role ${name}`] });
    if (role.permissions.includes('system:administrator')) throw ApiError.of('provider.rule.administrator', `${name} holds system:administrator: a provider may not make administrators`);
    const mine = await this.d.permissions.of(actor.userId, q);
    const lacking = role.permissions.find((k) => !mine.effective(null).has(k));
    if (lacking) throw ApiError.of('provider.rule.excess', `${name} holds ${lacking}, which you do not`);
  }
}

async function providerRow(q: Q, id: string): Promise<ProviderRow> {
  const [row] = await q.select().from(identityProviders).where(eq(identityProviders.id, id)).limit(1);
  if (!row) throw notFound('identity provider');
  return row;
}

async function linkedCount(q: Q, providerId: string): Promise<number> {
  const [r] = await q.select({ n: count() }).from(userIdentities).where(eq(userIdentities.providerId, providerId));
  return r?.n ?? 0;
}

function dedupe(rules: { claimValue: string; templateName: string }[]) {
  const seen = new Set<string>();
  return rules.filter((r) => {
    const k = `${r.claimValue}\n${r.templateName}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Space-separated, each once, `openid` always first (without it there is no ID token). */
function normaliseScopes(scopes: string | undefined): string {
  const list = (scopes?.trim() || DEFAULT_SCOPES).split(/\s+/);
  return ['openid', ...new Set(list.filter((s) => s !== 'openid'))].join(' ');
}
