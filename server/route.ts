// How every route is declared: one zod schema each for its path parameters, query and body, checked before the
// handler runs, so a handler only ever sees parsed, typed input. A failure is a 422 naming the field, as
// LangSmith's validation answers (`path.run_id: "x" is not a valid UUID`); malformed JSON is a 400.
//
//   route(app, 'GET', '/sessions/:id', { params: z.object({ id: uuid('session_id') }), query: z.object({ include_stats: qBool }) },
//     ({ params, query, tenant }) => …);
//
// Query strings are read as LangSmith (FastAPI) reads them: unknown query parameters are ignored (and never
// reach the handler), a repeated parameter is a list where the schema says list and its last value otherwise.
// Bodies are strict: an unknown field is a 422. Routes whose body is not JSON (multipart, CSV upload) leave
// `body` out and read the request themselves.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import type { Tenant, User } from './context';
import { HttpError, badRequest } from './errors';
import { isUuid } from './ids';
import { parseTime } from './time';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchemas<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params?: P;
  query?: Q;
  body?: B;
  /** Route config (public, noFaults). */
  config?: RouteShorthandOptions['config'];
  /** Refuse a request without a body (422) instead of checking an absent body as an empty object. */
  bodyRequired?: boolean;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  tenant: Tenant;
  /** The user of the API key (a workspace may have several; see context.ts). */
  user: User;
  req: FastifyRequest;
  reply: FastifyReply;
}

type Out<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** Declares a route whose params, query and body are each checked by their schema before `handler` runs. */
export function route<P extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined, B extends z.ZodType = z.ZodUndefined>(
  app: FastifyInstance,
  method: Method,
  url: string,
  schemas: RouteSchemas<P, Q, B>,
  handler: (input: RouteInput<Out<P>, Out<Q>, Out<B>>) => unknown,
): void {
  const { params, query, body, config, bodyRequired } = schemas;
  app.route({
    method,
    url,
    config,
    handler: async (req, reply) =>
      handler({
        params: (params ? check(params, req.params ?? {}, 'path') : undefined) as Out<P>,
        query: (query ? check(query, req.query ?? {}, 'query') : undefined) as Out<Q>,
        body: (body ? check(body, bodyValue(req.body, body, bodyRequired), 'body') : undefined) as Out<B>,
        tenant: req.tenant,
        user: req.user,
        req,
        reply,
      }),
  });
}

/** The JSON a request carried: bodies sent without a JSON content type arrive as text and are parsed here. */
export function jsonBody(raw: unknown): unknown {
  if (Buffer.isBuffer(raw)) raw = raw.toString('utf8');
  if (typeof raw === 'string') {
    const t = raw.trim();
    if (!t) return undefined;
    try {
      return JSON.parse(t);
    } catch {
      throw badRequest('Request body is not valid JSON');
    }
  }
  return raw;
}

function bodyValue(raw: unknown, schema: z.ZodType, required = false): unknown {
  const v = jsonBody(raw);
  if (required && (v === undefined || v === null)) throw new HttpError(422, `body: expected a JSON ${isArraySchema(schema) ? 'list' : 'object'}`);
  // An absent body is checked as an empty object (or list), so schemas of optional fields pass.
  if (v === undefined || v === null) return isArraySchema(schema) ? [] : {};
  return v;
}

function isArraySchema(s: z.ZodType): boolean {
  return s instanceof z.ZodArray;
}

/** Parses `value` with `schema`; every problem becomes one line of a 422's detail, prefixed by where it was. */
export function check<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const detail = r.error.issues.map((i) => {
    const path = [where, ...i.path.map(String)].join('.');
    if (i.code === 'unrecognized_keys') return `${path}: unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}`;
    return `${path}: ${i.message}`;
  });
  throw new HttpError(422, detail.join('; '));
}

// ---- building blocks for path and query schemas -------------------------------------------------------------

/** The last value of a repeated query parameter (FastAPI reads a scalar parameter that way). */
const last = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A UUID (path or query), lower-cased. */
const uuidText = () => z.string().refine(isUuid, { error: (iss) => `"${String(iss.input)}" is not a valid UUID` }).transform((s) => s.toLowerCase());
export const uuid = () => z.preprocess(last, uuidText());

/** A query string value (the last if repeated), optional. */
export const qStr = () => z.preprocess((v) => last(v), z.string().optional());

/** A non-empty query string value, optional (an empty one counts as not given). */
export const qText = () => z.preprocess((v) => blankToUndefined(last(v)), z.string().optional());

/** Every value of a repeated query parameter, empty ones left out. */
export const qList = () =>
  z.preprocess((v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map(String).filter((s) => s !== '')), z.array(z.string()));

/** Every value of a repeated query parameter, each a UUID. */
export const qUuids = () => qList().pipe(z.array(uuidText()));

/** A whole number between min and max, or undefined when not given. */
export const qIntOpt = (min: number, max: number) =>
  z.preprocess(
    (v) => blankToUndefined(last(v)),
    z
      .string()
      .regex(/^-?\d+$/, 'not an integer')
      .transform(Number)
      .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`)
      .optional(),
  );

/** A whole number between min and max; `dflt` when not given. */
export const qInt = (dflt: number, min: number, max: number) => qIntOpt(min, max).transform((n) => n ?? dflt);

/** true/false/1/0 (any case), or undefined when not given. */
export const qBool = () =>
  z.preprocess(
    (v) => blankToUndefined(last(v)),
    z
      .string()
      .regex(/^(true|false|1|0)$/i, 'not a boolean')
      .transform((s) => /^(true|1)$/i.test(s))
      .optional(),
  );

/** A JSON value written into the query string, or undefined when not given. */
export const qJson = () =>
  z.preprocess((v) => blankToUndefined(last(v)), z.string().optional()).transform((s, c) => {
    if (s === undefined) return undefined;
    try {
      return JSON.parse(s) as unknown;
    } catch {
      c.addIssue({ code: z.ZodIssueCode.custom, message: 'not valid JSON' });
      return z.NEVER;
    }
  });

/** A timestamp (ISO 8601, with or without zone; UTC when without) → ISO UTC, or undefined when not given. */
export const qTime = () =>
  z.preprocess((v) => blankToUndefined(last(v)), z.string().optional()).transform((s, c) => {
    if (s === undefined) return undefined;
    const t = parseTime(s);
    if (!t) {
      c.addIssue({ code: z.ZodIssueCode.custom, message: `"${s}" is not a valid timestamp` });
      return z.NEVER;
    }
    return t;
  });

/** One of the given words, or undefined when not given. */
export const qEnum = <T extends [string, ...string[]]>(values: T) => z.preprocess((v) => blankToUndefined(last(v)), z.enum(values).optional());

/** A path parameter that is any non-empty text (names, hashes, tokens). */
export const pText = () => z.string().min(1);

/** `{ id }` path params where id is a UUID: the most common shape. */
export const idParams = z.object({ id: uuid() });

// ---- building blocks for bodies -------------------------------------------------------------------------------

/** A timestamp in a JSON body (ISO 8601, UTC when without a zone, or epoch milliseconds: SDKs send both) → ISO UTC. */
export const bodyTime = () =>
  z.union([z.string(), z.number()]).transform((v, c) => {
    const t = parseTime(v);
    if (!t) {
      c.addIssue({ code: 'custom', message: `"${String(v)}" is not a valid timestamp` });
      return z.NEVER;
    }
    return t;
  });
