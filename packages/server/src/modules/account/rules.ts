import type { AccountOrigin } from '@judge/contract';

/** The instance switches the rules read (instance settings). */
export interface RenameSwitches {
  allowRenameStaffAccounts: boolean;
  allowRenameSelfRegistered: boolean;
}

export interface AccountFacts {
  origin: AccountOrigin;
  /** Local accounts have a login of their own; a provider's accounts take it from the provider. */
  isLocal: boolean;
}

export interface NameRights {
  mayChangeUsername: boolean;
  mayChangeName: boolean;
}

/**
 * What an owner may change of their own login and name. A class's accounts keep what their teacher
 * gave them, so that nobody appears in the standings as "admin2" or "Der Lehrer": accounts staff
 * made change only while `allowRenameStaffAccounts` is on, self-registered ones only while
 * `allowRenameSelfRegistered` is; both are off by default. Staff who may edit every user
 * (`user:update`) are not held back on their own account. Address and password stay the owner's.
 */
export function nameRights(account: AccountFacts, switches: RenameSwitches, editsUsers: boolean): NameRights {
  const allowed = editsUsers || (account.origin === 'self' ? switches.allowRenameSelfRegistered : switches.allowRenameStaffAccounts);
  return { mayChangeUsername: allowed && account.isLocal, mayChangeName: allowed };
}
