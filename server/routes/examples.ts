// Example reads and deletes (`/examples…`) and the attachment bytes they link to. The multipart writes are
// in examplesPlatform.ts; the SQL, versions and the example JSON in ../store/examples.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { idParams, pText, qBool, qEnum, qInt, qJson, qList, qStr, qText, qUuids, route, uuid } from '../route';
import { getDataset } from '../store/datasets';
import {
  DEFAULT_LIST_FIELDS, EXAMPLE_FIELDS, registerExampleSql, revisionJson, selectedFields,
} from '../store/exampleJson';
import { EXAMPLE_ORDERS, examplesByIdsJson, listExamplesJson, type ExampleQuery } from '../store/examplePages';
import { countExamples, deleteExamples, readBlob, readExample } from '../store/examples';
import { resolveVersion } from '../store/versions';
import { HttpError, notFound } from '../errors';
import { originOf } from '../request';


/** Conditions a listing may carry in `metadata` keys and `full_text_contains` terms (each is one SQL condition). */
const MAX_CONDITIONS = 100;

/** A JSON object written into the query string (`metadata={"k": "v"}`), of at most MAX_CONDITIONS keys. */
const qObject = () =>
  qJson()
    .refine((v) => v === undefined || (!!v && typeof v === 'object' && !Array.isArray(v)), 'expected a JSON object')
    .refine((v) => v === undefined || Object.keys(v as object).length <= MAX_CONDITIONS, `at most ${MAX_CONDITIONS} keys`) as z.ZodType<
    Record<string, unknown> | undefined
  >;

/** A number (LangSmith's `random_seed` is a float), or undefined when not given. */
const qNumber = () =>
  qStr().transform((s, c) => {
    if (s === undefined || s === '') return undefined;
    const n = Number(s);
    if (!Number.isFinite(n)) {
      c.addIssue({ code: 'custom', message: `"${s}" is not a number` });
      return z.NEVER;
    }
    return n;
  });

const ListQuery = z.object({
  dataset: uuid().optional(),
  id: qUuids(),
  as_of: qText(),
  splits: qList(),
  metadata: qObject(),
  filter: qText(),
  full_text_contains: qList().pipe(z.array(z.string()).max(MAX_CONDITIONS, `at most ${MAX_CONDITIONS} terms`)),
  // LangSmith answers at most 100 examples a page.
  limit: qInt(100, 1, 100),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
  select: qList().pipe(z.array(z.enum(EXAMPLE_FIELDS))),
  order: qEnum([...EXAMPLE_ORDERS]),
  random_seed: qNumber(),
  descending: qBool(),
  inline_s3_urls: qBool(),
});

const AsOfQuery = z.object({ as_of: qText() });

export function registerExamples(app: FastifyInstance, ctx: Ctx) {
  registerExampleSql(ctx);

  route(app, 'GET', '/examples', { query: ListQuery }, ({ query: q, tenant, req, reply }) => {
    const fields = q.select.length ? selectedFields(q.select) : DEFAULT_LIST_FIELDS;
    const origin = originOf(req);
    const order = { order: q.order, descending: q.descending, randomSeed: q.random_seed, limit: q.limit, offset: q.offset };
    reply.type('application/json; charset=utf-8');
    if (!q.dataset) {
      // Without a dataset: by ids across the caller's datasets (current state).
      if (!q.id.length) throw new HttpError(422, 'query.dataset: required unless id is given');
      return examplesByIdsJson(ctx, tenant, q.id, order, origin, fields);
    }
    getDataset(ctx, tenant, q.dataset);
    const query: ExampleQuery = {
      datasetId: q.dataset, asOf: resolveVersion(ctx, q.dataset, q.as_of), ids: q.id, splits: q.splits, metadata: q.metadata, filter: q.filter, fullTextContains: q.full_text_contains, ...order,
    };
    return listExamplesJson(ctx, query, origin, fields);
  });

  route(app, 'GET', '/examples/count', { query: z.object({ dataset: uuid(), as_of: qText() }) }, ({ query, tenant }) => {
    getDataset(ctx, tenant, query.dataset);
    return countExamples(ctx, query.dataset, resolveVersion(ctx, query.dataset, query.as_of));
  });

  route(app, 'GET', '/examples/:id', { params: idParams, query: AsOfQuery }, ({ params, query, tenant, req, reply }) => {
    const row = readExample(ctx, tenant, params.id, query.as_of);
    reply.type('application/json; charset=utf-8');
    return revisionJson(ctx, row.rev, originOf(req));
  });

  route(app, 'DELETE', '/examples/:id', { params: idParams }, ({ params, tenant }) => {
    deleteExamples(ctx, tenant, [params.id]);
    return {};
  });

  route(app, 'DELETE', '/examples', { query: z.object({ example_ids: qUuids() }) }, ({ query, tenant }) => {
    if (!query.example_ids.length) throw new HttpError(422, 'query.example_ids: at least one id is required');
    deleteExamples(ctx, tenant, query.example_ids);
    return {};
  });

  // Served back through attachment_urls: content-addressed, so the hash is the capability.
  route(
    app, 'GET', '/attachments/:hash',
    { params: z.object({ hash: pText() }), query: z.object({ type: qStr() }), config: { public: true } },
    ({ params, query, reply }) => {
      if (!/^[0-9a-f]{64}$/.test(params.hash)) throw notFound('Attachment');
      const data = readBlob(ctx, params.hash);
      if (!data) throw notFound('Attachment');
      const type = query.type ?? 'application/octet-stream';
      reply.header('content-type', /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      return reply.send(data);
    },
  );
}
