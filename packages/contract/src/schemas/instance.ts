import { z } from 'zod';
import { Timestamp } from '../wire.js';
import { FileRef } from './files.js';

export const Health = z.object({
  status: z.literal('ok'),
  version: z.string(),
  maintenance: z.enum(['draining', 'closed']).optional(),
});

export const InstanceDocument = z.object({
  kind: z.string(),
  language: z.string(),
  title: z.string(),
  validFrom: Timestamp,
  isTemplate: z.boolean(),
  fileId: z.string(),
  sha256: z.string(),
  sizeBytes: z.number().int(),
});

export const InstanceSettings = z.object({
  name: z.string(),
  localRegistrationEnabled: z.boolean(),
  requireEmail: z.boolean(),
  requireConfirmedEmail: z.boolean(),
  requireApproval: z.boolean().meta({ description: 'Self-registered accounts start unapproved (extension)' }),
  externalJudgingEnabled: z.boolean(),
  seriesRestrictionsEnabled: z.boolean(),
  documents: z.array(InstanceDocument),
  logo: FileRef.optional(),
  logoTranslations: z.array(z.object({ language: z.string(), logo: FileRef })),
  showLogo: z.boolean(),
  showLocalSignIn: z.boolean(),
  showHero: z.boolean(),
  accountDeletionEnabled: z.boolean(),
  providers: z.array(z.object({ slug: z.string(), displayName: z.string() })),
  signInRedirectProvider: z.string().optional(),
  registerRedirectProvider: z.string().optional(),
});
export type InstanceSettings = z.infer<typeof InstanceSettings>;

export const UpdateInstanceRequest = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  localRegistrationEnabled: z.boolean().optional(),
  requireEmail: z.boolean().optional(),
  requireConfirmedEmail: z.boolean().optional(),
  requireApproval: z.boolean().optional(),
  showLogo: z.boolean().optional(),
  showLocalSignIn: z.boolean().optional(),
  accountDeletionEnabled: z.boolean().optional(),
});
