/** The CLICS Contest API, version 2023-06: its object schemas (strict), not part of the judge's own operations. */
export * from './types.js';
export * from './objects.js';
export const CLICS_VERSION = '2023-06';
export const CLICS_VERSION_URL = 'https://ccs-specs.icpc.io/2023-06/contest_api';
