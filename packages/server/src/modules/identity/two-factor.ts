import { ApiError, type TwoFactorState } from '@judge/contract';
import { and, eq, gt } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Actor } from '../../auth/permissions.js';
import { grants, rememberedMachines, roles, users } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';
import { iso, newSecret, sha256Hex } from '../../util.js';
import { announceUser, findUserById, type UserRow } from '../users/index.js';
import { hashOf, newCode } from './codes.js';

/** RFC 6238 as every authenticator app reads an `otpauth://` URI: SHA-1, six digits, 30 s. */
const PERIOD_S = 30;
const DIGITS = 6;
const RECOVERY_CODES = 10;

/** What a sign-in brought besides the password. */
export interface SecondFactor {
  code?: string | undefined;
  recoveryCode?: string | undefined;
  /** The `judge_2fa` cookie, when the browser sent one. */
  machine?: string | undefined;
}

/**
 * off: the account has no second factor; remembered: the browser's cookie stands in for it;
 * passed: a code or a recovery code was right and is now spent; required: none was given;
 * wrong: one was given and is not right (or was used already).
 */
export type SecondFactorCheck = 'off' | 'remembered' | 'passed' | 'required' | 'wrong';

export interface TwoFactorRequest {
  enable?: boolean | undefined;
  twoFactorCode?: string | undefined;
  resetSharedKey?: boolean | undefined;
  resetRecoveryCodes?: boolean | undefined;
  forgetMachine?: boolean | undefined;
}

const newKey = (): string => new Secret({ size: 20 }).base32;

const totpOf = (key: string, label = '', issuer = ''): TOTP => new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S, secret: Secret.fromBase32(key) });

/**
 * The time step a code belongs to, within one step either side of now (a phone's clock a little off,
 * a code typed as it turned); undefined when it is none of the three.
 */
function stepOf(key: string, code: string, now: Date): number | undefined {
  const typed = code.replace(/[\s-]/g, '');
  if (!new RegExp(`^\\d{${DIGITS}}$`).test(typed)) return undefined;
  const delta = totpOf(key).validate({ token: typed, timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : Math.floor(now.getTime() / (PERIOD_S * 1000)) + delta;
}

/**
 * Two-factor sign-in with TOTP (decisions §4): the shared key, the recovery codes and the browsers
 * remembered. The key is shown only while two-factor sign-in is off, that is while it is being set
 * up: afterwards a stolen session must not be able to copy the second factor. A code is taken once
 * (the newest step taken is stored), recovery codes once each; both are spent in the write that
 * checks them, so two sign-ins racing with one code cannot both pass.
 */
export class TwoFactor {
  constructor(private readonly d: Deps) {}

  /** The second factor of a sign-in whose password was right: checked, and spent when it passes. */
  async check(userId: string, f: SecondFactor, now: Date): Promise<SecondFactorCheck> {
    return this.d.tx.write(async (q) => {
      const u = await findUserById(q, userId);
      if (!u?.twoFactorEnabled || !u.twoFactorKey) return 'off';
      if (f.code) {
        const step = stepOf(u.twoFactorKey, f.code, now);
        if (step === undefined || step <= u.twoFactorStep) return 'wrong';
        await q.update(users).set({ twoFactorStep: step }).where(eq(users.id, u.id));
        return 'passed';
      }
      if (f.recoveryCode) {
        const hash = hashOf(f.recoveryCode);
        if (!u.recoveryCodes.includes(hash)) return 'wrong';
        await q
          .update(users)
          .set({ recoveryCodes: u.recoveryCodes.filter((h) => h !== hash) })
          .where(eq(users.id, u.id));
        this.d.log.info({ userId: u.id, left: u.recoveryCodes.length - 1 }, 'signed in with a recovery code');
        return 'passed';
      }
      if (f.machine && (await this.remembered(q, u.id, f.machine, now))) return 'remembered';
      return 'required';
    });
  }

  /** Remembers the browser that just passed the second factor; answers the `judge_2fa` cookie's value. */
  async rememberMachine(userId: string, now: Date): Promise<{ cookie: string; maxAgeMs: number }> {
    const cookie = newSecret();
    const maxAgeMs = this.d.config.auth.rememberMachineDays * 86_400_000;
    await this.d.tx.write((q) => q.insert(rememberedMachines).values({ hash: sha256Hex(cookie), userId, createdAt: iso(now), expiresAt: iso(new Date(now.getTime() + maxAgeMs)) }));
    return { cookie, maxAgeMs };
  }

  /**
   * Reads (empty request) or changes the caller's two-factor sign-in, in the order the interface's
   * peer applies the members: enable or disable, a new key, new recovery codes, forgetting this
   * browser. `machine`: this browser's `judge_2fa` cookie. `required`: whether the instance asks
   * this account for a second factor (shown, not decided, here).
   */
  async manage(actor: Actor, body: TwoFactorRequest, machine: string | undefined, issuer: string, required: boolean): Promise<{ state: TwoFactorState; forgotMachine: boolean }> {
    const now = this.d.clock.now();
    return this.d.tx.write(async (q, out) => {
      const u = await findUserById(q, actor.userId);
      if (!u) throw ApiError.of('unauthenticated', 'The account is gone');
      let key = u.twoFactorKey;
      let enabled = u.twoFactorEnabled;
      let step = u.twoFactorStep;
      let codes = u.recoveryCodes;
      if (body.enable === true) {
        if (body.resetSharedKey) throw ApiError.of('twoFactor.resetAndEnable', 'A new key turns two-factor sign-in off until a code of the new key turns it on: send them one after the other');
        if (!body.twoFactorCode) throw ApiError.of('twoFactor.code.required', 'Turning two-factor sign-in on needs a code from the authenticator app');
        const taken = key ? stepOf(key, body.twoFactorCode, now) : undefined;
        if (taken === undefined || taken <= step) throw ApiError.of('twoFactor.code.invalid', 'The code is not the one the authenticator shows now (check the phone’s clock, or wait for the next code)');
        enabled = true;
        step = taken;
      } else if (body.enable === false || body.resetSharedKey) {
        enabled = false;
      }
      if (body.resetSharedKey || !key) key = newKey();
      let fresh: string[] = [];
      if (body.resetRecoveryCodes || (body.enable === true && codes.length === 0)) {
        fresh = Array.from({ length: RECOVERY_CODES }, newCode);
        codes = fresh.map(hashOf);
      }
      const turnedOff = (u.twoFactorEnabled && !enabled) || (!!body.resetSharedKey && !!u.twoFactorKey);
      // a browser remembered for the old factor must not outlive it
      if (turnedOff) await q.delete(rememberedMachines).where(eq(rememberedMachines.userId, u.id));
      const forgotMachine = !!body.forgetMachine && !!machine;
      if (forgotMachine) await q.delete(rememberedMachines).where(and(eq(rememberedMachines.userId, u.id), eq(rememberedMachines.hash, sha256Hex(machine))));
      const [row] = await q.update(users).set({ twoFactorKey: key, twoFactorEnabled: enabled, twoFactorStep: step, recoveryCodes: codes }).where(eq(users.id, u.id)).returning();
      if (enabled !== u.twoFactorEnabled) {
        // the instance may withhold permissions from accounts without it (auth/permissions.ts)
        out.touchPermissions();
        await announceUser(q, row!, out);
        this.d.log.info({ userId: u.id, enabled }, enabled ? 'two-factor sign-in turned on' : 'two-factor sign-in turned off');
      }
      const remembered = !forgotMachine && !turnedOff && !!machine && (await this.remembered(q, u.id, machine, now));
      return { state: stateOf(row!, fresh, remembered, issuer, required), forgotMachine };
    });
  }

  private async remembered(q: Q, userId: string, machine: string, now: Date): Promise<boolean> {
    const rows = await q
      .select({ hash: rememberedMachines.hash })
      .from(rememberedMachines)
      .where(and(eq(rememberedMachines.hash, sha256Hex(machine)), eq(rememberedMachines.userId, userId), gt(rememberedMachines.expiresAt, iso(now))))
      .limit(1);
    return rows.length > 0;
  }
}

function stateOf(u: UserRow, fresh: string[], remembered: boolean, issuer: string, required: boolean): TwoFactorState {
  const shown = !u.twoFactorEnabled && u.twoFactorKey ? u.twoFactorKey : '';
  return {
    sharedKey: shown,
    recoveryCodesLeft: u.recoveryCodes.length,
    recoveryCodes: fresh,
    isTwoFactorEnabled: u.twoFactorEnabled,
    isMachineRemembered: remembered,
    ...(shown ? { authenticatorUri: totpOf(shown, u.username, issuer).toString() } : {}),
    required,
  };
}

/**
 * Whether the account's grants carry any of these keys, whatever the instance withholds now (an
 * administrator's grant carries every key): what the account page shows as "required".
 */
export async function grantsCarry(q: Q, userId: string, keys: readonly string[]): Promise<boolean> {
  if (!keys.length) return false;
  const rows = await q.select({ permissions: roles.permissions }).from(grants).innerJoin(roles, eq(roles.id, grants.roleId)).where(eq(grants.userId, userId));
  return rows.some((r) => r.permissions.includes('system:administrator') || r.permissions.some((k) => keys.includes(k)));
}
