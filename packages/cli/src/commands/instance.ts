import { ops, type ExternalContent, type InstanceSettings, type Redirects } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { Argument, Option, type Command } from 'commander';
import { CliError } from '../errors.js';
import { api } from '../client.js';
import { emit, fields, table, when, type JsonOption } from '../output.js';
import { sub } from './common.js';
import { brandingCommands } from './instance-branding.js';
import { documentsCommands } from './instance-documents.js';
import { accessKeyCommands } from './instance-keys.js';
import { size, unlessRefused } from './instance-shared.js';

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

/** The settings that name an identity provider the sign-in or registration page sends to at once. */
const REDIRECTS = ['signInRedirectProvider', 'registerRedirectProvider'] as const;
type RedirectSetting = (typeof REDIRECTS)[number];
type Setting = Switch | RedirectSetting | 'name' | 'requireTwoFactorFor';

const onOff = (v: string): boolean => {
  if (/^(on|true|yes|1)$/i.test(v)) return true;
  if (/^(off|false|no|0)$/i.test(v)) return false;
  throw new CliError(`say on or off, not ${v}`);
};

/** What `instance show` prints beside the settings: the redirects with their states, the files' names. */
interface Extras {
  /** Absent when the caller may not read them (GET /instance/redirects needs instance:update). */
  redirects?: Redirects;
  /** File names by id, for the files the caller may read. */
  names: Map<string, string>;
}

async function extrasOf(client: JudgeClient, s: InstanceSettings): Promise<Extras> {
  const ids = [s.logo?.fileId, ...s.logoTranslations.map((t) => t.logo.fileId), s.theme.fileId].filter((id): id is string => id !== undefined);
  const [redirects, ...metas] = await Promise.all([unlessRefused(client.call(ops.getRedirects)), ...ids.map((id) => unlessRefused(client.call(ops.getFileMeta, { params: { id } })))]);
  const names = new Map(metas.filter((m) => m !== undefined).map((m) => [m.id, m.name]));
  return { ...(redirects ? { redirects } : {}), names };
}

const fileText = (f: NonNullable<InstanceSettings['logo']>, names: Map<string, string>) => `${names.get(f.fileId) ?? f.fileId} (${f.mimeType}, ${size(f.sizeBytes)})`;

const STATE: Record<string, string> = {
  active: 'active: the page sends there at once',
  disabled: 'the provider is disabled: the page is shown',
  missing: 'no provider has this slug any more: the page is shown',
};

/** One redirect: with its state when the caller may read it, else the slug GET /instance answers (enabled ones only). */
function redirectText(r: Redirects | undefined, which: 'signIn' | 'register', slug: string | undefined): string {
  if (!r) return slug ?? '(none)';
  const t = r[which];
  return t ? `${t.slug} (${t.displayName}), ${STATE[t.state] ?? t.state}` : '(none: the page is shown)';
}

const describeRedirects = (r: Redirects) =>
  fields([
    ['sign-in page', redirectText(r, 'signIn', undefined)],
    ['registration page', redirectText(r, 'register', undefined)],
  ]);

/** Everything `instance show` prints: the switches, the look, the documents in force and the redirects. */
function describe(s: InstanceSettings, x: Extras): string {
  const fonts = s.theme.fonts.map((f) => `${f.name} (${f.family} ${f.weight}${f.style === 'italic' ? ' italic' : ''}, ${size(f.sizeBytes)})`);
  const main = fields([
    ['name', s.name],
    ...SWITCHES.map((k): [string, string] => [k, s[k] ? 'on' : 'off']),
    ['requireTwoFactorFor', s.requireTwoFactorFor.join(', ') || '(none)'],
    ['logo', s.logo ? fileText(s.logo, x.names) : '(none)'],
    ['logo translations', s.logoTranslations.map((t) => `${t.language}: ${fileText(t.logo, x.names)}`).join('\n') || '(none)'],
    ['theme', s.theme.custom ? 'custom (judgectl instance theme show lists the colours)' : "the judge's own"],
    ['font family', s.theme.fontFamily],
    ['headings font', s.theme.fontFamilyHeadings],
    ['stylesheet', s.theme.fileId ? (x.names.get(s.theme.fileId) ?? s.theme.fileId) : '(none)'],
    ['fonts', fonts.join('\n') || '(none)'],
    ['signInRedirectProvider', redirectText(x.redirects, 'signIn', s.signInRedirectProvider)],
    ['registerRedirectProvider', redirectText(x.redirects, 'register', s.registerRedirectProvider)],
  ]);
  const docs = s.documents.length
    ? `Documents in force:\n${table(['kind', 'language', 'title', 'valid from'], s.documents.map((d) => [d.kind, d.language, d.title, when(d.validFrom)]))}`
    : 'Documents in force: none';
  return `${main}\n${docs}`;
}

/** The settings and what `instance show` adds to them; with --json the settings, and the redirects when `withRedirects`. */
async function show(client: JudgeClient, s: InstanceSettings, o: JsonOption, withRedirects: boolean): Promise<void> {
  const x = await extrasOf(client, s);
  emit(o, withRedirects && x.redirects ? { ...s, redirects: x.redirects } : s, () => describe(s, x));
}

const describeHosts = (c: ExternalContent) => (c.hosts.length ? c.hosts.join('\n') : '(none: files are never fetched from a URL)');

/** A list of permission keys, separated by commas or spaces; '' or none empties it. */
const keyList = (v: string): string[] => (/^none$/i.test(v.trim()) ? [] : v.split(/[\s,]+/).filter(Boolean));

/** The body of PUT /instance for one setting. */
function updateOf(setting: Setting, value: string): Record<string, unknown> {
  if (setting === 'name') return { name: value };
  if (setting === 'requireTwoFactorFor') return { requireTwoFactorFor: keyList(value) };
  if ((REDIRECTS as readonly string[]).includes(setting)) return { [setting]: /^(none|)$/i.test(value.trim()) ? '' : value.trim() };
  return { [setting]: onOff(value) };
}

export function instanceCommands(program: Command): void {
  const instance = program
    .command('instance')
    .description("The installation's name, switches, logo, theme, fonts, documents, access keys and redirects (what the Instance staff page does)");
  sub(instance, 'show', 'Show the name, every switch, the logo, the theme, the fonts, the documents in force and the redirects (--json: the palettes too)').action(
    async (o: JsonOption) => {
      const client = await api();
      await show(client, await client.call(ops.getInstance), o, true);
    },
  );
  sub(
    instance,
    'set',
    'Set a switch on or off, the name, the permissions that need two-factor sign-in, or the provider a page sends to at once: instance set allowRenameSelfRegistered on, instance set name "Lab judge", ' +
      'instance set requireTwoFactorFor system:administrator,user:update, instance set signInRedirectProvider school (none: show the page)',
  )
    .addArgument(new Argument('<setting>', 'name, requireTwoFactorFor, signInRedirectProvider, registerRedirectProvider, or a switch').choices(['name', 'requireTwoFactorFor', ...REDIRECTS, ...SWITCHES]))
    .addArgument(
      new Argument(
        '<value>',
        'on or off; for name, the text; for requireTwoFactorFor, permission keys separated by commas (none: empty); for a redirect, an identity provider\'s slug (none: the page is shown)',
      ),
    )
    .action(async (setting: Setting, value: string, o: JsonOption) => {
      const client = await api();
      const s = await client.call(ops.updateInstance, { body: updateOf(setting, value) });
      await show(client, s, o, false);
    });
  sub(
    instance,
    'redirects',
    'Show where the sign-in and registration pages send to at once, and the state of each provider named (set them with instance set signInRedirectProvider|registerRedirectProvider SLUG|none)',
  ).action(async (o: JsonOption) => {
    const r = await (await api()).call(ops.getRedirects);
    emit(o, r, () => describeRedirects(r));
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
  brandingCommands(instance);
  documentsCommands(instance);
  accessKeyCommands(instance);
}
