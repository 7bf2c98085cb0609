import { createRequire } from 'node:module';

/** judgectl's version, from its package.json (one level up from both src/ and dist/). */
export const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** What judgectl calls itself to the server, so that the account's sessions name it rather than "node". */
export const USER_AGENT = `judgectl/${VERSION}`;
