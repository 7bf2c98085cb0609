import { ApiError } from '@judge/contract';
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.js';

/**
 * Failed sign-ins allowed per minute, per client address and per account (CONTRACT §12). A class
 * behind one NAT address signs in from one address, so the address's budget of attempts is sized for
 * a lab (`auth.loginAttemptsPerMinute`, applied by the routes); what stops guessing is the smaller
 * budget of failures: per address (guessing across many accounts) and per account (guessing one
 * account's password from many addresses, even between right passwords that reset the lockout count).
 */
export class SignInBudget {
  private readonly perAddress: RateLimiterMemory;
  private readonly perAccount: RateLimiterMemory;

  constructor(auth: Config['auth']) {
    this.perAddress = new RateLimiterMemory({ points: auth.loginFailuresPerMinute, duration: 60, keyPrefix: 'fail-addr' });
    this.perAccount = new RateLimiterMemory({ points: auth.accountLoginFailuresPerMinute, duration: 60, keyPrefix: 'fail-acct' });
  }

  /** Refuses (429 with Retry-After) an attempt whose address or account has no failures left this minute. */
  async admit(address: string | undefined, account: string): Promise<void> {
    await spent(this.perAccount, account, 'this account');
    if (address) await spent(this.perAddress, address, 'this address');
  }

  /** Counts one failure against the address and the account. */
  async failed(address: string | undefined, account: string): Promise<void> {
    await this.perAccount.penalty(account);
    if (address) await this.perAddress.penalty(address);
  }
}

async function spent(limiter: RateLimiterMemory, key: string, whose: string): Promise<void> {
  const res: RateLimiterRes | null = await limiter.get(key);
  if (!res || res.consumedPoints < limiter.points) return;
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  throw ApiError.of('rate_limited', `Too many failed sign-ins for ${whose}; try again in ${seconds} s`, undefined, { 'Retry-After': String(seconds) });
}
