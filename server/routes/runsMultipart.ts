// Multipart run ingestion (POST /runs/multipart): what the official SDKs send by default. The body is read here
// (buffered by the scope it is registered in), not by a schema: each part is a run, a field of one, or an
// attachment, and each assembled run is checked by the run payload schema.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { splitMultipart } from '../multipartBuffer';
import { check, route } from '../route';
import { ingestMultipart, type MultipartOp } from '../store/runs';
import { HttpError } from '../errors';
import { isUuid, sha256 } from '../ids';
import { RunWithIdSchema } from './runsShape';

/** One part of a multipart body. */
export interface Part {
  name: string;
  data: Buffer;
  contentType: string;
  filename?: string;
}

/** Reads every part of a multipart body into memory. */
export async function readParts(req: FastifyRequest): Promise<Part[]> {
  if (Buffer.isBuffer(req.body)) return splitMultipart(req.body, String(req.headers['content-type'] ?? ''));
  if (!req.isMultipart()) throw new HttpError(422, 'Expected a multipart/form-data body');
  const out: Part[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') out.push({ name: part.fieldname, data: await part.toBuffer(), contentType: part.mimetype, filename: part.filename });
      else out.push({ name: part.fieldname, data: Buffer.from(String(part.value)), contentType: part.mimetype });
    }
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const err = e as { statusCode?: number; message?: string };
    throw new HttpError(err?.statusCode && err.statusCode < 500 ? err.statusCode : 400, `Malformed multipart body: ${err?.message ?? e}`);
  }
  return out;
}

function parsePartJson(part: Part): unknown {
  try {
    return JSON.parse(part.data.toString('utf8'));
  } catch {
    throw new HttpError(422, `Part ${part.name}: not valid JSON`);
  }
}

const mimeOf = (ct: string) => ct.split(';')[0].trim() || 'application/octet-stream';

/** Fields a run's own part may be split into (`post.<id>.inputs` …). */
const FIELD_PARTS = new Set(['inputs', 'outputs', 'events', 'extra', 'error', 'serialized']);

/** The runs and attachment bytes of a multipart body, each run checked. */
function assemble(parts: Part[]): { ops: Map<string, MultipartOp>; blobs: Array<[string, Buffer]> } {
  const ops = new Map<string, MultipartOp>();
  const blobs: Array<[string, Buffer]> = [];
  const opFor = (method: 'post' | 'patch', id: string): MultipartOp => {
    const key = `${method}.${id}`;
    let op = ops.get(key);
    if (!op) ops.set(key, (op = { method, body: { id }, attachments: {} }));
    return op;
  };
  const runId = (part: Part, id: string | undefined): string => {
    if (!isUuid(id)) throw new HttpError(422, `Part ${part.name}: "${id}" is not a valid run id`);
    return id;
  };
  for (const part of parts) {
    const segs = part.name.split('.');
    if (segs[0] === 'post' || segs[0] === 'patch') {
      const id = runId(part, segs[1]);
      const op = opFor(segs[0], id);
      const value = parsePartJson(part);
      if (segs.length === 2) {
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(422, `Part ${part.name}: expected an object`);
        Object.assign(op.body, value, { id });
      } else if (segs.length === 3 && FIELD_PARTS.has(segs[2])) {
        op.body[segs[2]] = value;
      } else throw new HttpError(422, `Part ${part.name}: unknown run field`);
    } else if (segs[0] === 'attachment' && segs.length >= 3) {
      const id = runId(part, segs[1]);
      const hash = sha256(part.data);
      blobs.push([hash, part.data]);
      // An attachment belongs to the run's create (made for it when the body has only the attachment).
      const op = ops.get(`post.${id}`) ?? opFor('post', id);
      op.attachments[segs.slice(2).join('.')] = { hash, mime_type: mimeOf(part.contentType), size: part.data.length };
    } else throw new HttpError(422, `Part ${part.name}: unknown part (expected post.<id>, patch.<id> or attachment.<id>.<name>)`);
  }
  for (const [key, op] of ops) check(RunWithIdSchema, op.body, key);
  return { ops, blobs };
}

/** Registered in a scope where multipart bodies arrive buffered (see useBufferedMultipart). */
export function registerRunsMultipart(app: FastifyInstance, ctx: Ctx) {
  route(app, 'POST', '/runs/multipart', {}, async ({ req, tenant, reply }) => {
    const { ops, blobs } = assemble(await readParts(req));
    ingestMultipart(ctx, tenant, blobs, ops.values());
    reply.code(202);
    return { message: 'Runs ingested' };
  });
}
