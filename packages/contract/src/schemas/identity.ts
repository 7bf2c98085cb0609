import { z } from 'zod';
import { Email, Password, Timestamp, Username } from '../wire.js';

export const RegisterRequest = z.object({
  email: Email,
  password: Password,
  username: Username.optional().meta({ description: 'Login name; derived from the address when absent (extension)' }),
  acceptedTerms: z.boolean().optional().meta({ description: 'The terms of use were accepted (extension): required while the instance has terms in force (GET /instance documents, kind terms)' }),
});

export const LoginQuery = z.object({
  useCookies: z.enum(['true', 'false']).optional(),
  useSessionCookies: z.enum(['true', 'false']).optional(),
});

export const LoginRequest = z.object({
  email: z.string().min(1).max(256).meta({ description: 'The login name or the email address' }),
  password: z.string().min(1).max(256),
  twoFactorCode: z.string().max(16).optional(),
  twoFactorRecoveryCode: z.string().max(64).optional(),
});

export const TokenResponse = z.object({
  tokenType: z.literal('Bearer'),
  accessToken: z.string(),
  expiresIn: z.number().int(),
  refreshToken: z.string(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export const RefreshRequest = z.object({ refreshToken: z.string().min(1).max(256) });

export const ManageInfo = z.object({ email: z.string(), isEmailConfirmed: z.boolean() });

/** A code the judge mailed: what was typed or followed from the link, spaces and dashes allowed. */
const MailedCode = z.string().trim().min(1).max(128);

export const ConfirmEmailQuery = z.object({
  userId: z.string().min(1).max(64),
  code: MailedCode,
  changedEmail: Email.optional().meta({ description: 'The new address, when the code confirms a change of address' }),
});

/** The address a confirmation or a reset code is asked for; the answer is the same whether an account has it or not. */
export const MailRequest = z.object({ email: Email });

export const ResetPasswordRequest = z.object({
  email: Email,
  resetCode: MailedCode,
  newPassword: Password,
});

export const UpdateManageInfoRequest = z
  .object({
    newEmail: Email.optional().meta({ description: 'Mails a confirmation code to this address; the address changes once it is confirmed' }),
    newPassword: Password.optional(),
    oldPassword: z.string().min(1).max(256).optional().meta({ description: 'Needed with newPassword' }),
  })
  .refine((b) => !b.newPassword || b.oldPassword, { message: 'needed to set a new password', path: ['oldPassword'] });

export const Session = z.object({
  id: z.string(),
  connections: z.number().int(),
  startedAt: Timestamp,
  lastRequestAt: Timestamp.optional(),
  lastRequestPath: z.string().optional(),
  ipAddress: z.string().optional(),
  userAgent: z.string().optional(),
  expiresAt: Timestamp.optional(),
  isCurrent: z.boolean(),
});
export type Session = z.infer<typeof Session>;

export const TwoFactorRequest = z.object({
  enable: z.boolean().optional().meta({ description: 'true turns two-factor sign-in on (needs twoFactorCode from the authenticator); false turns it off' }),
  twoFactorCode: z.string().trim().max(16).optional(),
  resetSharedKey: z.boolean().optional().meta({ description: 'Makes a new shared key and turns two-factor sign-in off until a code of the new key enables it' }),
  resetRecoveryCodes: z.boolean().optional().meta({ description: 'Makes 10 new recovery codes (shown once, in this answer); the old ones stop working' }),
  forgetMachine: z.boolean().optional().meta({ description: 'This browser asks for a code again at the next sign-in' }),
});

export const TwoFactorState = z.object({
  sharedKey: z.string().meta({ description: 'The key to enter in an authenticator app, while two-factor sign-in is off; empty once it is on' }),
  recoveryCodesLeft: z.number().int(),
  recoveryCodes: z.array(z.string()).meta({ description: 'New recovery codes, only in the answer that made them' }),
  isTwoFactorEnabled: z.boolean(),
  isMachineRemembered: z.boolean().meta({ description: 'Whether this browser signs in without a code (it signed in with one and asked to stay signed in)' }),
  authenticatorUri: z.string().optional().meta({ description: 'The otpauth:// URI of the shared key, for a QR code (extension); absent once two-factor sign-in is on' }),
  required: z.boolean().meta({ description: 'Whether the instance requires two-factor sign-in of this account for the permissions it holds (extension)' }),
});
export type TwoFactorState = z.infer<typeof TwoFactorState>;
