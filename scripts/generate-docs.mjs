#!/usr/bin/env node
// Writes openapi.json and events.json at the repository root from the built contract package.
// Run `pnpm build` first (`pnpm gen:docs` does both); a test fails when the committed files differ.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_VERSION, OPERATIONS, eventsDocument, openApiDocument } from '../packages/contract/dist/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
writeFileSync(`${root}openapi.json`, `${JSON.stringify(openApiDocument(OPERATIONS, API_VERSION), null, 2)}\n`);
writeFileSync(`${root}events.json`, `${JSON.stringify(eventsDocument(API_VERSION), null, 2)}\n`);
console.log(`wrote openapi.json (${OPERATIONS.length} operations) and events.json`);
