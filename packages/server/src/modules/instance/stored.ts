import { z } from 'zod';

/** A file the instance shows, as it was when chosen: stored files never change, so this is its record. */
const StoredFile = z.object({ fileId: z.string(), mimeType: z.string(), sizeBytes: z.number().int(), sha256: z.string() });
export type StoredFile = z.infer<typeof StoredFile>;

const PartialPalette = z.record(z.string(), z.string());

/**
 * The instance's settings document, one JSON row (instance_settings), with defaults for what was
 * never set. Documents and access keys have tables of their own: documents keep their history, and
 * access keys are secrets that the settings every server keeps in memory must not carry.
 */
export const Stored = z.object({
  name: z.string().default('Judge'),
  localRegistrationEnabled: z.boolean().default(false),
  requireEmail: z.boolean().default(false),
  requireConfirmedEmail: z.boolean().default(false),
  requireApproval: z.boolean().default(false),
  externalJudgingEnabled: z.boolean().default(false),
  seriesRestrictionsEnabled: z.boolean().default(false),
  showLogo: z.boolean().default(true),
  showLocalSignIn: z.boolean().default(true),
  showHero: z.boolean().default(true),
  accountDeletionEnabled: z.boolean().default(false),
  // a class's accounts keep the logins and names their teacher gave them (account module)
  allowRenameStaffAccounts: z.boolean().default(false),
  allowRenameSelfRegistered: z.boolean().default(false),
  // a lab PC is shared: the next class must not start signed in as the last student
  keepSignedInByDefault: z.boolean().default(false),
  // permissions held only with two-factor sign-in on (auth/permissions.ts withholds them until then)
  requireTwoFactorFor: z.array(z.string()).default([]),
  // the hosts POST /files/fetch may download from, normalised and sorted (contract ExternalHost);
  // administrators' alone: never in the settings everybody reads (view)
  externalContentHosts: z.array(z.string()).default([]),
  // provider slugs; the view shows them only while that provider is enabled (redirects.ts)
  signInRedirectProvider: z.string().optional(),
  registerRedirectProvider: z.string().optional(),
  logo: StoredFile.optional(),
  logoTranslations: z.array(z.object({ language: z.string(), logo: StoredFile })).default([]),
  // only what an administrator chose: the judge's own colours fill the rest (branding.ts)
  theme: z
    .object({
      light: PartialPalette.optional(),
      dark: PartialPalette.optional(),
      fontFamily: z.string().optional(),
      fontFamilyHeadings: z.string().optional(),
      stylesheet: StoredFile.optional(),
    })
    .optional(),
  fonts: z.array(z.object({ name: z.string(), family: z.string(), weight: z.number().int(), style: z.enum(['normal', 'italic']), file: StoredFile })).default([]),
});
export type Stored = z.infer<typeof Stored>;
