import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import type { EventStream, JudgeClient } from '@judge/sdk';
import { TestJudge } from './harness.js';
import { open } from './support/socket.js';

/**
 * The instance's look (interface "Instance settings"): theme, logo and fonts. Each write needs
 * instance:update, tells every signed-in page (instanceChanged), and what it chose is served to
 * everybody, signed in or not: the theme as one stylesheet, the files by id, and no other file.
 */

let j: TestJudge;
let admin: JudgeClient;
let pupil: JudgeClient;
let stream: EventStream;

// the first bytes are what the server reads a type from; the rest is filler
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
const WOFF2 = Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(128, 7)]);

const anonymousGet = (path: string, headers: Record<string, string> = {}) => fetch(`${j.url}/api/v1${path}`, { headers });

beforeAll(async () => {
  j = await TestJudge.start();
  admin = await j.admin();
  pupil = await j.signIn(await j.user('pupil-b'), 'cookie');
  stream = await open(pupil);
});
afterAll(async () => {
  stream?.close();
  await j?.stop();
});

describe('the theme', () => {
  it('fills what was left out with the judge\'s own colours, and every page\'s stylesheet carries what was set', async () => {
    const before = await anonymousGet('/instance/theme.css');
    expect(before.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await before.text()).not.toContain(':root');
    const s = await admin.call(ops.setTheme, { body: { light: { primary: '#0a7d32', headerBackground: 'rgb(10, 20, 30)' }, dark: { body: '#000' }, fontFamily: "'Atkinson Hyperlegible', sans-serif" } });
    expect(s.theme).toMatchObject({ custom: true, fontFamily: "'Atkinson Hyperlegible', sans-serif", fontFamilyHeadings: "'Atkinson Hyperlegible', sans-serif" });
    expect(s.theme.light).toMatchObject({ primary: '#0a7d32', headerBackground: 'rgb(10, 20, 30)', text: '#161b22' });
    expect(s.theme.dark).toMatchObject({ primary: '#4493f8', body: '#000' });
    expect((await stream.next('instanceChanged')).data).toMatchObject({ instance: { theme: { custom: true } } });
    const css = await anonymousGet('/instance/theme.css');
    const text = await css.text();
    expect(text).toContain(':root:root{--accent:#0a7d32;--header-bg:rgb(10, 20, 30);--sans:\'Atkinson Hyperlegible\', sans-serif;}');
    // a member set for light is written for dark too, with its dark colour, so light does not leak into dark mode
    expect(text).toContain('@media (prefers-color-scheme: dark){:root:root{--accent:#4493f8;--bg:#000;--header-bg:#161b22;}}');
    const again = await anonymousGet('/instance/theme.css', { 'if-none-match': css.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect((await j.anonymous().call(ops.getInstance)).theme.light.primary).toBe('#0a7d32');
  });

  it('refuses a colour or family that could break out of its rule, and changes nothing', async () => {
    const before = await admin.call(ops.getInstance);
    for (const body of [{ light: { primary: 'red;}body{display:none' } }, { fontFamily: 'x;}*{color:red}' }, { light: { unknownMember: '#fff' } }]) {
      await expect(admin.call(ops.setTheme, { body: body as never })).rejects.toMatchObject({ status: 422, code: 'validation_failed' });
    }
    expect((await admin.call(ops.getInstance)).theme).toEqual(before.theme);
  });

  it('takes a stylesheet that is text, imported first; refuses one that is not', async () => {
    const sheet = await admin.upload('school.css', 'body { letter-spacing: 0.01em; }\n', 'text/css');
    const s = await admin.call(ops.setTheme, { body: { light: { link: '#123456' }, fileId: sheet.id } });
    expect(s.theme).toMatchObject({ fileId: sheet.id, sha256: sheet.sha256, custom: true });
    expect((await (await anonymousGet('/instance/theme.css')).text()).split('\n')[1]).toBe(`@import url("/api/v1/instance/files/${sheet.id}");`);
    const served = await anonymousGet(`/instance/files/${sheet.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/css/);
    const binary = await admin.upload('not.css', Buffer.from([0xff, 0xfe, 0x00, 0x01]), 'text/css');
    await expect(admin.call(ops.setTheme, { body: { fileId: binary.id } })).rejects.toMatchObject({ status: 422, code: 'stylesheet.invalid' });
    expect((await admin.call(ops.getInstance)).theme.fileId).toBe(sheet.id);
  });

  it('goes back to the judge\'s own look, keeping the fonts', async () => {
    const font = await admin.upload('kept.woff2', WOFF2, 'font/woff2');
    await admin.call(ops.addFont, { body: { fileId: font.id, name: 'Kept' } });
    const s = await admin.call(ops.resetTheme);
    expect(s.theme).toMatchObject({ custom: false, light: { primary: '#1d4ed8' } });
    expect(s.theme.fileId).toBeUndefined();
    expect(s.theme.fonts.map((f) => f.name)).toContain('Kept');
    const css = await (await anonymousGet('/instance/theme.css')).text();
    expect(css).not.toContain(':root');
    expect(css).toContain('@font-face{font-family:"Kept"');
    await admin.call(ops.deleteFont, { params: { name: 'Kept' } });
  });
});

describe('the logo', () => {
  it('is set, served to everybody with its type, per language, and removed', async () => {
    const png = await admin.upload('logo.png', PNG, 'application/octet-stream');
    const svg = await admin.upload('logo-de.svg', SVG, 'image/svg+xml');
    let s = await admin.call(ops.setLogo, { body: { fileId: png.id } });
    expect(s.logo).toEqual({ fileId: png.id, mimeType: 'image/png', sizeBytes: PNG.length, sha256: png.sha256 });
    s = await admin.call(ops.setLogo, { body: { fileId: svg.id, language: 'de' } });
    expect(s.logoTranslations).toEqual([{ language: 'de', logo: { fileId: svg.id, mimeType: 'image/svg+xml', sizeBytes: Buffer.byteLength(SVG), sha256: svg.sha256 } }]);
    const served = await anonymousGet(`/instance/files/${png.id}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect((await j.anonymous().call(ops.getInstance)).logo?.fileId).toBe(png.id);
    s = await admin.call(ops.setLogo, { body: { language: 'de' } });
    expect(s.logoTranslations).toEqual([]);
    expect(s.logo?.fileId).toBe(png.id);
    s = await admin.call(ops.setLogo, { body: {} });
    expect(s.logo).toBeUndefined();
    // no longer shown: no longer everybody's
    expect((await anonymousGet(`/instance/files/${png.id}`)).status).toBe(404);
  });

  it('refuses a file that is not an image, and one that is somebody else\'s', async () => {
    const text = await admin.upload('logo.png', 'not an image at all', 'image/png');
    await expect(admin.call(ops.setLogo, { body: { fileId: text.id } })).rejects.toMatchObject({ status: 422, code: 'logo.invalid' });
    const teacher = await j.user('logo-teacher');
    const keeper = await admin.call(ops.createRole, { body: { name: 'Instance keeper', permissions: ['instance:update'] } });
    await admin.call(ops.createGrant, { body: { userId: teacher.id, roleId: keeper.id } });
    const asKeeper = await j.signIn(teacher);
    const pupilsFile = await pupil.upload('mine.png', PNG, 'image/png');
    await expect(asKeeper.call(ops.setLogo, { body: { fileId: pupilsFile.id } })).rejects.toMatchObject({ status: 422, code: 'file.missing' });
    const own = await asKeeper.upload('own.png', PNG, 'image/png');
    expect((await asKeeper.call(ops.setLogo, { body: { fileId: own.id } })).logo?.fileId).toBe(own.id);
    await asKeeper.call(ops.setLogo, { body: {} });
  });
});

describe('fonts', () => {
  it('are added from a font file, named, served with their type, and removed', async () => {
    const f = await admin.upload('Inter-Bold.woff2', WOFF2, 'application/octet-stream');
    const s = await admin.call(ops.addFont, { body: { fileId: f.id, name: 'Inter Bold', family: 'Inter', weight: 700 } });
    expect(s.theme.fonts).toEqual([{ name: 'Inter Bold', family: 'Inter', weight: 700, style: 'normal', fileId: f.id, sha256: f.sha256, sizeBytes: WOFF2.length }]);
    expect(await admin.call(ops.listFonts)).toEqual(['Inter Bold']);
    const served = await anonymousGet(`/instance/files/${f.id}`);
    expect(served.headers.get('content-type')).toBe('font/woff2');
    expect(await (await anonymousGet('/instance/theme.css')).text()).toContain(
      `@font-face{font-family:"Inter";src:url("/api/v1/instance/files/${f.id}") format("woff2");font-weight:700;font-style:normal;font-display:swap}`,
    );
    await expect(admin.call(ops.addFont, { body: { fileId: f.id, name: 'inter bold' } })).rejects.toMatchObject({ status: 409, code: 'font.name.taken' });
    const notFont = await admin.upload('x.woff2', 'plain text', 'font/woff2');
    await expect(admin.call(ops.addFont, { body: { fileId: notFont.id, name: 'Broken' } })).rejects.toMatchObject({ status: 422, code: 'font.invalid' });
    await expect(admin.call(ops.deleteFont, { params: { name: 'Nothing' } })).rejects.toMatchObject({ status: 404 });
    expect((await admin.call(ops.deleteFont, { params: { name: 'Inter Bold' } })).theme.fonts).toEqual([]);
    expect(await admin.call(ops.listFonts)).toEqual([]);
  });
});

describe('who may', () => {
  it('only a holder of instance:update changes the look; nobody else, and nothing changes', async () => {
    const before = await admin.call(ops.getInstance);
    const file = await pupil.upload('p.png', PNG, 'image/png');
    const attempts = [
      () => pupil.call(ops.setTheme, { body: { light: { primary: '#000000' } } }),
      () => pupil.call(ops.resetTheme),
      () => pupil.call(ops.setLogo, { body: { fileId: file.id } }),
      () => pupil.call(ops.addFont, { body: { fileId: file.id, name: 'P' } }),
      () => pupil.call(ops.deleteFont, { params: { name: 'P' } }),
      () => pupil.call(ops.listFonts),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ status: 403 });
    for (const op of [ops.setTheme, ops.setLogo] as const) await expect(j.anonymous().call(op, { body: {} } as never)).rejects.toMatchObject({ status: 401 });
    expect(await admin.call(ops.getInstance)).toEqual(before);
  });

  it('a file the instance does not show is nobody\'s through /instance/files, and an unknown id is 404', async () => {
    const own = await pupil.upload('private.txt', 'mine alone', 'text/plain');
    expect((await anonymousGet(`/instance/files/${own.id}`)).status).toBe(404);
    expect((await anonymousGet('/instance/files/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
