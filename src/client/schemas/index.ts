import * as z from 'zod';

/** Fields the server may omit or send as null. Unknown fields are kept (loose objects). */
const str = z.string().nullish();
const num = z.number().nullish();
const bool = z.boolean().nullish();
/**
 * A JSON object. Its keys are strings by construction, so only the shape is checked: walking every key of
 * large inputs and outputs costs more than the rest of an example's validation.
 */
const record = z.custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), {
  message: 'expected an object',
});
const recordish = record.nullish();
const uuid = z.string();
/** A cost in USD: a number on v2, a number or a decimal string on v1. */
const cost = z.union([z.number(), z.string()]).nullish();

export const ProjectSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  description: str,
  extra: recordish,
  reference_dataset_id: str,
  start_time: str,
  end_time: str,
  tenant_id: str,
  run_count: num,
});
export type Project = z.infer<typeof ProjectSchema>;

export const DatasetSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  description: str,
  data_type: z.string().nullish(),
  inputs_schema_definition: recordish,
  outputs_schema_definition: recordish,
  extra: recordish,
  metadata: recordish,
  created_at: str,
  modified_at: str,
  example_count: num,
  tenant_id: str,
});
export type Dataset = z.infer<typeof DatasetSchema>;

export const AttachmentInfoSchema = z.looseObject({ presigned_url: z.string(), mime_type: str });
export type AttachmentInfo = z.infer<typeof AttachmentInfoSchema>;

/** Length of the `attachment.` prefix on keys of attachment_urls. */
export const ATTACHMENT_PREFIX_LENGTH = 11;

const ExampleWireSchema = z.looseObject({
  id: uuid,
  dataset_id: uuid,
  inputs: record.nullish().transform((v) => v ?? {}),
  outputs: recordish,
  metadata: recordish,
  split: z.union([z.string(), z.array(z.string())]).nullish(),
  created_at: str,
  modified_at: str,
  source_run_id: str,
  use_source_run_io: bool,
  use_source_run_attachments: z.array(z.string()).nullish(),
  attachment_urls: z.record(z.string(), AttachmentInfoSchema).nullish(),
});

export const ExampleSchema = ExampleWireSchema.transform((e) => {
  const attachments: Record<string, AttachmentInfo> = {};
  if (e.attachment_urls) {
    for (const [key, value] of Object.entries(e.attachment_urls)) attachments[key.slice(ATTACHMENT_PREFIX_LENGTH)] = value;
  }
  // The parsed object is already a fresh copy: extend it rather than copy it again.
  return Object.assign(e, { attachments });
});
export type Example = z.infer<typeof ExampleSchema>;

/** One problem found in a server answer: where (path) and what (message), as zod reports them. */
export interface AnswerIssue {
  path: (string | number)[];
  message: string;
}
export type AnswerCheck<T> = { success: true; data: T } | { success: false; issues: AnswerIssue[] };

const MAX_ISSUES = 5;

function received(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks a page of examples (GET /examples) with the same rules as `z.array(ExampleSchema)` and the same
 * result, but in place: the freshly parsed JSON is validated and completed (`inputs` defaulting to {}, the
 * `attachments` map) rather than copied field by field. A page of 100 examples is checked in a fraction of
 * the time, and makes no second copy of every example for the garbage collector.
 */
export function checkExamplePage(data: unknown): AnswerCheck<Example[]> {
  if (!Array.isArray(data)) {
    return { success: false, issues: [{ path: [], message: `Invalid input: expected array, received ${received(data)}` }] };
  }
  const issues: AnswerIssue[] = [];
  const bad = (path: (string | number)[], expected: string, v: unknown) => {
    issues.push({ path, message: `Invalid input: expected ${expected}, received ${received(v)}` });
  };
  for (let i = 0; i < data.length && issues.length < MAX_ISSUES; i++) {
    const e: unknown = data[i];
    if (!isObject(e)) {
      bad([i], 'object', e);
      continue;
    }
    if (typeof e['id'] !== 'string') bad([i, 'id'], 'string', e['id']);
    if (typeof e['dataset_id'] !== 'string') bad([i, 'dataset_id'], 'string', e['dataset_id']);
    for (const k of ['inputs', 'outputs', 'metadata'] as const) {
      const v = e[k];
      if (v != null && !isObject(v)) issues.push({ path: [i, k], message: 'expected an object' });
    }
    const split = e['split'];
    if (split != null && typeof split !== 'string' && !(Array.isArray(split) && split.every((x) => typeof x === 'string'))) {
      issues.push({ path: [i, 'split'], message: 'Invalid input: expected string or array of strings' });
    }
    for (const k of ['created_at', 'modified_at', 'source_run_id'] as const) {
      const v = e[k];
      if (v != null && typeof v !== 'string') bad([i, k], 'string', v);
    }
    const io = e['use_source_run_io'];
    if (io != null && typeof io !== 'boolean') bad([i, 'use_source_run_io'], 'boolean', io);
    const sra = e['use_source_run_attachments'];
    if (sra != null) {
      if (!Array.isArray(sra)) bad([i, 'use_source_run_attachments'], 'array', sra);
      else sra.forEach((x, j) => typeof x !== 'string' && bad([i, 'use_source_run_attachments', j], 'string', x));
    }
    const urls = e['attachment_urls'];
    const attachments: Record<string, AttachmentInfo> = {};
    if (urls != null) {
      if (!isObject(urls)) bad([i, 'attachment_urls'], 'record', urls);
      else {
        for (const key of Object.keys(urls)) {
          const info = urls[key];
          if (!isObject(info)) bad([i, 'attachment_urls', key], 'object', info);
          else {
            if (typeof info['presigned_url'] !== 'string') bad([i, 'attachment_urls', key, 'presigned_url'], 'string', info['presigned_url']);
            const mime = info['mime_type'];
            if (mime != null && typeof mime !== 'string') bad([i, 'attachment_urls', key, 'mime_type'], 'string', mime);
            attachments[key.slice(ATTACHMENT_PREFIX_LENGTH)] = info as AttachmentInfo;
          }
        }
      }
    }
    if (issues.length === 0) {
      if (e['inputs'] == null) e['inputs'] = {};
      e['attachments'] = attachments;
    }
  }
  if (issues.length > 0) return { success: false, issues: issues.slice(0, MAX_ISSUES) };
  return { success: true, data: data as Example[] };
}

export const FeedbackSourceSchema = z.looseObject({ type: str, metadata: recordish });

export const FeedbackSchema = z.looseObject({
  id: uuid,
  run_id: str,
  session_id: str,
  key: z.string(),
  score: z.union([z.number(), z.boolean()]).nullish(),
  value: z.unknown().optional(),
  correction: z.unknown().optional(),
  comment: str,
  feedback_source: FeedbackSourceSchema.nullish(),
  comparative_experiment_id: str,
  feedback_config: recordish,
  created_at: str,
  modified_at: str,
});
export type Feedback = z.infer<typeof FeedbackSchema>;

/** Spec §3: a token request carries either expires_at or expires_in, never both. */
export const FeedbackTokenRequestSchema = z
  .object({
    run_id: z.string(),
    feedback_key: z.string(),
    feedback_config: recordish,
    expires_at: z.string().optional(),
    expires_in: z.object({ days: num, hours: num, minutes: num }).optional(),
  })
  .refine((b) => (b.expires_at === undefined) !== (b.expires_in === undefined), 'Either expires_at or expires_in, not both');

export const FeedbackTokenSchema = z.looseObject({ id: uuid, url: z.string(), expires_at: str });
export type FeedbackToken = z.infer<typeof FeedbackTokenSchema>;

export const ComparativeExperimentSchema = z.looseObject({
  id: uuid,
  name: str,
  experiment_ids: z.array(z.string()).nullish(),
  /** What LangSmith answers instead of experiment_ids: the experiments with their names. */
  experiments_info: z.array(z.looseObject({ id: z.string(), name: str })).nullish(),
  reference_dataset_id: str,
  description: str,
  created_at: str,
  modified_at: str,
  extra: recordish,
});
export type ComparativeExperiment = z.infer<typeof ComparativeExperimentSchema>;

export const AnnotationQueueSchema = z.looseObject({
  id: uuid,
  name: z.string(),
  description: str,
  rubric_instructions: str,
  created_at: str,
  updated_at: str,
  tenant_id: str,
  /** How many runs the queue holds: listings carry it (LangSmith's AnnotationQueueSchemaWithSize), a single read may not. */
  total_runs: num,
  rubric_items: z
    .array(
      z.looseObject({
        feedback_key: z.string(),
        description: str,
        score_descriptions: z.record(z.string(), z.string()).nullish(),
        value_descriptions: z.record(z.string(), z.string()).nullish(),
        is_required: z.boolean().nullish(),
      }),
    )
    .nullish(),
  default_dataset: str,
  num_reviewers_per_item: num,
  enable_reservations: z.boolean().nullish(),
  reservation_minutes: num,
});
export type AnnotationQueue = z.infer<typeof AnnotationQueueSchema>;

export const RunSchema = z.looseObject({
  id: uuid,
  /** Absent only when a query selects other fields. */
  name: z.string().optional(),
  run_type: z.string().optional(),
  start_time: z.union([z.string(), z.number()]).nullish(),
  end_time: z.union([z.string(), z.number()]).nullish(),
  inputs: recordish,
  outputs: recordish,
  error: str,
  extra: recordish,
  events: z.array(z.unknown()).nullish(),
  tags: z.array(z.string()).nullish(),
  parent_run_id: str,
  trace_id: str,
  dotted_order: str,
  session_id: str,
  reference_example_id: str,
  status: str,
  /** Set while the run is shared publicly (v1 answers it; v2 reads derive it from share_url). */
  share_token: str,
});
export type Run = z.infer<typeof RunSchema>;

export const QueueRunSchema = RunSchema.extend({
  queue_run_id: str,
  added_at: str,
  last_reviewed_time: str,
});
export type QueueRun = z.infer<typeof QueueRunSchema>;

export const QueueRunAddedSchema = z.looseObject({ id: uuid, run_id: uuid, queue_id: str, added_at: str });

export const RunsQueryResponseSchema = z.looseObject({
  runs: z.array(RunSchema),
  cursors: z.looseObject({ next: str }).nullish(),
});

/**
 * A run as the v2 run API (/api/v2/runs/…, LangSmith 0.16 and later) answers it: only the fields asked for in
 * `selects`, unset ones omitted, run_type and status in upper case, project_id for session_id and the list of
 * ancestors (parent_run_ids) instead of the parent. `toRunFromV2` turns it into a {@link Run}.
 */
export const RunV2Schema = z.looseObject({
  id: uuid,
  name: str,
  run_type: str,
  status: str,
  start_time: str,
  end_time: str,
  inputs: recordish,
  outputs: recordish,
  error: str,
  extra: recordish,
  metadata: recordish,
  events: z.array(z.unknown()).nullish(),
  tags: z.array(z.string()).nullish(),
  parent_run_ids: z.array(z.string()).nullish(),
  project_id: str,
  trace_id: str,
  dotted_order: str,
  reference_example_id: str,
  is_in_dataset: bool,
  share_url: str,
  total_tokens: num,
  prompt_tokens: num,
  completion_tokens: num,
  total_cost: cost,
  prompt_cost: cost,
  completion_cost: cost,
  first_token_time: str,
  error_preview: str,
  thread_id: str,
  /** Attachment name → pre-signed URL. */
  attachments: recordish,
});
export type RunV2 = z.infer<typeof RunV2Schema>;

/** POST /api/v2/runs/query: a page of runs; next_cursor is left out on the last page. */
export const RunsQueryV2ResponseSchema = z.looseObject({
  items: z.array(RunV2Schema),
  has_more: bool,
  next_cursor: str,
});

/** The v1 fields that are empty rather than null when unset (v2 leaves them out). */
const V1_EMPTY: Readonly<Record<string, () => unknown>> = { inputs: () => ({}), extra: () => ({}), events: () => [], tags: () => [] };

/**
 * A v2 run in the v1 shape every caller of the run reads expects: lower-case run_type and status, session_id,
 * parent_run_id (the last ancestor), metadata inside extra, in_dataset. `fields` are the v1 fields that were
 * asked for: those v2 left out (it omits what is unset) become null, or empty, as v1 reports them. v2's names for
 * fields that now carry v1 names are dropped, so a run reads the same whichever API it came from.
 */
export function toRunFromV2(r: RunV2, fields: readonly string[]): Run {
  const out: Record<string, unknown> = { ...r };
  for (const k of ['project_id', 'metadata', 'is_in_dataset', 'share_url'] as const) delete out[k];
  // v1 answers a shared run's token; v2 its public link, `<web>/public/<token>/r`.
  const shared = typeof r.share_url === 'string' ? /\/public\/([0-9a-f-]{36})\/r\/?$/i.exec(r.share_url) : null;
  if (shared) out['share_token'] = shared[1]!.toLowerCase();
  if (typeof r.run_type === 'string') out['run_type'] = r.run_type.toLowerCase();
  if (typeof r.status === 'string') out['status'] = r.status.toLowerCase();
  if (r.project_id !== undefined) out['session_id'] = r.project_id;
  if (r.is_in_dataset !== undefined) out['in_dataset'] = r.is_in_dataset;
  if (r.parent_run_ids !== undefined) out['parent_run_id'] = r.parent_run_ids?.length ? r.parent_run_ids[r.parent_run_ids.length - 1] : null;
  // v1 keeps the user's metadata inside extra; v2 may answer it on its own (an empty one when there is none,
  // which v1 does not show).
  if (r.metadata != null && Object.keys(r.metadata).length > 0 && (r.extra == null || !('metadata' in r.extra))) {
    out['extra'] = { ...(r.extra ?? {}), metadata: r.metadata };
  }
  // name and run_type have no null in the Run type: they stay absent when v2 leaves them out. The collections
  // v1 answers empty rather than null come back empty; every other field v1 reports as null.
  for (const f of fields) {
    if (out[f] !== undefined || f === 'name' || f === 'run_type') continue;
    out[f] = f in V1_EMPTY ? V1_EMPTY[f]!() : null;
  }
  return out as Run;
}

export const PromptRepoSchema = z.looseObject({
  id: str,
  repo_handle: z.string(),
  owner: str,
  full_name: str,
  description: str,
  readme: str,
  tags: z.array(z.string()).nullish(),
  is_public: bool,
  is_archived: bool,
  num_likes: num,
  num_commits: num,
  last_commit_hash: str,
  created_at: str,
  updated_at: str,
  tenant_id: str,
  liked_by_auth_user: bool,
});
export type PromptRepo = z.infer<typeof PromptRepoSchema>;

export const RepoEnvelopeSchema = z.looseObject({ repo: PromptRepoSchema });
export const ListReposSchema = z.looseObject({ repos: z.array(PromptRepoSchema), total: num });

export const CommitSchema = z.looseObject({
  id: str,
  commit_hash: z.string(),
  parent_commit_hash: str,
  manifest: z.unknown(),
  examples: z.array(z.unknown()).nullish(),
  created_at: str,
});
export type Commit = z.infer<typeof CommitSchema>;
export const ListCommitsSchema = z.looseObject({ commits: z.array(CommitSchema), total: num });
export const CommitEnvelopeSchema = z.union([z.looseObject({ commit: CommitSchema }), CommitSchema]);

export const PromptCommitSchema = z.looseObject({
  commit_hash: z.string(),
  manifest: z.unknown(),
  examples: z.array(z.unknown()).nullish(),
  model_config: z.unknown().optional(),
  model_provider: z.unknown().optional(),
});

export const PromptTagSchema = z.looseObject({
  id: str,
  tag_name: z.string(),
  commit_id: z.string(),
  commit_hash: str,
  created_at: str,
  updated_at: str,
});
export type PromptTag = z.infer<typeof PromptTagSchema>;

export const LikesSchema = z.looseObject({ likes: z.number() });

export const DatasetSplitUpdateSchema = z.looseObject({ split_name: z.string(), examples: z.array(z.string()), remove: bool });
export const DatasetVersionSchema = z.looseObject({ as_of: z.string(), tags: z.array(z.string()).nullish() });
export type DatasetVersion = z.infer<typeof DatasetVersionSchema>;
export const DatasetTagSchema = z.looseObject({ as_of: z.string(), tag: z.string() });
export const DatasetDiffSchema = z.looseObject({
  examples_added: z.array(z.string()),
  examples_modified: z.array(z.string()),
  examples_removed: z.array(z.string()),
});
export type DatasetDiff = z.infer<typeof DatasetDiffSchema>;

export const ShareSchema = z.looseObject({ share_token: z.string(), dataset_id: str, run_id: str });
export type ShareRecord = z.infer<typeof ShareSchema>;

export const ExamplesCreatedSchema = z.looseObject({
  count: num,
  example_ids: z.array(z.string()).nullish(),
  as_of: str,
});

export const ServerInfoSchema = z.looseObject({
  version: str,
  license_expiration_time: str,
  batch_ingest_config: z
    .looseObject({
      use_multipart_endpoint: bool,
      size_limit: num,
      size_limit_bytes: num,
      scale_up_qsize_trigger: num,
    })
    .nullish(),
  instance_flags: recordish,
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

export const SettingsSchema = z.looseObject({
  id: z.string(),
  display_name: str,
  created_at: str,
  tenant_handle: str,
});
export type TenantSettings = z.infer<typeof SettingsSchema>;

export const QueueSizeSchema = z.looseObject({ size: z.number() });

/** GET /api/v2/traces/{trace_id}/runs: every run of the trace, in one answer (not paged). */
export const TraceRunsV2ResponseSchema = z.looseObject({ items: z.array(RunV2Schema) });

/**
 * A run of a trace with what its tree shows, the same whichever API answered (see `client.traces.runs`):
 * lower-case run_type and status, the parent, the tokens and costs (numbers), an error preview.
 */
export interface TraceRun extends Run {
  id: string;
  name?: string;
  run_type?: string;
  status: string | null;
  start_time: string | null;
  end_time: string | null;
  parent_run_id: string | null;
  dotted_order: string | null;
  trace_id: string | null;
  session_id: string | null;
  total_tokens: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_cost: number | null;
  prompt_cost: number | null;
  completion_cost: number | null;
  first_token_time: string | null;
  /** The error cut to a preview (v2's ERROR_PREVIEW; v1's error cut the same way), null without one. */
  error_preview: string | null;
  /** The conversation the run belongs to (metadata thread_id, session_id or conversation_id): v2 only, else null. */
  thread_id: string | null;
}

/** POST /api/v2/threads/query: one summary per thread, most recently active first. */
export const ThreadSummaryWireSchema = z.looseObject({
  thread_id: z.string(),
  count: num,
  min_start_time: str,
  max_start_time: str,
  start_time: str,
  first_trace_id: str,
  last_trace_id: str,
  trace_id: str,
  num_errored_turns: num,
  first_inputs: str,
  last_outputs: str,
  last_error: str,
  latency_p50: num,
  latency_p99: num,
  total_tokens: num,
  total_cost: cost,
  feedback_stats: recordish,
});
export type ThreadSummaryWire = z.infer<typeof ThreadSummaryWireSchema>;
export const ThreadsQueryResponseSchema = z.looseObject({
  items: z.array(ThreadSummaryWireSchema),
  has_more: bool,
  next_cursor: str,
});

/** GET /api/v2/threads/{thread_id}/traces: a page of the thread's traces (turns), oldest first. */
export const ThreadTraceWireSchema = z.looseObject({
  trace_id: z.string(),
  thread_id: str,
  name: str,
  start_time: str,
  end_time: str,
  latency: num,
  first_token_time: str,
  prompt_tokens: num,
  completion_tokens: num,
  total_tokens: num,
  prompt_cost: cost,
  completion_cost: cost,
  total_cost: cost,
  inputs_preview: str,
  outputs_preview: str,
  error_preview: str,
});
export type ThreadTraceWire = z.infer<typeof ThreadTraceWireSchema>;
export const ThreadTracesResponseSchema = z.looseObject({
  items: z.array(ThreadTraceWireSchema),
  has_more: bool,
  next_cursor: str,
});

/** GET /api/v2/threads/{thread_id}/stats: the selected figures of one thread. */
export const ThreadStatsWireSchema = z.looseObject({
  turns: num,
  first_start_time: str,
  last_start_time: str,
  last_end_time: str,
  latency_p50_seconds: num,
  latency_p99_seconds: num,
  prompt_tokens: num,
  completion_tokens: num,
  total_tokens: num,
  prompt_cost: cost,
  completion_cost: cost,
  total_cost: cost,
  feedback_stats: recordish,
});
export type ThreadStatsWire = z.infer<typeof ThreadStatsWireSchema>;

/** A number from a cost or count that may come as a decimal string (v1) or not at all. */
export function numberOrNull(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

// ---- experiments --------------------------------------------------------------------------------------------------

/** A project read with `include_stats=true`: the figures of its root runs and its feedback per key. */
export const ProjectWithStatsSchema = ProjectSchema.extend({
  run_count: num,
  error_rate: num,
  latency_p50: num,
  latency_p99: num,
  total_tokens: num,
  total_cost: cost,
  feedback_stats: z.record(z.string(), z.looseObject({ n: num, avg: num })).nullish(),
});
export type ProjectWithStats = z.infer<typeof ProjectWithStatsSchema>;

/** A listing that selected only ids (GET /examples?select=id). */
export const IdListSchema = z.array(z.looseObject({ id: z.string() }));

/** A run's feedback per key as v2 aggregates it (`FEEDBACK_STATS`). */
export const RunFeedbackStatsSchema = z.record(
  z.string(),
  z.looseObject({ n: num, avg: num, values: recordish, comments: z.array(z.string()).nullish() }),
);

/** POST /api/v2/datasets/{id}/experiment-runs: examples, each with the runs of the experiments asked for. */
export const ExperimentRunsV2ResponseSchema = z.looseObject({
  items: z.array(
    z.looseObject({
      id: z.string(),
      inputs: recordish,
      outputs: recordish,
      metadata: recordish,
      runs: z.array(RunV2Schema.extend({ latency_seconds: num, feedback_stats: RunFeedbackStatsSchema.nullish() })).nullish(),
    }),
  ),
  next_cursor: str,
});
export type ExperimentRunsV2Response = z.infer<typeof ExperimentRunsV2ResponseSchema>;
