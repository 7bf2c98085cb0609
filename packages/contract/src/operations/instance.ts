import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { DocumentKind } from '../schemas/content.js';
import { InstanceDocument, InstanceSettings } from '../schemas/instance.js';
import {
  AccessKeyEntry,
  AccessKeyName,
  AccessKeyValue,
  AddFontRequest,
  PublishDocumentsRequest,
  Redirects,
  SetAccessKeyRequest,
  SetLogoRequest,
  SetThemeRequest,
} from '../schemas/instance-branding.js';
import { Uuid } from '../wire.js';

const TAG = 'Instance settings';
const KindParam = z.object({ kind: DocumentKind });
const KeyParam = z.object({ name: AccessKeyName });
const WRITE = ['forbidden', 'validation_failed'] as const;

export const listAccessKeys = defineOperation({
  id: 'listAccessKeys',
  method: 'GET',
  path: '/instance/access-keys',
  tag: TAG,
  summary: 'The names of the access keys, never their values',
  auth: 'user',
  response: z.array(AccessKeyEntry),
  status: 200,
  errors: ['forbidden'],
  permission: 'instance:update',
});

export const setAccessKey = defineOperation({
  id: 'setAccessKey',
  method: 'PUT',
  path: '/instance/access-keys/{name}',
  tag: TAG,
  summary: 'Store, replace or (with an empty value) remove an access key',
  description: 'The name is trimmed and lowercased. The value is never answered here nor written to a log; GET .../value reads it.',
  auth: 'user',
  params: KeyParam,
  body: SetAccessKeyRequest,
  response: z.array(AccessKeyEntry),
  status: 200,
  errors: [...WRITE, 'not_found'],
  permission: 'instance:update',
});

export const getAccessKeyValue = defineOperation({
  id: 'getAccessKeyValue',
  method: 'GET',
  path: '/instance/access-keys/{name}/value',
  tag: TAG,
  summary: 'The value of one access key',
  description:
    'Each key is read with the permission of the feature that uses it: `uvaexplorer` (the UVa archive browser) with problem:import:external, any other key with system:administrator. ' +
    'An unknown key and a key past its expiresAt are 404.',
  auth: 'user',
  params: KeyParam,
  response: AccessKeyValue,
  status: 200,
  errors: ['forbidden', 'not_found'],
});

export const getRedirects = defineOperation({
  id: 'getRedirects',
  method: 'GET',
  path: '/instance/redirects',
  tag: TAG,
  summary: 'Where the sign-in and registration pages send to at once, with the state of each provider named',
  description: 'A redirect is set with PUT /instance (signInRedirectProvider, registerRedirectProvider). state: active (enabled, the pages send there), disabled (the provider is off: the pages are shown), missing (no provider has that slug any more).',
  auth: 'user',
  response: Redirects,
  status: 200,
  errors: ['forbidden'],
  permission: 'instance:update',
});

export const setLogo = defineOperation({
  id: 'setLogo',
  method: 'PUT',
  path: '/instance/logo',
  tag: TAG,
  summary: 'Set or remove the logo, or the logo for one language',
  description: 'The file must be a PNG, JPEG, WebP, GIF or SVG image of at most 2 MiB (logo.invalid). The logo is served to everybody, signed in or not (GET /instance/files/{id}).',
  auth: 'user',
  body: SetLogoRequest,
  response: InstanceSettings,
  status: 200,
  errors: [...WRITE, 'file.missing', 'logo.invalid'],
  permission: 'instance:update',
});

export const setTheme = defineOperation({
  id: 'setTheme',
  method: 'PUT',
  path: '/instance/theme',
  tag: TAG,
  summary: 'Replace the palettes, font families and stylesheet',
  description:
    'A palette member left out keeps the judge\'s own colour; the uploaded fonts stay. The stylesheet must be UTF-8 text of at most 256 KiB (stylesheet.invalid). ' +
    'Every page loads the result from GET /instance/theme.css.',
  auth: 'user',
  body: SetThemeRequest,
  response: InstanceSettings,
  status: 200,
  errors: [...WRITE, 'file.missing', 'stylesheet.invalid'],
  permission: 'instance:update',
});

export const resetTheme = defineOperation({
  id: 'resetTheme',
  method: 'DELETE',
  path: '/instance/theme',
  tag: TAG,
  summary: 'Back to the judge\'s own palettes, families and no stylesheet (uploaded fonts stay)',
  auth: 'user',
  response: InstanceSettings,
  status: 200,
  errors: ['forbidden'],
  permission: 'instance:update',
});

export const listFonts = defineOperation({
  id: 'listFonts',
  method: 'GET',
  path: '/instance/fonts',
  tag: TAG,
  summary: 'The names of the uploaded fonts (the theme lists them whole)',
  auth: 'user',
  response: z.array(z.string()),
  status: 200,
  errors: ['forbidden'],
  permission: 'instance:update',
});

export const addFont = defineOperation({
  id: 'addFont',
  method: 'POST',
  path: '/instance/fonts',
  tag: TAG,
  summary: 'Add an uploaded font file (WOFF2, WOFF, TrueType or OpenType) under a name',
  description: 'The format is read from the file\'s first bytes (font.invalid when it is none of the four); at most 20 fonts of at most 4 MiB each. A name in use is 409 font.name.taken.',
  auth: 'user',
  body: AddFontRequest,
  response: InstanceSettings,
  status: 200,
  errors: [...WRITE, 'file.missing', 'font.invalid', 'font.name.taken'],
  permission: 'instance:update',
});

export const deleteFont = defineOperation({
  id: 'deleteFont',
  method: 'DELETE',
  path: '/instance/fonts/{name}',
  tag: TAG,
  summary: 'Remove an uploaded font',
  auth: 'user',
  params: z.object({ name: z.string().min(1).max(64) }),
  response: InstanceSettings,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'instance:update',
});

export const listInstanceDocuments = defineOperation({
  id: 'listInstanceDocuments',
  method: 'GET',
  path: '/instance/documents/{kind}',
  tag: TAG,
  summary: 'Every revision of one kind of document, newest first, then the judge\'s templates for it',
  description:
    'Revisions are kept after they are superseded or withdrawn (who accepted which terms stays answerable). A template (isTemplate) is a starting text the judge ships ' +
    '(terms and privacy, in English and German): download it, adapt it, and publish it; a template is never in force by itself.',
  auth: 'user',
  params: KindParam,
  response: z.array(InstanceDocument),
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'instance:update',
});

export const publishInstanceDocuments = defineOperation({
  id: 'publishInstanceDocuments',
  method: 'POST',
  path: '/instance/documents/{kind}',
  tag: TAG,
  summary: 'Publish a revision of one kind of document, a file per language',
  description:
    'Each statement is a Markdown, plain-text, HTML or PDF file; it supersedes the same kind and language from validFrom on. The files are served to everybody, signed in or not.',
  auth: 'user',
  params: KindParam,
  body: PublishDocumentsRequest,
  response: InstanceSettings,
  status: 200,
  errors: [...WRITE, 'not_found', 'file.missing'],
  permission: 'instance:update',
});

export const withdrawInstanceDocuments = defineOperation({
  id: 'withdrawInstanceDocuments',
  method: 'DELETE',
  path: '/instance/documents/{kind}',
  tag: TAG,
  summary: 'Withdraw every revision of one kind (the history keeps them)',
  auth: 'user',
  params: KindParam,
  response: InstanceSettings,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'instance:update',
});

export const getThemeStylesheet = defineOperation({
  id: 'getThemeStylesheet',
  method: 'GET',
  path: '/instance/theme.css',
  tag: TAG,
  summary: 'The stylesheet every page loads: the uploaded fonts, the palettes, the families and the administrator\'s stylesheet',
  description: 'Needs no sign-in (the sign-in page wears the theme too). Answered with an ETag; empty of rules while the judge wears its own look.',
  auth: 'anonymous',
  response: 'binary',
  status: 200,
  errors: [],
  extension: true,
});

export const getInstanceFile = defineOperation({
  id: 'getInstanceFile',
  method: 'GET',
  path: '/instance/files/{id}',
  tag: TAG,
  summary: 'A file the instance shows everybody: a logo, a font, the theme\'s stylesheet, a document in force or one of its revisions',
  description: 'Needs no sign-in; any other file is 404. Served with its type, ETag and Range like GET /files/{id}.',
  auth: 'anonymous',
  params: z.object({ id: Uuid }),
  response: 'binary',
  status: 200,
  errors: ['not_found'],
  extension: true,
});
