import { ops, type InstanceSettings } from '@judge/contract';
import { Argument, type Command } from 'commander';
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
}
