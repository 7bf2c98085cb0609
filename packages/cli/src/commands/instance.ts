import { ops, type ExternalContent, type InstanceSettings } from '@judge/contract';
import { Argument, Option, type Command } from 'commander';
import { CliError } from '../errors.js';
import { api } from '../client.js';
import { emit, fields, type JsonOption } from '../output.js';
import { sub } from './common.js';

/** The switches PUT /instance takes, by the name the settings use. */
const SWITCHES = [
  'localRegistrationEnabled',
  'requireEmail',
  'requireConfirmedEmail',
  'requireApproval',
  'showLogo',
  'showLocalSignIn',
  'accountDeletionEnabled',
  'allowRenameStaffAccounts',
  'allowRenameSelfRegistered',
  'keepSignedInByDefault',
] as const;
type Switch = (typeof SWITCHES)[number];

const onOff = (v: string): boolean => {
  if (/^(on|true|yes|1)$/i.test(v)) return true;
  if (/^(off|false|no|0)$/i.test(v)) return false;
  throw new CliError(`say on or off, not ${v}`);
};

const describe = (s: InstanceSettings) =>
  fields([['name', s.name], ...SWITCHES.map((k): [string, string] => [k, s[k] ? 'on' : 'off']), ['requireTwoFactorFor', s.requireTwoFactorFor.join(', ') || '(none)']]);

const describeHosts = (c: ExternalContent) => (c.hosts.length ? c.hosts.join('\n') : '(none: files are never fetched from a URL)');

/** A list of permission keys, separated by commas or spaces; '' or none empties it. */
const keyList = (v: string): string[] => (/^none$/i.test(v.trim()) ? [] : v.split(/[\s,]+/).filter(Boolean));

export function instanceCommands(program: Command): void {
  const instance = program.command('instance').description("The installation's name and switches (what the Instance staff page does)");
  sub(instance, 'show', 'Show the name and every switch').action(async (o: JsonOption) => {
    const s = await (await api()).call(ops.getInstance);
    emit(o, s, () => describe(s));
  });
  sub(
    instance,
    'set',
    'Set a switch on or off, the name, or the permissions that need two-factor sign-in: instance set allowRenameSelfRegistered on, instance set name "Lab judge", instance set requireTwoFactorFor system:administrator,user:update',
  )
    .addArgument(new Argument('<setting>', 'name, requireTwoFactorFor, or a switch').choices(['name', 'requireTwoFactorFor', ...SWITCHES]))
    .addArgument(new Argument('<value>', 'on or off; for name, the text; for requireTwoFactorFor, permission keys separated by commas (none: empty)'))
    .action(async (setting: Switch | 'name' | 'requireTwoFactorFor', value: string, o: JsonOption) => {
      const body = setting === 'name' ? { name: value } : setting === 'requireTwoFactorFor' ? { requireTwoFactorFor: keyList(value) } : { [setting]: onOff(value) };
      const s = await (await api()).call(ops.updateInstance, { body });
      emit(o, s, () => describe(s));
    });
  sub(
    instance,
    'external-content',
    'Show the hosts files may be fetched from by URL (POST /files/fetch), or replace them: --set files.example.org,*.github.io,mirror.example:8443, or --clear',
  )
    .addOption(new Option('--set <hosts>', 'host names separated by commas; *.domain for its subdomains, :port for another port than 80/443'))
    .addOption(new Option('--clear', 'empty the list: no file is fetched from a URL').conflicts('set'))
    .action(async (o: JsonOption & { set?: string; clear?: boolean }) => {
      const client = await api();
      const c =
        o.set !== undefined || o.clear
          ? await client.call(ops.setExternalContent, { body: { hosts: o.clear ? [] : o.set!.split(/[\s,]+/).filter(Boolean) } })
          : await client.call(ops.getExternalContent);
      emit(o, c, () => describeHosts(c));
    });
}
