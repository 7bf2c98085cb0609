import type { TwoFactorState } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';

export type TwoFactorChange = { enable?: boolean; twoFactorCode?: string; resetSharedKey?: boolean; resetRecoveryCodes?: boolean; forgetMachine?: boolean };

/**
 * The caller's two-factor sign-in. The server reads it with an empty POST (which also makes the
 * shared key the first time), so reading it is safe to repeat.
 */
export function useTwoFactor(enabled = true) {
  return useQuery({ queryKey: keys.twoFactor, queryFn: () => call(ops.manageTwoFactor, { body: {} }), staleTime: 60_000, enabled });
}

/**
 * Changes it and answers the new state. New recovery codes come in this answer only: the caller
 * keeps them in its own state; the cache holds the state without them, so they are never shown
 * again by another screen.
 */
export function useChangeTwoFactor() {
  const qc = useQueryClient();
  return async (body: TwoFactorChange): Promise<TwoFactorState> => {
    const next = await call(ops.manageTwoFactor, { body });
    qc.setQueryData<TwoFactorState>(keys.twoFactor, { ...next, recoveryCodes: [] });
    // turning it on or off gives or takes permissions the instance withholds without it
    if (body.enable !== undefined || body.resetSharedKey) void qc.invalidateQueries({ queryKey: ['permissions'] });
    return next;
  };
}
