import { ops, type IdentityProvider } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, fields, table, type JsonOption } from '../output.js';
import { sub } from './common.js';

/** A rule as typed: `CLAIM-VALUE=ROLE` (the role's name). */
function rule(text: string, rules: { claimValue: string; templateName: string }[] = []) {
  const at = text.indexOf('=');
  if (at < 1 || at === text.length - 1) throw new CliError(`a rule reads CLAIM-VALUE=ROLE, not ${text}`);
  return [...rules, { claimValue: text.slice(0, at), templateName: text.slice(at + 1) }];
}

const describe = (p: IdentityProvider) =>
  fields([
    ['slug', p.slug],
    ['name', p.displayName],
    ['issuer', p.issuer],
    ['client', `${p.clientId}${p.hasClientSecret ? ' (with a secret)' : ' (public, no secret)'}`],
    ['scopes', p.scopes],
    ['enabled', p.enabled],
    ['claim', p.claimPath ?? ''],
    ['rules', p.mappingRules.map((r) => `${r.claimValue} → ${r.templateName}`).join(', ') || '(none)'],
    ['unmapped', p.unmappedBehavior === 'deny' ? 'refused' : `given ${p.defaultTemplateName}`],
    ['callback', p.callbackPath],
    ['linked accounts', p.linkedAccounts],
  ]);

/** A provider named by slug or id. */
async function resolveProvider(slugOrId: string): Promise<IdentityProvider> {
  const all = await (await api()).call(ops.listProviders);
  const p = all.find((x) => x.slug === slugOrId || x.id === slugOrId);
  if (!p) throw new CliError(`no identity provider ${slugOrId} (judgectl providers list shows them)`);
  return p;
}

/** `providers list|add|remove`: the OpenID Connect providers accounts sign in with. */
export function providersCommands(program: Command): void {
  const providers = program.command('providers').description('The OpenID Connect providers accounts may sign in with (a school\'s Google, Microsoft or Keycloak accounts)');
  sub(providers, 'list', 'List the identity providers').action(async (o: JsonOption) => {
    const list = await (await api()).call(ops.listProviders);
    emit(o, list, () =>
      list.length
        ? table(['slug', 'name', 'issuer', 'enabled', 'linked'], list.map((p) => [p.slug, p.displayName, p.issuer, p.enabled, p.linkedAccounts]))
        : 'No identity providers: accounts sign in with their passwords.',
    );
  });
  sub(providers, 'add <slug>', 'Add a provider; register the printed callback URL at the provider')
    .requiredOption('--name <text>', 'the name on the sign-in button')
    .requiredOption('--issuer <url>', 'the OpenID issuer URL')
    .requiredOption('--client-id <id>', "the judge's client id at the provider")
    .option('--client-secret-file <file>', 'read the client secret from this file (none: a public client)')
    .option('--scopes <list>', "space-separated (default 'openid profile email')")
    .option('--claim <path>', 'the claim the rules read, e.g. groups or realm_access.roles')
    .option('--rule <value=role>', 'give ROLE system-wide to accounts whose claim holds VALUE (repeatable)', rule)
    .option('--default-role <role>', 'give accounts no rule matches this role (else they are refused)')
    .option('--disabled', 'add it switched off')
    .action(async (slug: string, o: JsonOption & { name: string; issuer: string; clientId: string; clientSecretFile?: string; scopes?: string; claim?: string; rule?: { claimValue: string; templateName: string }[]; defaultRole?: string; disabled?: boolean }) => {
      const { readFileSync } = await import('node:fs');
      const p = await (await api()).call(ops.createProvider, {
        body: {
          slug,
          displayName: o.name,
          issuer: o.issuer,
          clientId: o.clientId,
          ...(o.clientSecretFile ? { clientSecret: readFileSync(o.clientSecretFile, 'utf8').trim() } : {}),
          ...(o.scopes ? { scopes: o.scopes } : {}),
          ...(o.claim ? { claimPath: o.claim } : {}),
          mappingRules: o.rule ?? [],
          ...(o.defaultRole ? { unmappedBehavior: 'defaultTemplate' as const, defaultTemplateName: o.defaultRole } : {}),
          enabled: !o.disabled,
        },
      });
      emit(o, p, () => `${describe(p)}\nRegister this redirect URI at the provider: PUBLIC-URL${p.callbackPath}`);
    });
  sub(providers, 'remove <slugOrId>', 'Remove a provider no account is linked to').action(async (slugOrId: string, o: JsonOption) => {
    const p = await resolveProvider(slugOrId);
    await (await api()).call(ops.deleteProvider, { params: { id: p.id } });
    emit(o, { removed: p.id }, () => `Removed ${p.slug}.`);
  });
  sub(providers, 'show <slugOrId>', 'Show one provider').action(async (slugOrId: string, o: JsonOption) => {
    const p = await resolveProvider(slugOrId);
    emit(o, p, () => describe(p));
  });
}
