import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, PALETTE_MEMBERS, type InstanceSettings, type Theme } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { JUDGECTL, type ChildResult } from './cli-child.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';

/**
 * `judgectl instance logo|theme|fonts|documents|access-keys|redirects` against a real server, each
 * call the built judgectl as a child process: every setting of the Instance staff page from a terminal.
 */

// the server reads a file's type from its first bytes; the rest is filler
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const WOFF2 = Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(128, 7)]);

describe('judgectl instance settings', { timeout: 300_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let ctl: CtlSession;
  let dir: string;
  const file = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const settings = (): Promise<InstanceSettings> => admin.call(ops.getInstance);
  /** Runs a command that must succeed, and answers its standard output. */
  const out = async (...args: string[]) => {
    const r = await ctl.run(...args);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
  /** judgectl with `input` on its standard input (not a terminal). */
  const withInput = (input: string, ...args: string[]) =>
    new Promise<ChildResult>((resolve) => {
      const child = execFile(JUDGECTL, args, { encoding: 'utf8', env: ctl.env }, (err, stdout, stderr) => resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
      child.stdin!.end(input);
    });

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
    dir = mkdtempSync(join(tmpdir(), 'judgectl-instance-'));
  });
  afterAll(async () => {
    ctl?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await j?.stop();
  });

  it('sets the logo and a logo for German from PNG files, shows them, refuses what is no image, and removes them', async () => {
    expect(await out('instance', 'logo', 'set', file('logo.png', PNG))).toContain(`The logo is now logo.png (image/png, ${PNG.length} B).`);
    expect((await settings()).logo).toMatchObject({ mimeType: 'image/png', sizeBytes: PNG.length });
    const de = await ctl.ok<InstanceSettings>('instance', 'logo', 'set', file('logo-de.png', Buffer.concat([PNG, PNG])), '--language', 'de');
    expect(de.logoTranslations).toEqual([{ language: 'de', logo: expect.objectContaining({ mimeType: 'image/png', sizeBytes: 2 * PNG.length }) }]);
    const shown = await out('instance', 'show');
    expect(shown).toMatch(new RegExp(`logo\\s*│\\s*logo\\.png \\(image/png, ${PNG.length} B\\)`));
    expect(shown).toContain(`de: logo-de.png (image/png, ${2 * PNG.length} B)`);

    const before = (await settings()).logo;
    expect(await ctl.refused('instance', 'logo', 'set', file('notes.txt', 'not a picture'))).toMatch(/logo\.invalid/);
    expect(await ctl.refused('instance', 'logo', 'set', join(dir, 'absent.png'))).toContain('no such file');
    expect(await ctl.refused('instance', 'logo', 'set', file('x.png', PNG), '--language', 'German')).toContain('not a language tag');
    expect((await settings()).logo).toEqual(before);

    expect(await out('instance', 'logo', 'remove', '--language', 'de')).toContain('The logo for de is removed.');
    const after = await settings();
    expect(after.logoTranslations).toEqual([]);
    expect(after.logo).toEqual(before);
    expect(await out('instance', 'logo', 'remove')).toContain('The logo is removed.');
    expect((await settings()).logo).toBeUndefined();
    expect(await out('instance', 'logo', 'remove')).toContain('There was no logo: nothing changed.');
    expect(await out('instance', 'show')).toMatch(/logo\s*│\s*\(none\)/);
  });

  it('sets the palettes from member=colour pairs, shows them, keeps or replaces the rest, and resets the theme', async () => {
    const set = await ctl.run('instance', 'theme', 'set', '--light', 'primary=#0a7d32,link=#123456', '--light', 'headerBackground=rgb(10, 20, 30)', '--dark', 'body=#000', '--font-family', "'Atkinson Hyperlegible', sans-serif", '--stylesheet', file('extra.css', '.banner { color: red }\n'));
    expect(set.status, set.stderr).toBe(0);
    const t = (await settings()).theme;
    expect(t).toMatchObject({ custom: true, fontFamily: "'Atkinson Hyperlegible', sans-serif", fileId: expect.any(String) });
    expect(t.light).toMatchObject({ primary: '#0a7d32', link: '#123456', headerBackground: 'rgb(10, 20, 30)' });
    expect(t.dark.body).toBe('#000');
    expect(await (await fetch(`${j.url}/api/v1/instance/theme.css`)).text()).toContain('--accent:#0a7d32;--link:#123456;');

    const shown = await out('instance', 'theme', 'show');
    expect(shown).toMatch(/theme\s*│\s*custom/);
    expect(shown).toMatch(/primary\s*│\s*#0a7d32\s*│\s*#4493f8/);
    expect(shown).toMatch(/body\s*│\s*#ffffff\s*│\s*#000/);
    expect(shown).toMatch(/stylesheet\s*│\s*extra\.css/);
    for (const m of PALETTE_MEMBERS) expect(shown).toMatch(new RegExp(`^│?\\s*${m}\\s*│`, 'm'));
    expect((await ctl.ok<Theme>('instance', 'theme', 'show')).light).toEqual(t.light);
    expect(await out('instance', 'show')).toMatch(/theme\s*│\s*custom/);

    // --keep changes what it names and keeps the rest; without it, the rest is the judge's own again
    const kept = await ctl.ok<Theme>('instance', 'theme', 'set', '--keep', '--dark', 'link=#abcdef');
    expect(kept).toMatchObject({ fontFamily: "'Atkinson Hyperlegible', sans-serif", fileId: t.fileId });
    expect(kept.light).toEqual(t.light);
    expect(kept.dark).toEqual({ ...t.dark, link: '#abcdef' });
    const replaced = await ctl.ok<Theme>('instance', 'theme', 'set', '--light', 'primary=navy');
    expect(replaced.light.primary).toBe('navy');
    expect(replaced.light.link).not.toBe('#123456');
    expect(replaced.fontFamily).not.toContain('Atkinson');
    expect(replaced.fileId).toBeUndefined();

    // the colour is the server's to refuse, named by its member
    expect(await ctl.refused('instance', 'theme', 'set', '--light', 'primary=red;}body{display:none')).toMatch(/validation_failed.*light\.primary/);
    expect(await ctl.refused('instance', 'theme', 'set')).toContain('nothing to set');
    expect((await settings()).theme.light.primary).toBe('navy');

    expect(await out('instance', 'theme', 'reset')).toContain("The theme is the judge's own again.");
    const reset = (await settings()).theme;
    expect(reset.custom).toBe(false);
    expect(reset.light.primary).toBe('#1d4ed8');
    expect(await out('instance', 'theme', 'show')).toMatch(/theme\s*│\s*the judge's own/);
  });

  it('refuses an unknown palette member itself, naming the fifteen members, and changes nothing on the server', async () => {
    await admin.call(ops.setTheme, { body: { light: { primary: '#0a7d32' } } });
    const before = (await settings()).theme;
    const said = await ctl.refused('instance', 'theme', 'set', '--light', 'primary=#ff0000,navbar=#123456');
    expect(said).toContain('"navbar" is no palette member');
    expect(said).toContain(`the members are ${PALETTE_MEMBERS.join(', ')}`);
    expect(PALETTE_MEMBERS).toHaveLength(15);
    const json = await ctl.run('instance', 'theme', 'set', '--dark', 'colour', '--json');
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { status: null, code: 'refused', detail: expect.stringContaining('"colour" is no palette member') } });
    expect((await settings()).theme).toEqual(before);
    // the palette's members are named in the help too
    expect(await out('instance', 'theme', 'set', '--help')).toContain('navActiveBackground');
    await admin.call(ops.resetTheme);
  });

  it('adds a font from a WOFF2 file, lists it, refuses a name in use and what is no font, and removes it', async () => {
    const added = await out('instance', 'fonts', 'add', file('atkinson-bold.woff2', WOFF2), '--name', 'Atkinson Bold', '--family', 'Atkinson', '--weight', '700', '--style', 'italic');
    expect(added).toContain(`Added the font Atkinson Bold: family Atkinson, weight 700, italic, ${WOFF2.length} B.`);
    expect((await settings()).theme.fonts).toEqual([expect.objectContaining({ name: 'Atkinson Bold', family: 'Atkinson', weight: 700, style: 'italic', sizeBytes: WOFF2.length })]);
    expect(await ctl.ok('instance', 'fonts', 'list')).toEqual([expect.objectContaining({ name: 'Atkinson Bold', weight: 700 })]);
    expect(await out('instance', 'fonts', 'list')).toMatch(/Atkinson Bold\s*│\s*Atkinson\s*│\s*700\s*│\s*italic/);
    expect(await out('instance', 'show')).toContain('Atkinson Bold (Atkinson 700 italic');

    expect(await ctl.refused('instance', 'fonts', 'add', file('again.woff2', WOFF2), '--name', 'atkinson bold')).toMatch(/font\.name\.taken/);
    expect(await ctl.refused('instance', 'fonts', 'add', file('fake.woff2', 'no font at all'), '--name', 'Fake')).toMatch(/font\.invalid/);
    expect(await ctl.refused('instance', 'fonts', 'add', file('other.woff2', WOFF2), '--name', 'Other', '--style', 'oblique')).toMatch(/Allowed choices are normal, italic/);
    expect(await admin.call(ops.listFonts)).toEqual(['Atkinson Bold']);

    expect(await out('instance', 'fonts', 'remove', 'Atkinson Bold')).toContain('Removed the font Atkinson Bold.');
    expect(await admin.call(ops.listFonts)).toEqual([]);
    expect(await out('instance', 'fonts', 'list')).toContain('No uploaded fonts');
    expect(await ctl.refused('instance', 'fonts', 'remove', 'Atkinson Bold')).toMatch(/404 not_found/);
  });

  it('publishes the terms in two languages, lists the history with what is in force, supersedes and withdraws them', async () => {
    const en = file('terms.md', '# Terms\n\nBe kind.\n');
    const de = file('terms.de.md', '# Nutzungsbedingungen\n\nSei nett.\n');
    const published = await out('instance', 'documents', 'publish', 'terms', en, de);
    expect(published).toContain('Published terms, in force now:');
    expect(published).toMatch(/en: terms\.md/);
    expect(published).toMatch(/de: terms\.de\.md/);
    const inForce = (await settings()).documents.filter((d) => d.kind === 'terms');
    expect(inForce.map((d) => [d.language, d.title])).toEqual([
      ['de', 'Terms of use'],
      ['en', 'Terms of use'],
    ]);
    expect(await out('instance', 'show')).toMatch(/terms\s*│\s*de\s*│\s*Terms of use/);

    // a new English revision supersedes the first; its German one stays in force
    await out('instance', 'documents', 'publish', 'terms', `${file('terms-v2.md', '# Terms\n\nBe very kind.\n')}:en`, '--title', 'Terms, second edition');
    const listed = await ctl.ok<{ language: string; title: string; isTemplate: boolean; inForce: boolean }[]>('instance', 'documents', 'list', 'terms');
    expect(listed.filter((d) => !d.isTemplate).map((d) => [d.language, d.title, d.inForce])).toEqual(
      expect.arrayContaining([
        ['en', 'Terms, second edition', true],
        ['en', 'Terms of use', false],
        ['de', 'Terms of use', true],
      ]),
    );
    expect(listed.filter((d) => d.isTemplate).map((d) => [d.language, d.inForce])).toEqual([
      ['en', false],
      ['de', false],
    ]);
    const text = await out('instance', 'documents', 'list', 'terms');
    expect(text).toMatch(/in force\s*│\s*en\s*│\s*Terms, second edition/);
    expect(text).toMatch(/not in force\s*│\s*en\s*│\s*Terms of use/);
    expect(text).toMatch(/template\s*│\s*de\s*│\s*Nutzungsbedingungen \(Vorlage\)/);

    // a language from a :LANG suffix; two files for one language are refused before anything is sent
    expect(await ctl.ok<InstanceSettings>('instance', 'documents', 'publish', 'rules', `${file('house-rules.md', 'No food.\n')}:fr`)).toMatchObject({ documents: expect.arrayContaining([expect.objectContaining({ kind: 'rules', language: 'fr' })]) });
    expect(await ctl.refused('instance', 'documents', 'publish', 'rules', en, `${de}:en`)).toContain('two files for the language en');
    expect(await ctl.refused('instance', 'documents', 'publish', 'nonsense', en)).toMatch(/Allowed choices are terms, privacy/);
    expect(await ctl.refused('instance', 'documents', 'publish', 'rules', file('rules.docx', 'x'))).toMatch(/validation_failed.*not Markdown, text, HTML or PDF/);

    expect(await out('instance', 'documents', 'withdraw', 'terms')).toContain('Withdrew terms');
    expect((await settings()).documents.map((d) => d.kind)).toEqual(['rules']);
    const after = await ctl.ok<{ isTemplate: boolean; inForce: boolean }[]>('instance', 'documents', 'list', 'terms');
    expect(after.filter((d) => !d.isTemplate)).toHaveLength(3);
    expect(after.some((d) => d.inForce)).toBe(false);
  });

  it('downloads a template to start from, to a new file or standard output', async () => {
    const target = join(dir, 'terms-template.de.md');
    expect(await out('instance', 'documents', 'template', 'terms', '--language', 'de', '--out', target)).toContain(`Wrote Nutzungsbedingungen (Vorlage) to ${target}`);
    const template = (await admin.call(ops.listInstanceDocuments, { params: { kind: 'terms' } })).find((d) => d.isTemplate && d.language === 'de')!;
    const served = Buffer.from(await admin.call(ops.downloadFile, { params: { id: template.fileId } })).toString('utf8');
    expect(readFileSync(target, 'utf8')).toBe(served);
    expect(served.length).toBeGreaterThan(100);
    expect(await ctl.refused('instance', 'documents', 'template', 'terms', '--language', 'de', '--out', target)).toContain('exists: not writing over it');
    const printed = await out('instance', 'documents', 'template', 'privacy');
    expect(printed.length).toBeGreaterThan(100);
    expect(await ctl.refused('instance', 'documents', 'template', 'rules')).toContain('no rules template in en');
  });

  it('stores an access key read from standard input without ever printing it, shows it on asking, and removes it', async () => {
    const secret = 'sk-archive-4711-very-secret';
    const set = await withInput(`${secret}\n`, 'instance', 'access-keys', 'set', 'UVaExplorer', '--expires', '2099-01-01T00:00:00Z');
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toContain('Stored the access key uvaexplorer, valid until 2099-01-01 00:00:00Z.');
    expect(set.stdout + set.stderr).not.toContain(secret);
    expect((await admin.call(ops.getAccessKeyValue, { params: { name: 'uvaexplorer' } })).value).toBe(secret);
    const setJson = await withInput(secret, 'instance', 'access-keys', 'set', 'licence', '--json');
    expect(setJson.status, setJson.stderr).toBe(0);
    expect(setJson.stdout).not.toContain(secret);

    const listed = await ctl.run('instance', 'access-keys', 'list');
    expect(listed.stdout).toMatch(/uvaexplorer\s*│[^\n]*│\s*2099-01-01 00:00:00Z/);
    expect(listed.stdout).not.toContain(secret);
    const listedJson = await ctl.run('instance', 'access-keys', 'list', '--json');
    expect(JSON.parse(listedJson.stdout).map((k: { name: string }) => k.name)).toEqual(['licence', 'uvaexplorer']);
    expect(listedJson.stdout).not.toContain(secret);

    expect(await out('instance', 'access-keys', 'show', 'uvaexplorer')).toBe(`${secret}\n`);
    expect(await ctl.ok('instance', 'access-keys', 'show', 'licence')).toMatchObject({ name: 'licence', value: secret });

    // an empty value would remove the key: refused, nothing stored
    expect((await withInput('', 'instance', 'access-keys', 'set', 'empty')).stderr).toContain('the value is empty');
    writeFileSync(join(dir, 'key'), 'from-a-file\n');
    expect(await out('instance', 'access-keys', 'set', 'filed', '--value-from-file', join(dir, 'key'))).not.toContain('from-a-file');
    expect((await admin.call(ops.getAccessKeyValue, { params: { name: 'filed' } })).value).toBe('from-a-file');

    expect(await out('instance', 'access-keys', 'remove', 'licence')).toContain('Removed the access key licence.');
    expect((await admin.call(ops.listAccessKeys)).map((k) => k.name)).toEqual(['filed', 'uvaexplorer']);
    expect(await ctl.refused('instance', 'access-keys', 'remove', 'licence')).toContain('no access key licence');
    expect(await ctl.refused('instance', 'access-keys', 'show', 'licence')).toMatch(/404 not_found/);
  });

  it('sends the sign-in and registration pages to a provider, shows the redirects with their states, and clears them', async () => {
    const provider = { slug: 'school', displayName: 'School accounts', issuer: 'https://login.school.example', clientId: 'judge', claimPath: 'groups', mappingRules: [] };
    const p = await admin.call(ops.createProvider, { body: provider });
    expect(await out('instance', 'redirects')).toMatch(/sign-in page\s*│\s*\(none: the page is shown\)/);
    await ctl.ok('instance', 'set', 'signInRedirectProvider', 'school');
    await ctl.ok('instance', 'set', 'registerRedirectProvider', 'school');
    expect(await settings()).toMatchObject({ signInRedirectProvider: 'school', registerRedirectProvider: 'school' });
    expect(await ctl.ok('instance', 'redirects')).toEqual({
      signIn: { slug: 'school', displayName: 'School accounts', state: 'active' },
      register: { slug: 'school', displayName: 'School accounts', state: 'active' },
    });
    expect(await out('instance', 'redirects')).toMatch(/sign-in page\s*│\s*school \(School accounts\), active/);
    expect(await out('instance', 'show')).toMatch(/signInRedirectProvider\s*│\s*school \(School accounts\), active/);
    expect((await ctl.ok('instance', 'show')).redirects).toMatchObject({ signIn: { state: 'active' } });

    // a disabled provider: the redirect stays, and says the page is shown
    await admin.call(ops.updateProvider, { params: { id: p.id }, body: { ...provider, enabled: false } });
    expect(await out('instance', 'redirects')).toContain('school (School accounts), the provider is disabled: the page is shown');
    await admin.call(ops.updateProvider, { params: { id: p.id }, body: { ...provider, enabled: true } });

    expect(await ctl.refused('instance', 'set', 'signInRedirectProvider', 'nowhere')).toMatch(/redirect\.provider\.unknown/);
    const cleared = await out('instance', 'set', 'signInRedirectProvider', 'none');
    expect(cleared).toMatch(/signInRedirectProvider\s*│\s*\(none: the page is shown\)/);
    expect(await ctl.ok('instance', 'redirects')).toEqual({ register: expect.objectContaining({ slug: 'school' }) });
    await ctl.ok('instance', 'set', 'registerRedirectProvider', 'none');
    const after = await settings();
    expect(after.signInRedirectProvider).toBeUndefined();
    expect(after.registerRedirectProvider).toBeUndefined();
  });

  it('lists every new command in the help, and refuses a participant', async () => {
    const help = await out('instance', '--help');
    for (const c of ['logo', 'theme', 'fonts', 'documents', 'access-keys', 'redirects']) expect(help).toMatch(new RegExp(`^\\s+${c}\\b`, 'm'));
    expect(await out('instance', 'set', '--help')).toContain('signInRedirectProvider');
    const pupil = await j.user('pupil');
    const them = await judgectlAs(j.url, pupil.username, pupil.password);
    try {
      expect(await them.refused('instance', 'logo', 'set', file('p.png', PNG))).toMatch(/403/);
      expect(await them.refused('instance', 'access-keys', 'list')).toMatch(/403/);
      // what everybody may read is still shown; the redirects' states are not theirs to read
      expect((await them.run('instance', 'show')).stdout).toMatch(/signInRedirectProvider\s*│\s*\(none\)/);
    } finally {
      them.close();
    }
  });
});
