import { ApiError } from '@judge/contract';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.js';
import type { LimitStore } from '../../http/limits.js';

/**
 * Failed sign-ins allowed per minute, per client address and per account (decisions §12). A class
 * behind one NAT address signs in from one address, so the address's budget of attempts is sized for
 * a lab (`auth.loginAttemptsPerMinute`, applied by the routes); what stops guessing is the smaller
 * budget of failures: per address (guessing across many accounts) and per account (guessing one
 * account's password from many addresses, even between right passwords that reset the lockout count).
 * An account whose budget is spent refuses only the addresses that failed against it (see lockout.ts).
 */
export class SignInBudget {
  private readonly perAddress: RateLimiterAbstract;
  private readonly perAccount: RateLimiterAbstract;

  constructor(auth: Config['auth'], limits: LimitStore) {
    this.perAddress = limits.limiter({ points: auth.loginFailuresPerMinute, duration: 60, keyPrefix: 'fail-addr' });
    this.perAccount = limits.limiter({ points: auth.accountLoginFailuresPerMinute, duration: 60, keyPrefix: 'fail-acct' });
  }

  /** Refuses (429 with Retry-After) an attempt from an address with no failures left this minute. */
  async admitAddress(address: string | undefined): Promise<void> {
    if (!address) return;
    const refusal = await spent(this.perAddress, address, 'this address');
    if (refusal) throw refusal;
  }

  /** The refusal (429 with Retry-After) for an account with no failures left this minute, if it has none. */
  accountSpent(account: string): Promise<ApiError | undefined> {
    return spent(this.perAccount, account, 'this account');
  }

  /** Counts one failure against the address and the account. */
  async failed(address: string | undefined, account: string): Promise<void> {
    await this.perAccount.penalty(account);
    if (address) await this.perAddress.penalty(address);
  }
}

async function spent(limiter: RateLimiterAbstract, key: string, whose: string): Promise<ApiError | undefined> {
  const res: RateLimiterRes | null = await limiter.get(key);
  if (!res || res.consumedPoints < limiter.points) return undefined;
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return ApiError.of('rate_limited', `Too many failed sign-ins for ${whose}; try again in ${seconds} s`, undefined, { 'Retry-After': String(seconds) });
}
