import { ops, type AccessKeyEntry } from '@judge/contract';
import { Option, type Command } from 'commander';
import { readFileSync } from 'node:fs';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, table, when, type JsonOption } from '../output.js';
import { sub } from './common.js';
import { instant } from './instance-shared.js';

/**
 * `instance access-keys`: named secrets of the instance (an archive's API key, a licence). A value
 * goes in from a file, an option or standard input and is never printed, except by `show`.
 */

/** The name as the server keeps it: trimmed and lowercased. */
const keyName = (name: string) => name.trim().toLowerCase();

const describeKeys = (list: AccessKeyEntry[]) =>
  list.length
    ? table(['name', 'updated', 'expires'], list.map((k) => [k.name, when(k.updatedAt), k.expiresAt ? when(k.expiresAt) : 'never']))
    : 'No access keys: store one with judgectl instance access-keys set NAME';

/** All of standard input, or (on a terminal) the value typed without echo. */
async function readValue(name: string): Promise<string> {
  if (process.stdin.isTTY) {
    const { password } = await import('@inquirer/prompts');
    return password({ message: `Value of ${name}:`, mask: '*' });
  }
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The value from the option that names it, without the line end a file or a pipe ends with. */
async function valueOf(name: string, o: { value?: string; valueFromFile?: string }): Promise<string> {
  let raw: string;
  if (o.value !== undefined) raw = o.value;
  else if (o.valueFromFile !== undefined) {
    try {
      raw = readFileSync(o.valueFromFile, 'utf8');
    } catch (e) {
      throw new CliError(`cannot read ${o.valueFromFile}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
  } else raw = await readValue(name);
  const value = raw.replace(/\r?\n$/, '');
  if (!value) throw new CliError(`the value is empty: give it with --value-from-file FILE, --value V or on standard input (instance access-keys remove ${name} removes a key)`);
  return value;
}

type SetOptions = JsonOption & { value?: string; valueFromFile?: string; expires?: string };

export function accessKeyCommands(instance: Command): void {
  const keys = instance.command('access-keys').description("The instance's named secrets (an archive's API key, a licence): listed by name, a value printed only by show");
  sub(keys, 'list', 'List the access keys by name, with when each was set and when it expires (never their values)').action(async (o: JsonOption) => {
    const list = await (await api()).call(ops.listAccessKeys);
    emit(o, list, () => describeKeys(list));
  });
  sub(keys, 'set <name>', 'Store or replace an access key; its value is read from --value-from-file, --value, or standard input (typed without echo on a terminal), and never printed')
    .addOption(new Option('--value-from-file <file>', 'read the value from this file (one line end at its end is dropped)'))
    .addOption(new Option('--value <value>', 'the value itself (beware: it stays in the shell history)').conflicts('valueFromFile'))
    .addOption(new Option('--expires <instant>', 'when it stops being valid, e.g. 2027-01-01T00:00:00Z (without an offset: UTC); default never').argParser(instant))
    .action(async (name: string, o: SetOptions) => {
      const value = await valueOf(name, o);
      const list = await (await api()).call(ops.setAccessKey, { params: { name: keyName(name) }, body: { value, ...(o.expires ? { expiresAt: o.expires } : {}) } });
      const k = list.find((x) => x.name === keyName(name));
      emit(o, list, () => `Stored the access key ${keyName(name)}${k?.expiresAt ? `, valid until ${when(k.expiresAt)}` : ''}.`);
    });
  sub(keys, 'remove <name>', 'Remove an access key').action(async (name: string, o: JsonOption) => {
    const client = await api();
    if (!(await client.call(ops.listAccessKeys)).some((k) => k.name === keyName(name))) throw new CliError(`no access key ${keyName(name)} (judgectl instance access-keys list shows them)`);
    const list = await client.call(ops.setAccessKey, { params: { name: keyName(name) }, body: { value: '' } });
    emit(o, list, () => `Removed the access key ${keyName(name)}.`);
  });
  sub(keys, 'show <name>', 'Print the value of one access key (the one command that prints it; alone on its line, for scripts)').action(async (name: string, o: JsonOption) => {
    const k = await (await api()).call(ops.getAccessKeyValue, { params: { name: keyName(name) } });
    emit(o, k, () => k.value);
  });
}
