import { ops, type LtiPlatform, type LtiRegistration } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, fields, table, type JsonOption } from '../output.js';
import { resolveUser } from '../resolve.js';
import { sub } from './common.js';

const describe = (p: LtiPlatform) =>
  fields([
    ['id', p.id],
    ['name', p.displayName],
    ['issuer', p.issuer],
    ['client id', p.clientId],
    ['deployment id', p.deploymentId],
    ['key set', p.keySetUrl],
    ['token URL', p.authTokenUrl],
    ['login URL', p.authLoginUrl],
    ['makes accounts', p.isIdentityAuthority ? `yes, logins ${p.identityNamespace}-… from ${p.usernameClaim}` : 'no: only linked accounts sign in'],
    ['enabled', p.enabled],
  ]);

const describeRegistration = (r: LtiRegistration) =>
  fields([
    ['tool URL', r.toolUrl],
    ['login URL', r.loginUrl],
    ['redirect URI', r.redirectUri],
    ['key set URL', r.keySetUrl],
    ['custom parameters', r.customParameters.join('  ')],
  ]);

/** A platform named by id, or by a name no other platform has. */
async function resolvePlatform(idOrName: string): Promise<LtiPlatform> {
  const all = await (await api()).call(ops.listLtiPlatforms);
  const byId = all.find((p) => p.id === idOrName);
  if (byId) return byId;
  const named = all.filter((p) => p.displayName === idOrName);
  if (named.length === 1) return named[0]!;
  throw new CliError(named.length ? `${named.length} platforms are called ${idOrName}: name one by id (judgectl lti list)` : `no LTI platform ${idOrName} (judgectl lti list shows them)`);
}

type AddOptions = JsonOption & {
  displayName: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  keySetUrl: string;
  authTokenUrl: string;
  authLoginUrl: string;
  identityAuthority?: boolean;
  identityNamespace?: string;
  usernameClaim?: string;
  disabled?: boolean;
};

/** `lti list|add|show-registration|remove|link|rotate-key`: the LMSs that launch the judge (LTI 1.3). */
export function ltiCommands(program: Command): void {
  const lti = program.command('lti').description('The LMSs (Moodle, Canvas, ...) that open the judge from a course as LTI 1.3 platforms');
  sub(lti, 'list', 'List the LTI platforms').action(async (o: JsonOption) => {
    const list = await (await api()).call(ops.listLtiPlatforms);
    emit(o, list, () =>
      list.length
        ? table(['id', 'name', 'issuer', 'client id', 'deployment', 'makes accounts', 'enabled'], list.map((p) => [p.id, p.displayName, p.issuer, p.clientId, p.deploymentId, p.isIdentityAuthority, p.enabled]))
        : 'No LTI platforms: no LMS can open the judge.',
    );
  });
  sub(lti, 'add', 'Register an LMS; prints what to enter in the LMS')
    .requiredOption('--display-name <text>', 'the name staff know the LMS by')
    .requiredOption('--issuer <url>', "the platform's issuer, exactly as its tokens say it")
    .requiredOption('--client-id <id>', 'the client id the LMS gave the judge')
    .requiredOption('--deployment-id <id>', 'the deployment id of the installation in the LMS')
    .requiredOption('--key-set-url <url>', "the LMS's public keys (JWKS)")
    .requiredOption('--auth-token-url <url>', "the LMS's token endpoint")
    .requiredOption('--auth-login-url <url>', "the LMS's authorization endpoint")
    .option('--identity-authority', 'make an account for each person the LMS launches')
    .option('--identity-namespace <prefix>', 'the start of those accounts’ logins (with --identity-authority)')
    .option('--username-claim <claim>', 'the ID token claim a new login is made from (default email)')
    .option('--disabled', 'add it switched off')
    .action(async (o: AddOptions) => {
      const c = await api();
      const p = await c.call(ops.createLtiPlatform, {
        body: {
          displayName: o.displayName,
          issuer: o.issuer,
          clientId: o.clientId,
          deploymentId: o.deploymentId,
          keySetUrl: o.keySetUrl,
          authTokenUrl: o.authTokenUrl,
          authLoginUrl: o.authLoginUrl,
          isIdentityAuthority: !!o.identityAuthority,
          ...(o.identityNamespace ? { identityNamespace: o.identityNamespace } : {}),
          ...(o.usernameClaim ? { usernameClaim: o.usernameClaim } : {}),
          enabled: !o.disabled,
        },
      });
      const r = await c.call(ops.getLtiRegistration, { params: { id: p.id } });
      emit(o, { platform: p, registration: r }, () => `${describe(p)}\nEnter these in the LMS:\n${describeRegistration(r)}`);
    });
  sub(lti, 'show-registration <platform>', 'What to enter in the LMS for a platform (by id or name)').action(async (name: string, o: JsonOption) => {
    const p = await resolvePlatform(name);
    const r = await (await api()).call(ops.getLtiRegistration, { params: { id: p.id } });
    emit(o, r, () => describeRegistration(r));
  });
  sub(lti, 'remove <platform>', 'Remove a platform no account is linked to and no link is placed with').action(async (name: string, o: JsonOption) => {
    const p = await resolvePlatform(name);
    await (await api()).call(ops.deleteLtiPlatform, { params: { id: p.id } });
    emit(o, { removed: p.id }, () => `Removed ${p.displayName}.`);
  });
  sub(lti, 'link <platform> <subject> <user>', "Link an account to the platform's user SUBJECT (the id its refusal page shows)").action(async (name: string, subject: string, user: string, o: JsonOption) => {
    const c = await api();
    const p = await resolvePlatform(name);
    const u = await resolveUser(c, user);
    await c.call(ops.linkLtiAccount, { params: { id: p.id }, body: { subject, userId: u.id } });
    emit(o, { platformId: p.id, subject, userId: u.id }, () => `Linked ${u.username} to ${subject} of ${p.displayName}.`);
  });
  sub(lti, 'rotate-key', "Make a new signing key for the judge; the previous one stays published for a day").action(async (o: JsonOption) => {
    const r = await (await api()).call(ops.rotateLtiKey);
    emit(o, r, () => `The judge now signs with key ${r.kid}; published: ${r.published.map((k) => (k.retiredAt ? `${k.kid} (retired ${k.retiredAt})` : k.kid)).join(', ')}.`);
  });
}
