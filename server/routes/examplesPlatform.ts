// The multipart example endpoints (`/v1/platform/datasets/{id}/examples`, POST to create, PATCH to update)
// and the bulk delete, served under /v1/platform and /api/v1/platform. A multipart request carries, per
// example id, the parts `<id>` (the other fields), `<id>.inputs`, `<id>.outputs`, `<id>.attachment.<name>`
// and (PATCH) `<id>.attachments_operations`; each JSON part is checked by its own schema here.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { check, idParams, route, uuid } from '../route';
import { getDataset } from '../store/datasets';
import { forgetPageEnds } from '../store/examplePages';
import {
  createExamplesMultipart, deleteExamples, hardDeleteExamples, updateExamplesMultipart, type CreatePart, type UpdatePart,
} from '../store/examples';
import { RawJson } from '../store/revisions';
import { HttpError } from '../errors';
import { isUuid } from '../ids';
import { readParts } from './runsMultipart';

// These parts come a thousand to a request: the checks say what a field must be without copying it (a
// z.record would rebuild every metadata object key by key; ingest time is measured by the server benchmark).
const time = z.custom<string | number>((v) => typeof v === 'string' || typeof v === 'number', 'expected a timestamp (text or a number)');
const Metadata = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'expected a JSON object');

/** What the `<id>` part of a create and of an update both carry. `split` is checked by the store (a name or a list). */
const CommonFields = {
  id: z.string().optional().nullable(),
  dataset_id: z.string().optional().nullable(),
  created_at: time.optional().nullable(),
  metadata: Metadata.optional().nullable(),
  split: z.unknown().optional(),
};

/** The `<id>` part of a create. */
const CreateFields = z.strictObject({
  ...CommonFields,
  source_run_id: uuid().optional().nullable(),
  use_source_run_io: z.boolean().optional().nullable(),
  use_source_run_attachments: z.union([z.array(z.string()), z.boolean()]).optional().nullable(),
});

/** The `<id>` part of an update; inputs and outputs may come in it or as parts of their own. */
const UpdateFields = z.strictObject({
  ...CommonFields,
  inputs: Metadata.optional().nullable(),
  outputs: Metadata.optional().nullable(),
});

const AttachmentOps = z.strictObject({
  rename: z.record(z.string(), z.string().min(1)).optional().nullable(),
  retain: z.array(z.string()).optional().nullable(),
});

const DeleteBody = z.strictObject({ example_ids: z.array(uuid()), hard_delete: z.boolean().optional().nullable() });

/** One example's parts, as received. */
interface PartGroup {
  fields?: unknown;
  inputs?: { value: unknown; text: string };
  outputs?: { value: unknown; text: string };
  ops?: unknown;
  attachments: Record<string, { data: Buffer; mime: string }>;
}

/** Groups the parts of a multipart examples request by example id (lower-cased). */
function groupParts(parts: Array<{ name: string; data: Buffer; contentType: string }>): Map<string, PartGroup> {
  const groups = new Map<string, PartGroup>();
  const json = (p: { name: string; data: Buffer }) => {
    const text = p.data.toString('utf8');
    try {
      return { value: JSON.parse(text) as unknown, text };
    } catch {
      throw new HttpError(422, `Part ${p.name}: not valid JSON`);
    }
  };
  // An example's parts come one after another under the same id: check and look it up once per id.
  let lastRawId = '';
  let g: PartGroup | undefined;
  for (const p of parts) {
    const dot = p.name.indexOf('.');
    const rawId = dot < 0 ? p.name : p.name.slice(0, dot);
    const rest = dot < 0 ? '' : p.name.slice(dot + 1);
    if (rawId !== lastRawId || !g) {
      if (!isUuid(rawId)) throw new HttpError(422, `Part name must start with an example id; "${rawId}" is not a valid UUID`);
      const id = rawId.toLowerCase();
      g = groups.get(id);
      if (!g) groups.set(id, (g = { attachments: {} }));
      lastRawId = rawId;
    }
    if (rest === '') g.fields = json(p).value;
    else if (rest === 'inputs') g.inputs = json(p);
    else if (rest === 'outputs') g.outputs = json(p);
    else if (rest === 'attachments_operations') g.ops = json(p).value;
    else if (rest.startsWith('attachment.') && rest.length > 'attachment.'.length) {
      g.attachments[rest.slice('attachment.'.length)] = { data: p.data, mime: p.contentType.split(';')[0].trim() || 'application/octet-stream' };
    } else throw new HttpError(422, `Part ${p.name}: unknown part (expected <id>, <id>.inputs, <id>.outputs, <id>.attachment.<name>, <id>.attachments_operations)`);
  }
  if (!groups.size) throw new HttpError(422, 'No examples in the request');
  for (const [id, g] of groups) {
    for (const [k, v] of [['inputs', g.inputs?.value], ['outputs', g.outputs?.value]] as const) {
      if (v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v))) throw new HttpError(422, `Part ${id}.${k}: expected a JSON object`);
    }
  }
  return groups;
}

function createParts(groups: Map<string, PartGroup>): CreatePart[] {
  return [...groups].map(([id, g]) => {
    if (g.ops !== undefined) throw new HttpError(422, `Part ${id}.attachments_operations: only valid when updating examples`);
    const f = check(CreateFields, g.fields ?? {}, `Part ${id}`);
    return {
      id,
      created_at: f.created_at,
      metadata: f.metadata,
      split: f.split as CreatePart['split'],
      source_run_id: f.source_run_id,
      use_source_run_io: f.use_source_run_io,
      use_source_run_attachments: f.use_source_run_attachments,
      // Stored as the client wrote it: validated above, not re-serialized.
      inputs: g.inputs && new RawJson(g.inputs.text),
      outputs: g.outputs && new RawJson(g.outputs.text),
      attachments: g.attachments,
    };
  });
}

function updateParts(groups: Map<string, PartGroup>): UpdatePart[] {
  return [...groups].map(([id, g]) => {
    const f = check(UpdateFields, g.fields ?? {}, `Part ${id}`);
    const ops = g.ops === undefined ? undefined : check(AttachmentOps, g.ops, `Part ${id}.attachments_operations`);
    return {
      id,
      metadata: f.metadata,
      split: f.split as UpdatePart['split'],
      inputs: g.inputs?.value ?? f.inputs ?? undefined,
      outputs: g.outputs !== undefined ? g.outputs.value : f.outputs,
      ops,
      attachments: g.attachments,
    };
  });
}

export function registerPlatformExamples(app: FastifyInstance, ctx: Ctx) {
  const guard = () => {
    if (!ctx.multipartExamples) throw new HttpError(404, 'The multipart examples endpoint is disabled on this server');
  };

  route(app, 'POST', '/datasets/:id/examples', { params: idParams }, async ({ params, tenant, req, reply }) => {
    guard();
    getDataset(ctx, tenant, params.id);
    const parts = createParts(groupParts(await readParts(req)));
    reply.code(201);
    return createExamplesMultipart(ctx, tenant, params.id, parts);
  });

  route(app, 'PATCH', '/datasets/:id/examples', { params: idParams }, async ({ params, tenant, req }) => {
    guard();
    getDataset(ctx, tenant, params.id);
    return updateExamplesMultipart(ctx, params.id, updateParts(groupParts(await readParts(req))));
  });

  route(app, 'POST', '/datasets/examples/delete', { body: DeleteBody }, ({ body, tenant }) => {
    // A hard delete removes the examples from every version without opening a new one, so the page ends
    // recorded for the dataset's latest version would no longer hold.
    if (body.hard_delete) hardDeleteExamples(ctx, tenant, body.example_ids, () => forgetPageEnds(ctx));
    else deleteExamples(ctx, tenant, body.example_ids);
    return {};
  });
}
