/** A refusal or failure of an operations command, said in one line an administrator can act on. */
export class OpsError extends Error {}
