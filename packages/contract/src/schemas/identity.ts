import { z } from 'zod';
import { Email, Password, Timestamp, Username } from '../wire.js';

export const RegisterRequest = z.object({
  email: Email,
  password: Password,
  username: Username.optional().meta({ description: 'Login name; derived from the address when absent (extension)' }),
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
