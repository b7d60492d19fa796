// Dataset versions and tags, the diff of two versions, splits, and the OpenAI fine-tuning export.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import { idParams, qInt, qText, route, uuid } from '../route';
import { diffVersions, listSplits, listVersions, readVersion, tagVersion, updateSplit } from '../store/datasets';
import { getDataset } from '../store/datasets';
import { listExamples } from '../store/examplePages';
import { resolveVersion } from '../store/versions';
import { HttpError } from '../errors';
import { jsonOrNull } from '../json';

const VersionsQuery = z.object({
  search: qText(),
  example: uuid().optional(),
  limit: qInt(100, 1, 100),
  offset: qInt(0, 0, Number.MAX_SAFE_INTEGER),
});
const VersionQuery = z.object({ as_of: qText(), tag: qText() });
const DiffQuery = z.object({ from_version: qText(), to_version: qText() });
const TagBody = z.strictObject({ as_of: z.string().min(1), tag: z.string().min(1) });
const SplitsBody = z.strictObject({ split_name: z.string().min(1), examples: z.array(uuid()), remove: z.boolean().optional().nullable() });
const AsOfQuery = z.object({ as_of: qText() });

type Message = { role: string; content: unknown };

/** Messages for OpenAI fine-tuning from one example (chat datasets, or kv/llm with text in and out). */
function toOpenAiMessages(inputs: unknown, outputs: unknown): Message[] {
  const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  const asMessage = (m: unknown, dflt: string): Message => {
    const o = obj(m);
    if (o) {
      const role = (o.role ?? (o.type === 'human' ? 'user' : o.type === 'ai' ? 'assistant' : o.type) ?? dflt) as string;
      const content = o.content ?? obj(o.data)?.content ?? o.text ?? '';
      return { role, content };
    }
    return { role: dflt, content: typeof m === 'string' ? m : JSON.stringify(m) };
  };
  const i = obj(inputs);
  const firstArray = (o: Record<string, unknown> | undefined) => (o ? (Object.values(o).find(Array.isArray) as unknown[] | undefined) : undefined);
  const msgsIn = Array.isArray(i?.messages) ? (i.messages as unknown[]) : Array.isArray(i?.input) ? (i.input as unknown[]) : firstArray(i);
  const messages: Message[] = msgsIn
    ? msgsIn.map((m) => asMessage(m, 'user'))
    : [asMessage(Object.values(i ?? {}).find((v) => typeof v === 'string') ?? JSON.stringify(inputs ?? {}), 'user')];
  const o = obj(outputs);
  if (outputs != null) {
    const generations = Array.isArray(o?.generations) ? o.generations : undefined;
    const out = o?.output ?? o?.message ?? generations?.[0] ?? (Array.isArray(o?.messages) ? (o.messages as unknown[]).at(-1) : undefined)
      ?? Object.values(o ?? {}).find((v) => typeof v === 'string') ?? outputs;
    messages.push(asMessage(out, 'assistant'));
  }
  return messages;
}

export function registerDatasetVersions(app: FastifyInstance, ctx: Ctx) {
  route(app, 'GET', '/datasets/:id/versions', { params: idParams, query: VersionsQuery }, ({ params, query: q, tenant }) => {
    const d = getDataset(ctx, tenant, params.id);
    return listVersions(ctx, d.id, { search: q.search, example: q.example, limit: q.limit, offset: q.offset });
  });

  route(app, 'GET', '/datasets/:id/version', { params: idParams, query: VersionQuery }, ({ params, query: q, tenant }) => {
    const d = getDataset(ctx, tenant, params.id);
    if ((q.as_of && q.tag) || (!q.as_of && !q.tag)) throw new HttpError(422, 'Exactly one of as_of and tag must be specified');
    return readVersion(ctx, d.id, { tag: q.tag, asOf: q.as_of });
  });

  route(app, 'PUT', '/datasets/:id/tags', { params: idParams, body: TagBody }, ({ params, body, tenant }) => tagVersion(ctx, tenant, params.id, body.as_of, body.tag));

  route(app, 'GET', '/datasets/:id/versions/diff', { params: idParams, query: DiffQuery }, ({ params, query: q, tenant }) => {
    const d = getDataset(ctx, tenant, params.id);
    if (!q.from_version || !q.to_version) throw new HttpError(422, 'from_version and to_version are required');
    return diffVersions(ctx, d.id, q.from_version, q.to_version);
  });

  route(app, 'GET', '/datasets/:id/splits', { params: idParams, query: AsOfQuery }, ({ params, query, tenant }) => {
    const d = getDataset(ctx, tenant, params.id);
    return listSplits(ctx, d.id, resolveVersion(ctx, d.id, query.as_of));
  });

  route(app, 'PUT', '/datasets/:id/splits', { params: idParams, body: SplitsBody }, ({ params, body, tenant }) =>
    updateSplit(ctx, tenant, params.id, body.split_name, body.examples, body.remove ?? false),
  );

  route(app, 'GET', '/datasets/:id/openai_ft', { params: idParams, query: AsOfQuery }, ({ params, query, tenant, reply }) => {
    const d = getDataset(ctx, tenant, params.id);
    const asOf = resolveVersion(ctx, d.id, query.as_of);
    const lines: string[] = [];
    for (let offset = 0; ; offset += 1000) {
      const rows = listExamples(ctx, { datasetId: d.id, asOf, limit: 1000, offset });
      for (const r of rows) lines.push(JSON.stringify({ messages: toOpenAiMessages(JSON.parse(r.inputs), jsonOrNull(r.outputs)) }));
      if (rows.length < 1000) break;
    }
    reply.header('content-type', 'application/jsonl; charset=utf-8');
    return lines.join('\n') + (lines.length ? '\n' : '');
  });
}
