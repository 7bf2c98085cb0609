/** Ids no row holds: well-formed UUIDs (v7 as the server makes them), for "not found" answers. */

export const UNKNOWN_UUID = '0190f5d2-6c3a-7b4e-8f00-000000000000';
export const NO_SUCH_ID = '01890000-0000-7000-8000-000000000000';
