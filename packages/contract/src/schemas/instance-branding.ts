import { z } from 'zod';
import { InstantInput, Timestamp, Uuid } from '../wire.js';
import { FileRef } from './files.js';

/**
 * The instance's look, documents, redirects and access keys (interface "Instance settings"): what a
 * school changes to make the judge its own. Colours and font families end up in a stylesheet every
 * page loads (GET /instance/theme.css), so they are held to forms that cannot close a rule or open
 * another: a colour is a hex value, a colour function of numbers, or a named colour.
 */
const COLOUR = /^(?:#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|(?:rgb|rgba|hsl|hsla|oklch|oklab)\([0-9.,%\s/a-z+-]{1,80}\)|[a-z]{3,24})$/i;
const FAMILY = /^[\p{L}\p{N} ,'"_-]{1,300}$/u;

export const Colour = z.string().trim().regex(COLOUR, 'must be a CSS colour: #rrggbb, rgb(...), hsl(...) or a colour name').meta({ example: '#1d4ed8' });
export const FontFamilyList = z
  .string()
  .trim()
  .regex(FAMILY, 'must be a CSS font-family list: names, quotes, commas and spaces only')
  .meta({ example: "'Source Sans 3', system-ui, sans-serif" });

/** The members of a palette, in the order the interface names them. */
export const PALETTE_MEMBERS = [
  'primary',
  'secondary',
  'accent',
  'link',
  'body',
  'surface',
  'text',
  'dimmed',
  'border',
  'navBackground',
  'navText',
  'navActiveBackground',
  'navActiveText',
  'headerBackground',
  'headerText',
] as const;
export type PaletteMember = (typeof PALETTE_MEMBERS)[number];

const paletteOf = <T extends z.ZodType>(member: T) => z.object(Object.fromEntries(PALETTE_MEMBERS.map((m) => [m, member])) as Record<PaletteMember, T>);

export const Palette = paletteOf(z.string());
export type Palette = z.infer<typeof Palette>;
/** A palette to store: a member left out keeps the judge's own colour. */
export const PaletteInput = paletteOf(Colour.optional()).strict();

export const FontStyle = z.enum(['normal', 'italic']);
export const ThemeFont = z.object({
  name: z.string(),
  family: z.string(),
  weight: z.number().int(),
  style: FontStyle,
  fileId: z.string(),
  sha256: z.string(),
  sizeBytes: z.number().int(),
});
export type ThemeFont = z.infer<typeof ThemeFont>;

export const Theme = z.object({
  light: Palette,
  dark: Palette,
  fontFamily: z.string(),
  fontFamilyHeadings: z.string(),
  fonts: z.array(ThemeFont),
  fileId: z.string().optional().meta({ description: 'A stylesheet every page loads after the palettes' }),
  sha256: z.string().optional(),
  custom: z.boolean().meta({ description: 'Whether an administrator set palettes, families or a stylesheet (extension); false: the judge\'s own look, with the uploaded fonts' }),
});
export type Theme = z.infer<typeof Theme>;

export const SetThemeRequest = z
  .object({
    light: PaletteInput.optional(),
    dark: PaletteInput.optional(),
    fontFamily: FontFamilyList.optional(),
    fontFamilyHeadings: FontFamilyList.optional(),
    fileId: Uuid.optional().meta({ description: 'An uploaded stylesheet (text, at most 256 KiB) every page loads after the palettes' }),
  })
  .strict();

export const SetLogoRequest = z
  .object({
    fileId: Uuid.optional().meta({ description: 'An uploaded PNG, JPEG, WebP, GIF or SVG image; absent removes the logo' }),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as de or pt-BR')
      .optional()
      .meta({ description: 'The language this logo is for; absent: the default logo' }),
  })
  .strict();

const FontName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/, 'letters, digits, spaces, dots, dashes and underscores, at most 64');

export const AddFontRequest = z
  .object({
    fileId: Uuid,
    name: FontName,
    family: z
      .string()
      .trim()
      .regex(/^[\p{L}\p{N} _-]{1,100}$/u, 'letters, digits, spaces, dashes and underscores, at most 100')
      .optional()
      .meta({ description: 'The family the font belongs to (extension); default: the name' }),
    weight: z.number().int().min(100).max(900).optional().meta({ description: 'CSS font-weight 100..900 (extension); default 400' }),
    style: FontStyle.optional().meta({ description: 'Default normal (extension)' }),
  })
  .strict();

export const LanguageTag = z.string().regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as de or pt-BR');

export const PublishDocumentsRequest = z
  .object({
    statements: z
      .array(
        z
          .object({
            fileId: Uuid,
            language: LanguageTag.optional().meta({ description: 'Default en (extension)' }),
            title: z.string().trim().min(1).max(200).optional().meta({ description: 'Default: the kind\'s name in English (extension)' }),
          })
          .strict(),
      )
      .min(1)
      .max(20),
    validFrom: InstantInput.optional().meta({ description: 'When the revision comes into force (extension); default now. Until then the one before stays in force' }),
  })
  .strict();

export const AccessKeyEntry = z.object({
  name: z.string(),
  updatedAt: Timestamp,
  expiresAt: Timestamp.optional().meta({ description: 'Extension; absent: does not expire' }),
});
export type AccessKeyEntry = z.infer<typeof AccessKeyEntry>;
export const AccessKeyValue = z.object({ name: z.string(), value: z.string(), expiresAt: Timestamp.optional() });

export const AccessKeyName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'letters, digits, dots, dashes and underscores, at most 64');

export const SetAccessKeyRequest = z
  .object({
    value: z.string().max(4096).meta({ description: 'The secret; an empty value removes the key' }),
    expiresAt: InstantInput.nullable().optional().meta({ description: 'When the key stops being valid (extension); null or absent: never' }),
  })
  .strict();

export const RedirectState = z.enum(['active', 'disabled', 'missing']);
export const RedirectTarget = z.object({ slug: z.string(), displayName: z.string(), state: RedirectState });
export const Redirects = z.object({
  signIn: RedirectTarget.optional().meta({ description: 'Absent: the sign-in page is shown' }),
  register: RedirectTarget.optional().meta({ description: 'Absent: the registration page is shown' }),
});
export type Redirects = z.infer<typeof Redirects>;

export const LogoTranslation = z.object({ language: z.string(), logo: FileRef });
