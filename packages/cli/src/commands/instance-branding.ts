import { ops, PALETTE_MEMBERS, type InstanceSettings, type PaletteMember, type Theme } from '@judge/contract';
import { Option, type Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, fields, table, type JsonOption } from '../output.js';
import { int, sub } from './common.js';
import { language, size, unlessRefused, uploadLocal } from './instance-shared.js';

/**
 * `instance logo|theme|fonts`: what makes the judge look like the school's. The server reads a
 * logo's and a font's type from the file's first bytes and refuses what is none of the kinds it
 * takes (logo.invalid, font.invalid), so nothing is guessed here.
 */
export function brandingCommands(instance: Command): void {
  logoCommands(instance);
  themeCommands(instance);
  fontCommands(instance);
}

type LanguageOption = JsonOption & { language?: string };

const logoOf = (s: InstanceSettings, lang: string | undefined) => (lang ? s.logoTranslations.find((t) => t.language === lang)?.logo : s.logo);
const whose = (lang: string | undefined) => (lang ? `The logo for ${lang}` : 'The logo');

function logoCommands(instance: Command): void {
  const logo = instance.command('logo').description("The logo in every page's header: the default one, and one per language where it differs");
  const languageOption = () => new Option('--language <tag>', 'the logo for this language (de, pt-BR); without it, the default logo').argParser(language);
  sub(logo, 'set <file>', 'Upload a PNG, JPEG, WebP, GIF or SVG image (at most 2 MiB) and make it the logo, or the logo for one language')
    .addOption(languageOption())
    .action(async (file: string, o: LanguageOption) => {
      const client = await api();
      const f = await uploadLocal(client, file);
      const s = await client.call(ops.setLogo, { body: { fileId: f.id, ...(o.language ? { language: o.language } : {}) } });
      const set = logoOf(s, o.language);
      emit(o, s, () =>
        [
          `${whose(o.language)} is now ${f.name} (${set?.mimeType ?? f.mimeType}, ${size(f.sizeBytes)}).`,
          ...(s.showLogo ? [] : ['Pages show no logo while showLogo is off: judgectl instance set showLogo on']),
        ].join('\n'),
      );
    });
  sub(logo, 'remove', 'Remove the logo, or the logo for one language (that language then shows the default logo)')
    .addOption(languageOption())
    .action(async (o: LanguageOption) => {
      const client = await api();
      const had = logoOf(await client.call(ops.getInstance), o.language);
      const s = await client.call(ops.setLogo, { body: o.language ? { language: o.language } : {} });
      emit(o, s, () => (had ? `${whose(o.language)} is removed.` : `There was no ${o.language ? `logo for ${o.language}` : 'logo'}: nothing changed.`));
    });
}

/** `member=colour` pairs, comma-separated; a comma inside a colour function's parentheses stays in it. */
type PaletteInput = Partial<Record<PaletteMember, string>>;
interface ThemeBody {
  light?: PaletteInput;
  dark?: PaletteInput;
  fontFamily?: string;
  fontFamilyHeadings?: string;
  fileId?: string;
}

function palette(option: string, texts: string[]): PaletteInput | undefined {
  if (!texts.length) return undefined;
  const out: PaletteInput = {};
  for (const text of texts) {
    for (const pair of text.split(/,(?![^(]*\))/).map((p) => p.trim()).filter(Boolean)) {
      const at = pair.indexOf('=');
      const typed = at < 0 ? pair : pair.slice(0, at).trim();
      const member = PALETTE_MEMBERS.find((m) => m.toLowerCase() === typed.toLowerCase());
      if (!member) throw new CliError(`${option}: ${JSON.stringify(typed)} is no palette member; the members are ${PALETTE_MEMBERS.join(', ')}`);
      const colour = at < 0 ? '' : pair.slice(at + 1).trim();
      if (!colour) throw new CliError(`${option}: give ${member}=COLOUR, e.g. ${member}=#0a7d32`);
      out[member] = colour;
    }
  }
  return out;
}

const collect = (v: string, previous: string[] = []) => [...previous, v];

type ThemeOptions = JsonOption & { light?: string[]; dark?: string[]; fontFamily?: string; fontFamilyHeadings?: string; stylesheet?: string; keep?: boolean };

/** What `--keep` carries over from the theme in force: palettes, families and stylesheet, where not named anew. */
function kept(t: Theme): ThemeBody {
  if (!t.custom) return t.fileId ? { fileId: t.fileId } : {};
  return {
    light: t.light,
    dark: t.dark,
    fontFamily: t.fontFamily,
    // headings that follow the body's family keep following it
    ...(t.fontFamilyHeadings !== t.fontFamily ? { fontFamilyHeadings: t.fontFamilyHeadings } : {}),
    ...(t.fileId ? { fileId: t.fileId } : {}),
  };
}

function describeTheme(t: Theme, stylesheetName?: string): string {
  const colours = table(
    ['member', 'light', 'dark'],
    PALETTE_MEMBERS.map((m) => [m, t.light[m], t.dark[m]]),
  );
  const about = fields([
    ['theme', t.custom ? 'custom' : "the judge's own"],
    ['font family', t.fontFamily],
    ['headings font', t.fontFamilyHeadings],
    ['stylesheet', t.fileId ? (stylesheetName ?? t.fileId) : '(none)'],
    ['fonts', t.fonts.map((f) => `${f.name} (${f.family} ${f.weight}${f.style === 'italic' ? ' italic' : ''})`).join('\n') || '(none)'],
  ]);
  return `${about}\n${colours}`;
}

function themeCommands(instance: Command): void {
  const theme = instance
    .command('theme')
    .description("The colours of the light and dark palettes, the font families and an extra stylesheet every page loads (GET /instance/theme.css)");
  sub(theme, 'show', "Show the theme: both palettes member by member (the judge's own colour where none was set), the families, the stylesheet and the fonts").action(
    async (o: JsonOption) => {
      const client = await api();
      const { theme: t } = await client.call(ops.getInstance);
      const stylesheet = t.fileId ? await unlessRefused(client.call(ops.getFileMeta, { params: { id: t.fileId } })) : undefined;
      emit(o, t, () => describeTheme(t, stylesheet?.name));
    },
  );
  sub(
    theme,
    'set',
    "Replace the theme: the palette members, families and stylesheet named here, the judge's own for the rest (with --keep, the current theme's). " +
      `Palette members: ${PALETTE_MEMBERS.join(', ')}. Example: instance theme set --light primary=#0a7d32,link=#123456 --dark body=#000 --font-family "'Source Sans 3', sans-serif"`,
  )
    .option('--light <member=colour,...>', 'colours of the light palette, e.g. primary=#0a7d32,headerBackground=rgb(10,20,30) (repeatable)', collect)
    .option('--dark <member=colour,...>', 'colours of the dark palette (repeatable)', collect)
    .option('--font-family <list>', "the CSS font-family of the text, e.g. \"'Source Sans 3', system-ui, sans-serif\"")
    .option('--font-family-headings <list>', 'the font-family of headings (default: the text\'s)')
    .option('--stylesheet <file>', 'a CSS file (UTF-8, at most 256 KiB) every page loads after the palettes')
    .option('--keep', 'keep what the current theme sets and this command does not name (the judge\'s own colours are then stored as chosen)')
    .action(async (o: ThemeOptions) => {
      const light = palette('--light', o.light ?? []);
      const dark = palette('--dark', o.dark ?? []);
      if (!light && !dark && !o.fontFamily && !o.fontFamilyHeadings && !o.stylesheet) {
        throw new CliError('nothing to set: give --light, --dark, --font-family, --font-family-headings or --stylesheet (instance theme reset goes back to the judge\'s own)');
      }
      const client = await api();
      const base: ThemeBody = o.keep ? kept((await client.call(ops.getInstance)).theme) : {};
      const file = o.stylesheet ? await uploadLocal(client, o.stylesheet) : undefined;
      const body: ThemeBody = { ...base };
      if (light) body.light = { ...base.light, ...light };
      if (dark) body.dark = { ...base.dark, ...dark };
      if (o.fontFamily) body.fontFamily = o.fontFamily;
      if (o.fontFamilyHeadings) body.fontFamilyHeadings = o.fontFamilyHeadings;
      if (file) body.fileId = file.id;
      const s = await client.call(ops.setTheme, { body });
      emit(o, s.theme, () => `The theme is set.\n${describeTheme(s.theme, file?.name)}`);
    });
  sub(theme, 'reset', "Go back to the judge's own palettes and families, without a stylesheet (the uploaded fonts stay)").action(async (o: JsonOption) => {
    const s = await (await api()).call(ops.resetTheme);
    emit(o, s.theme, () => "The theme is the judge's own again.");
  });
}

function fontCommands(instance: Command): void {
  const fonts = instance.command('fonts').description('Font files (WOFF2, WOFF, TrueType, OpenType) every page can use: name their family in instance theme set --font-family');
  sub(fonts, 'list', 'List the uploaded fonts').action(async (o: JsonOption) => {
    const list = (await (await api()).call(ops.getInstance)).theme.fonts;
    emit(o, list, () =>
      list.length
        ? table(['name', 'family', 'weight', 'style', 'size'], list.map((f) => [f.name, f.family, f.weight, f.style, size(f.sizeBytes)]))
        : 'No uploaded fonts: add one with judgectl instance fonts add FILE --name NAME',
    );
  });
  sub(fonts, 'add <file>', 'Upload a font file (WOFF2, WOFF, TrueType or OpenType, at most 4 MiB; at most 20 fonts) under a name')
    .requiredOption('--name <name>', 'its name here (letters, digits, spaces, dots, dashes, underscores)')
    .option('--family <family>', 'the CSS family it belongs to (default: the name)')
    .option('--weight <100..900>', 'its CSS font-weight (default 400)', int)
    .addOption(new Option('--style <style>', 'its style (default normal)').choices(['normal', 'italic']))
    .action(async (file: string, o: JsonOption & { name: string; family?: string; weight?: number; style?: 'normal' | 'italic' }) => {
      const client = await api();
      const f = await uploadLocal(client, file);
      const body = { fileId: f.id, name: o.name, ...(o.family ? { family: o.family } : {}), ...(o.weight !== undefined ? { weight: o.weight } : {}), ...(o.style ? { style: o.style } : {}) };
      const s = await client.call(ops.addFont, { body });
      const font = s.theme.fonts.find((x) => x.name.toLowerCase() === o.name.trim().toLowerCase());
      emit(o, s.theme.fonts, () =>
        font
          ? `Added the font ${font.name}: family ${font.family}, weight ${font.weight}, ${font.style}, ${size(font.sizeBytes)}.\n` +
            `Use it: judgectl instance theme set --keep --font-family "'${font.family}', sans-serif"`
          : `Added the font ${o.name}.`,
      );
    });
  sub(fonts, 'remove <name>', 'Remove an uploaded font (a family that names it falls back to the next one in its list)').action(async (name: string, o: JsonOption) => {
    const s = await (await api()).call(ops.deleteFont, { params: { name } });
    emit(o, s.theme.fonts, () => `Removed the font ${name}.`);
  });
}
