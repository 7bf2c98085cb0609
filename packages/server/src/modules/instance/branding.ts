import { ApiError, notFound, type InstanceSettings } from '@judge/contract';
import type { z } from 'zod';
import type { AddFontRequest, SetThemeRequest } from '@judge/contract';
import type { Actor } from '../../auth/permissions.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { fontType, headOf, imageType, isUtf8Text, usableFile, type Bytes, type FileRow } from './instance-files.js';
import type { Stored, StoredFile } from './stored.js';

const MAX_LOGO_BYTES = 2 * 1024 * 1024;
const MAX_FONT_BYTES = 4 * 1024 * 1024;
const MAX_FONTS = 20;
const MAX_STYLESHEET_BYTES = 256 * 1024;

/** Replaces the settings document in one write and answers the settings as clients read them. */
export type ChangeSettings = (actor: Actor, edit: (s: Stored, q: Q) => Promise<Stored>) => Promise<InstanceSettings>;

const refFor = (f: FileRow, mimeType: string): StoredFile => ({ fileId: f.id, mimeType, sizeBytes: f.sizeBytes, sha256: f.sha256 });

/** The ids of the files the settings show now: an administrator may keep what another chose. */
export function shownFiles(s: Stored): Set<string> {
  return new Set([
    ...(s.logo ? [s.logo.fileId] : []),
    ...s.logoTranslations.map((t) => t.logo.fileId),
    ...(s.theme?.stylesheet ? [s.theme.stylesheet.fileId] : []),
    ...s.fonts.map((f) => f.file.fileId),
  ]);
}

/** The type a settings file is served with (GET /instance/files/{id}), if the settings show it. */
export function shownType(s: Stored, fileId: string): string | undefined {
  const all = [s.logo, ...s.logoTranslations.map((t) => t.logo), s.theme?.stylesheet, ...s.fonts.map((f) => f.file)];
  return all.find((f) => f?.fileId === fileId)?.mimeType;
}

/** The logo, the theme and the fonts: what makes the judge look like the school's. */
export class InstanceBranding {
  constructor(
    private readonly d: Deps,
    private readonly bytes: Bytes,
    private readonly change: ChangeSettings,
  ) {}

  /** Sets or (without a file) removes the default logo, or the logo of one language. */
  setLogo(actor: Actor, fileId: string | undefined, language: string | undefined): Promise<InstanceSettings> {
    return this.change(actor, async (s, q) => {
      const logo = fileId ? await this.image(q, actor, s, fileId) : undefined;
      if (!language) return { ...s, logo };
      const others = s.logoTranslations.filter((t) => t.language !== language);
      const logoTranslations = logo ? [...others, { language, logo }].sort((a, b) => a.language.localeCompare(b.language)) : others;
      return { ...s, logoTranslations };
    });
  }

  private async image(q: Q, actor: Actor, s: Stored, fileId: string): Promise<StoredFile> {
    const f = await usableFile(this.d, q, actor, fileId, 'fileId', shownFiles(s));
    const type = f.sizeBytes <= MAX_LOGO_BYTES ? imageType(await headOf(this.bytes, f, 1024)) : undefined;
    if (!type) throw ApiError.of('logo.invalid', 'A logo is a PNG, JPEG, WebP, GIF or SVG image of at most 2 MiB', { fileId: ['not a PNG, JPEG, WebP, GIF or SVG image of at most 2 MiB'] });
    return refFor(f, type);
  }

  /** Replaces palettes, families and stylesheet; the fonts stay. */
  setTheme(actor: Actor, body: z.output<typeof SetThemeRequest>): Promise<InstanceSettings> {
    return this.change(actor, async (s, q) => {
      const stylesheet = body.fileId ? await this.stylesheet(q, actor, s, body.fileId) : undefined;
      const compact = (p: Record<string, string | undefined> | undefined) => (p ? Object.fromEntries(Object.entries(p).filter((e): e is [string, string] => e[1] !== undefined)) : undefined);
      return {
        ...s,
        theme: {
          ...(body.light ? { light: compact(body.light) } : {}),
          ...(body.dark ? { dark: compact(body.dark) } : {}),
          ...(body.fontFamily ? { fontFamily: body.fontFamily } : {}),
          ...(body.fontFamilyHeadings ? { fontFamilyHeadings: body.fontFamilyHeadings } : {}),
          ...(stylesheet ? { stylesheet } : {}),
        },
      };
    });
  }

  private async stylesheet(q: Q, actor: Actor, s: Stored, fileId: string): Promise<StoredFile> {
    const f = await usableFile(this.d, q, actor, fileId, 'fileId', shownFiles(s));
    if (f.sizeBytes > MAX_STYLESHEET_BYTES || !isUtf8Text(await headOf(this.bytes, f, MAX_STYLESHEET_BYTES))) {
      throw ApiError.of('stylesheet.invalid', 'A stylesheet is UTF-8 text of at most 256 KiB', { fileId: ['not UTF-8 text of at most 256 KiB'] });
    }
    return refFor(f, 'text/css; charset=utf-8');
  }

  resetTheme(actor: Actor): Promise<InstanceSettings> {
    return this.change(actor, async ({ theme: _gone, ...s }) => ({ ...s }));
  }

  async fontNames(actor: Actor, settings: () => Promise<Stored>): Promise<string[]> {
    await this.d.permissions.require(actor, 'instance:update');
    return (await settings()).fonts.map((f) => f.name);
  }

  addFont(actor: Actor, body: z.output<typeof AddFontRequest>): Promise<InstanceSettings> {
    return this.change(actor, async (s, q) => {
      if (s.fonts.some((f) => f.name.toLowerCase() === body.name.toLowerCase())) throw ApiError.of('font.name.taken', `A font is named ${body.name} already`, { name: ['in use'] });
      if (s.fonts.length >= MAX_FONTS) throw ApiError.of('validation_failed', `At most ${MAX_FONTS} fonts`, { name: [`at most ${MAX_FONTS} fonts; remove one first`] });
      const f = await usableFile(this.d, q, actor, body.fileId, 'fileId', shownFiles(s));
      const type = f.sizeBytes <= MAX_FONT_BYTES ? fontType(await headOf(this.bytes, f, 4)) : undefined;
      if (!type) throw ApiError.of('font.invalid', 'A font is a WOFF2, WOFF, TrueType or OpenType file of at most 4 MiB', { fileId: ['not a WOFF2, WOFF, TrueType or OpenType font of at most 4 MiB'] });
      const font = { name: body.name, family: body.family ?? body.name, weight: body.weight ?? 400, style: body.style ?? 'normal', file: refFor(f, type) } as const;
      return { ...s, fonts: [...s.fonts, font] };
    });
  }

  deleteFont(actor: Actor, name: string): Promise<InstanceSettings> {
    return this.change(actor, async (s) => {
      const fonts = s.fonts.filter((f) => f.name.toLowerCase() !== name.toLowerCase());
      if (fonts.length === s.fonts.length) throw notFound('font');
      return { ...s, fonts };
    });
  }
}
