import { config } from 'zod';

// zod probes whether it may compile validators with `new Function` when the first schema is made;
// under the judge's CSP (no 'unsafe-eval') the probe, though caught, is reported as a violation on
// every page load. Imported before anything that loads the contract's schemas.
config({ jitless: true });
