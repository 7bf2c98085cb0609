import type { z } from 'zod';
import type { ErrorCode } from './errors.js';
import type { Permission } from './permissions.js';

/** Who may call an operation before any permission check: nobody in particular, a signed-in user, an approved runner. */
export type AuthMode = 'anonymous' | 'user' | 'runner';

/**
 * One REST operation of the API: the server binds a handler to it, the SDK calls it with typed
 * input and output, and openapi.json is generated from the list of them.
 */
export interface Operation {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under /api/v1 with `{name}` parameters. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: AuthMode;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body is multipart/form-data; `body` then describes its text parts. */
  multipart?: boolean;
  /** For a multipart operation: its form as the server validates it (see schemas/forms.ts). */
  form?: z.ZodType;
  /** JSON schema of a 200/201 body, `binary` for a download, `redirect` for a 302 to Location, absent for 204. */
  response?: z.ZodType | 'binary' | 'redirect';
  status: 200 | 201 | 202 | 204 | 302;
  /** Error codes this operation documents besides the ones every operation may answer. */
  errors: readonly ErrorCode[];
  /** The permission checked, for the documentation; checks themselves live in the services. */
  permission?: Permission | string;
  /** Marks what the interface document does not have (an addition of ours, decisions.md "(ours)"). */
  extension?: boolean;
  /**
   * A form another system's page posts (an LMS's LTI launch): a session cookie the browser sends
   * along is neither used nor checked against CSRF, since the request acts on what it carries alone.
   */
  ignoresSession?: boolean;
}

export function defineOperation<const O extends Operation>(o: O): O {
  return o;
}

type Infer<T> = T extends z.ZodType ? z.input<T> : undefined;
type Out<T> = T extends z.ZodType ? z.output<T> : T extends 'binary' ? ArrayBuffer : void;

export type OperationInput<O extends Operation> = (O['params'] extends z.ZodObject ? { params: Infer<O['params']> } : { params?: undefined }) &
  (O['query'] extends z.ZodObject ? { query?: Infer<O['query']> } : { query?: undefined }) &
  (O['body'] extends z.ZodType ? (O['multipart'] extends true ? { form: FormData } : { body: Infer<O['body']> }) : { body?: undefined });

export type OperationOutput<O extends Operation> = Out<O['response']>;

/** Fills `{name}` placeholders of a path, encoding each value. */
export function fillPath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(v);
  });
}
