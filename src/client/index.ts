/**
 * LangSmith API client: plain Node (no `vscode`), zod-parsed answers, timeouts, retries, lazy paging.
 *
 *   const client = new LangSmithClient({ apiUrl, apiKey });
 *   for await (const ds of client.datasets.list()) …
 */
import { ClientContext, multipartExamplesSupported, parseServerVersion } from './context';
import { HttpClient, DEFAULT_API_URL, type HttpConfig } from './http';
import { webUrlFromApiUrl } from './links';
import { AnnotationQueuesResource } from './resources/annotationQueues';
import { ComparativeExperimentsResource } from './resources/comparativeExperiments';
import { DatasetsResource } from './resources/datasets';
import { ExamplesResource } from './resources/examples';
import { ExperimentsResource } from './resources/experiments';
import { FeedbackResource } from './resources/feedback';
import { FeedbackConfigsResource } from './resources/feedbackConfigs';
import { LinksResource } from './resources/links';
import { ProjectsResource } from './resources/projects';
import { PromptsResource } from './resources/prompts';
import { PublicResource } from './resources/public';
import { RunsResource } from './resources/runs';
import { ThreadsResource } from './resources/threads';
import { TracesResource } from './resources/traces';
import type { ServerInfo, TenantSettings } from './schemas';
import { Tracer, type TracerOptions } from './tracing';

export interface LangSmithClientOptions extends HttpConfig {
  /** Web host for links; derived from apiUrl when absent. */
  webUrl?: string;
  /** Options of the run queue behind `client.tracing`. */
  tracing?: TracerOptions;
}

export interface EnvLike {
  [key: string]: string | undefined;
}

export class LangSmithClient {
  readonly apiUrl: string;
  readonly webUrl: string;
  readonly http: HttpClient;
  readonly projects: ProjectsResource;
  readonly runs: RunsResource;
  /** A trace's runs for its tree, and search within it. */
  readonly traces: TracesResource;
  /** A project's conversations: threads, their turns and figures. */
  readonly threads: ThreadsResource;
  readonly datasets: DatasetsResource;
  readonly examples: ExamplesResource;
  readonly feedback: FeedbackResource;
  readonly feedbackConfigs: FeedbackConfigsResource;
  readonly annotationQueues: AnnotationQueuesResource;
  readonly comparativeExperiments: ComparativeExperimentsResource;
  /** Experiments of a dataset: their figures, and the rows of a comparison. */
  readonly experiments: ExperimentsResource;
  readonly prompts: PromptsResource;
  readonly public: PublicResource;
  readonly links: LinksResource;
  readonly tracing: Tracer;
  private readonly ctx: ClientContext;

  constructor(options: LangSmithClientOptions = {}) {
    this.http = new HttpClient(options);
    this.apiUrl = this.http.apiUrl;
    this.webUrl = (options.webUrl ?? webUrlFromApiUrl(this.apiUrl)).replace(/\/+$/, '');
    this.ctx = new ClientContext(this.http, this.webUrl);
    this.projects = new ProjectsResource(this.ctx);
    this.datasets = new DatasetsResource(this.ctx);
    this.examples = new ExamplesResource(this.ctx, this.datasets);
    this.runs = new RunsResource(this.ctx, this.projects);
    this.traces = new TracesResource(this.ctx);
    this.threads = new ThreadsResource(this.ctx);
    this.feedback = new FeedbackResource(this.ctx);
    this.feedbackConfigs = new FeedbackConfigsResource(this.ctx);
    this.annotationQueues = new AnnotationQueuesResource(this.ctx);
    this.comparativeExperiments = new ComparativeExperimentsResource(this.ctx, this.projects);
    this.experiments = new ExperimentsResource(this.ctx);
    this.prompts = new PromptsResource(this.ctx);
    this.public = new PublicResource(this.ctx);
    this.links = new LinksResource(this.ctx, this.projects, this.datasets, this.prompts);
    this.tracing = new Tracer(this.ctx, options.tracing);
  }

  /**
   * A run queue of its own (the playground's, say): another project, manual flush, other limits; it sends
   * through this client's connection.
   */
  createTracer(options: TracerOptions = {}): Tracer {
    return new Tracer(this.ctx, options);
  }

  /** Options from `LANGSMITH_*` variables (`LANGCHAIN_*` as fallbacks). */
  static optionsFromEnv(env: EnvLike = process.env): LangSmithClientOptions {
    return {
      apiUrl: env['LANGSMITH_ENDPOINT'] || env['LANGCHAIN_ENDPOINT'] || DEFAULT_API_URL,
      apiKey: env['LANGSMITH_API_KEY'] || env['LANGCHAIN_API_KEY'] || undefined,
      workspaceId: env['LANGSMITH_WORKSPACE_ID'] || env['LANGCHAIN_WORKSPACE_ID'] || undefined,
    };
  }

  /** GET /info (cached per client). */
  serverInfo(o: { signal?: AbortSignal } = {}): Promise<ServerInfo> {
    return this.ctx.info(o.signal);
  }

  /** The server's version as a semver string, or null when it reports none usable. */
  async serverVersion(o: { signal?: AbortSignal } = {}): Promise<string | null> {
    return parseServerVersion((await this.ctx.info(o.signal)).version);
  }

  /** Whether the multipart example endpoints may be used (instance flag, else the version). */
  async supportsMultipartExamples(o: { signal?: AbortSignal } = {}): Promise<boolean> {
    return multipartExamplesSupported(await this.ctx.info(o.signal));
  }

  /** GET /settings: the caller's tenant (id, handle), cached per client. */
  settings(o: { signal?: AbortSignal } = {}): Promise<TenantSettings> {
    return this.ctx.settings(o.signal);
  }
}

export { collect } from './paging';
export { exampleSplits, metadataWithoutSplit, type ExampleSplitFields } from './exampleSplits';
export * from './errors';
export * from './schemas';
export { MSG } from './messages';
export { webUrlFromApiUrl, publicRunUrl, publicDatasetUrl, projectUrl, datasetUrl, promptUrl, COMMIT_PREFIX_LENGTH } from './links';
export { parsePromptIdentifier, parsePublicToken, assertUuid, isUuid, uuid4, uuid7 } from './ids';
export { RETRYABLE_STATUSES, parseRetryAfter, type HttpConfig } from './http';
export { SEMVER_MAX_LENGTH, MULTIPART_EXAMPLES_MIN_VERSION, parseServerVersion, multipartExamplesSupported } from './context';
export { DEFAULT_FEEDBACK_TOKEN_EXPIRY } from './resources/feedback';
export type { ProjectDashboardOptions, ProjectListOptions, ProjectSortBy } from './resources/projects';
export type { RunStatsOptions } from './resources/runs';
export { DEFAULT_DATA_TYPE, DATASET_LIST_DEFAULT_LIMIT, DATASET_LIST_DEFAULT_OFFSET } from './resources/datasets';
export { ANNOTATION_QUEUE_MAX_PAGE, type QueueSettings, type RubricItem } from './resources/annotationQueues';
export { QUEUE_ITEM_SECTIONS, QUEUE_ITEMS_MAX_PAGE, type QueueItem, type QueueItemSection, type QueueItemStatus } from './resources/queueItems';
export { FEEDBACK_KEY_MAX, checkFeedbackConfig, type FeedbackConfigBody, type FeedbackConfigEntry } from './resources/feedbackConfigs';
export { RunTree, Tracer, type RunInit, type RunEnd, type TracerOptions } from './tracing';
export * from './runnables';
export type { ExampleCreate, ExampleUpdate, AttachmentData, ExamplesCreated } from './resources/examples';
export { EXPERIMENT_ROWS_MAX_EXAMPLES, toExperimentSummary, type ExperimentListOptions, type ExampleIdsOptions, type ExperimentRowsOptions } from './resources/experiments';
export { TRACE_V1_PAGE_SIZE, searchFilter, type TraceRuns, type TraceReadOptions } from './resources/traces';
export {
  THREADS_V2_MIN_VERSION,
  THREAD_METADATA_KEYS,
  THREAD_TURNS_DEFAULT_LIMIT,
  type ThreadSummary,
  type ThreadTurn,
  type ThreadStats,
  type ThreadListOptions,
  type ThreadReadOptions,
} from './resources/threads';
export { ProfileLoginAuth, LOGIN_RENEW_LEEWAY_MS, type ProfileLoginOptions } from './profileAuth';
export type { RequestAuth } from './http';
