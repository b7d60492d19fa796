// The playground's host side: reads the prompt (a prompt file as the editor has it, or a commit), runs it as a
// chain — prompt → chat model → parser, with the session's history in chat mode — against an OpenAI-compatible
// endpoint, streams the answer to the page, and traces each run to a LangSmith project in manual-flush mode,
// flushed when the run ends (a failed flush is reported and the runs kept for the next).
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InMemoryHistoryStore, Message, PromptTemplate, Tracer } from '../../client';
import { Commands } from '../../constants';
import { NotSignedInError } from '../../auth/clientService';
import { playgroundProject, resolveModelEndpoint, type ModelEndpoint } from '../../auth/modelEndpoint';
import type { PromptFile } from '../../promptFile';
import { editablePromptFileUri, parsePromptDocument, promptFormat } from '../../prompts/promptFiles';
import {
  ConfigureModel,
  FlushTraces,
  OpenSource,
  PlaygroundChanged,
  PlaygroundKey,
  PlaygroundReady,
  ResetSession,
  RevealTrace,
  RunDelta,
  RunFinished,
  RunPrompt,
  StopRun,
  type ChatTurn,
  type FinishedRun,
  type ModelSettings,
  type PlaygroundState,
  type PromptPreview,
  type SessionInfo,
  type TraceStatus,
} from '../../protocol/playground';
import type { ParamsOf } from '../../protocol/messages';
import { RequestError } from '../../protocol/router';
import type { PanelApp, PanelContext, PanelServices } from '../panels';
import type { WebviewHost } from '../webviewHost';
import { isSignedIn } from '../../auth/connection';

/** Where the history wrapper puts the earlier turns and the new message among the prompt's values. */
const FOLLOW_UP = { historyKey: 'chat_history', inputKey: 'follow_up' } as const;
const MAX_TURNS = 200;

function fileUri(key: PlaygroundKey): vscode.Uri | undefined {
  return key.kind === 'file' ? editablePromptFileUri(key.uri) : undefined;
}

function keyId(key: PlaygroundKey): string {
  return key.kind === 'file' ? `file:${key.uri}` : `commit:${key.identifier}@${key.commit}`;
}

function titleOf(key: PlaygroundKey): string {
  return key.kind === 'file' ? path.posix.basename(fileUri(key)?.path ?? 'prompt') : `${key.identifier}@${key.commit.slice(0, 8)}`;
}

interface Remembered {
  values?: Record<string, string>;
  model?: ModelSettings;
  session?: SessionInfo;
}

interface LoadedPrompt {
  file: PromptFile | null;
  problem: string | null;
}

/** The prompt's own model settings (`model:` of a file, the model node of a commit). */
function promptModelSettings(file: PromptFile | null): Partial<ModelSettings> & { model?: string } {
  const s = file?.model?.settings;
  if (!s) return {};
  const name = typeof s['model'] === 'string' ? s['model'] : typeof s['model_name'] === 'string' ? s['model_name'] : undefined;
  const temperature = typeof s['temperature'] === 'number' && s['temperature'] >= 0 && s['temperature'] <= 2 ? s['temperature'] : undefined;
  const max = s['max_tokens'] ?? s['max_completion_tokens'];
  const maxTokens = typeof max === 'number' && Number.isInteger(max) && max >= 1 ? max : undefined;
  return { ...(name ? { model: name } : {}), ...(temperature !== undefined ? { temperature } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) };
}

function preview(file: PromptFile, variables: string[]): PromptPreview {
  const messages =
    file.body.kind === 'string'
      ? [{ role: 'prompt', template: file.body.template }]
      : file.body.messages.map((m) =>
          m.kind === 'placeholder'
            ? { role: 'placeholder', template: `{${m.name}}${m.optional ? ' (optional)' : ''}` }
            : { role: m.role, template: typeof m.template === 'string' ? m.template : m.template.map((p) => (p.type === 'text' ? p.text : '[content part]')).join('\n') },
        );
  return { kind: file.body.kind, templateFormat: file.templateFormat, variables, messages };
}

/** Placeholders take a list of messages: the page sends text, JSON here. Empty optional ones are left out. */
function placeholderNames(file: PromptFile): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (file.body.kind === 'chat') for (const m of file.body.messages) if (m.kind === 'placeholder') out.set(m.name, m.optional);
  return out;
}

function inputValues(file: PromptFile, raw: Record<string, string>): Record<string, unknown> {
  const placeholders = placeholderNames(file);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!placeholders.has(name)) {
      values[name] = value;
      continue;
    }
    if (!value.trim()) {
      if (placeholders.get(name)) continue;
      values[name] = [];
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new RequestError('invalidParams', vscode.l10n.t('{0} is a placeholder for messages: give a JSON list such as {1}.', name, '[{"role": "human", "content": "Hi"}]'));
    }
    if (!Array.isArray(parsed) || !parsed.every((m) => m && typeof m === 'object' && typeof m.role === 'string' && typeof m.content === 'string')) {
      throw new RequestError('invalidParams', vscode.l10n.t('{0} must be a JSON list of {1} messages.', name, '{"role", "content"}'));
    }
    values[name] = parsed;
  }
  return values;
}

/** What went wrong with a run, and what to do about it. */
function describeRunError(e: unknown, endpoint: ModelEndpoint): { error: string; hint: string | null } {
  const message = e instanceof Error ? e.message : String(e);
  const status = (e as { status?: unknown })?.status;
  const name = e instanceof Error ? e.name : '';
  let hint: string | null = null;
  if (status === 401 || status === 403) hint = vscode.l10n.t('The model endpoint refused the key. Set its key with Configure… (LangSmith: Configure Playground Model).');
  else if (status === 429) hint = vscode.l10n.t('The endpoint is rate limiting (or out of quota). Wait a moment and run again.');
  else if (status === 404) hint = vscode.l10n.t('Check the endpoint URL (the API root, such as {0}; now {1}) and the model name.', 'https://api.openai.com/v1', endpoint.url ?? vscode.l10n.t('none'));
  else if (status === 400 || status === 422) hint = vscode.l10n.t('The endpoint refused the request: check the model name and settings.');
  else if (typeof status === 'number' && status >= 500) hint = vscode.l10n.t('The endpoint failed; try again in a moment.');
  else if (name === 'LangSmithTimeoutError') hint = endpoint.url ? vscode.l10n.t('{0} did not answer in time. Is it running?', endpoint.url) : vscode.l10n.t('The endpoint did not answer in time. Is it running?');
  else if (status === undefined && name === 'LangSmithError') hint = vscode.l10n.t('Is {0} running and reachable? Change it with Configure….', endpoint.url ?? vscode.l10n.t('the endpoint'));
  return { error: message.slice(0, 2000), hint };
}

export const playgroundApp: PanelApp<PlaygroundKey, typeof PlaygroundReady.result.shape.state> = {
  ready: PlaygroundReady,
  parseKey(raw) {
    const key = PlaygroundKey.safeParse(raw);
    if (!key.success) return undefined;
    return key.data.kind === 'commit' || fileUri(key.data) ? key.data : undefined;
  },
  keyId,
  title: (key) => vscode.l10n.t('Run · {0}', titleOf(key)),

  open(context) {
    const session = new PlaygroundSession(context);
    const { router } = context.host;
    router.onRequest(RunPrompt, (params, { signal }) => session.run(params, signal));
    router.onRequest(StopRun, async ({ runId }) => ({ stopped: session.stop(runId) }));
    router.onRequest(ResetSession, () => session.resetSession());
    router.onRequest(RevealTrace, ({ runId }) => session.revealTrace(runId));
    router.onRequest(ConfigureModel, () => session.configureModel());
    router.onRequest(FlushTraces, () => session.flushTraces());
    router.onRequest(OpenSource, () => session.openSource());
    return { state: (signal) => session.state(signal), dispose: () => session.dispose() };
  },
};

/** The runs' traces, one manual-flush queue per project (a project setting changed mid-way keeps the older queue until it is sent). */
class PlaygroundTraces {
  private readonly tracers = new Map<string, { tracer: Tracer; pendingRuns: Set<string> }>();
  /** The run → project it was traced to (for Show trace). */
  private readonly tracedTo = new Map<string, string>();

  constructor(private readonly services: PanelServices) {}

  /** The queue for the project; none when signed out or it cannot be made (the run still goes, untraced). */
  async queueFor(project: string): Promise<Tracer | undefined> {
    const traced = this.tracers.get(project);
    if (traced) return traced.tracer;
    const tracer = await this.newTracer(project).catch(() => undefined);
    if (tracer) this.tracers.set(project, { tracer, pendingRuns: new Set() });
    return tracer;
  }

  private async newTracer(project: string): Promise<Tracer | undefined> {
    try {
      return await this.services.clients.createTracer({ manualFlush: true, projectName: project });
    } catch (e) {
      if (e instanceof NotSignedInError) return undefined;
      throw e;
    }
  }

  /** Records that the run went to the project's queue, to be sent with the next flush. */
  ended(runId: string, project: string): void {
    this.tracers.get(project)?.pendingRuns.add(runId);
    this.tracedTo.set(runId, project);
  }

  projectOf(runId: string): string | undefined {
    return this.tracedTo.get(runId);
  }

  pendingCount(): number {
    let n = 0;
    for (const t of this.tracers.values()) n += t.pendingRuns.size;
    return n;
  }

  /** Sends every queued trace; what it says goes to the page. */
  async flush(): Promise<TraceStatus> {
    let failure: string | null = null;
    for (const [project, t] of this.tracers) {
      if (t.pendingRuns.size === 0) continue;
      try {
        await t.tracer.flush();
        t.pendingRuns.clear();
        // The project shows its new runs (and is listed, when the first run made it).
        this.services.changes.publish({ kind: 'project', name: project });
      } catch (e) {
        failure = vscode.l10n.t('Traces to {0} not sent ({1}); kept for the next run or Send now.', project, e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e));
        this.services.log.warn(`Playground: ${failure}`);
      }
    }
    return { status: failure ? 'failed' : 'sent', message: failure, pending: this.pendingCount() };
  }

  /** Runs of a closed panel still reach LangSmith. */
  async flushOnClose(): Promise<void> {
    for (const [project, t] of this.tracers) {
      if (t.tracer.pendingCount === 0) continue;
      try {
        await t.tracer.flush();
        this.services.changes.publish({ kind: 'project', name: project });
      } catch (e) {
        this.services.log.warn(`Playground closed with ${t.pendingRuns.size} run(s) not traced to ${project}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}

/** One playground panel: its prompt, its runs in flight and finished, its chat session and its traces. */
class PlaygroundSession {
  private readonly host: WebviewHost;
  private readonly key: PlaygroundKey;
  private readonly services: PanelServices;
  private readonly uri: vscode.Uri | undefined;
  private readonly memory: string;
  private readonly running = new Map<string, AbortController>();
  private readonly traces: PlaygroundTraces;
  /** The latest runs' ends, newest first, for a page that was hidden when they ended. */
  private readonly finished: FinishedRun[] = [];
  private session: SessionInfo;
  private histories: InMemoryHistoryStore | undefined;
  /** A commit does not change: read once. */
  private commitPrompt: LoadedPrompt | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor({ host, key, services }: PanelContext<PlaygroundKey>) {
    this.host = host;
    this.key = key;
    this.services = services;
    this.uri = fileUri(key);
    this.memory = `playground:${keyId(key)}`;
    this.traces = new PlaygroundTraces(services);
    this.session = this.remembered().session ?? { id: randomUUID(), turns: [] };
    // Follow the file while it is edited, and the settings and sign-in.
    const later = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.pushState(), 250);
    };
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.uri && e.document.uri.toString() === this.uri.toString()) later();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('langsmith.playground')) later();
      }),
      services.onDidChangeConnection(later),
      services.secrets.onDidChange((e) => {
        if (e.key.startsWith('langsmith.modelApiKey:')) later();
      }),
    ];
  }

  private remembered(): Remembered {
    return this.services.workspaceState.get<Remembered>(this.memory) ?? {};
  }

  private remember(patch: Remembered): Thenable<void> {
    return this.services.workspaceState.update(this.memory, { ...this.remembered(), ...patch });
  }

  private async historyStore(): Promise<InMemoryHistoryStore> {
    if (!this.histories) {
      const api = await this.services.clients.api();
      this.histories = new api.InMemoryHistoryStore();
      this.histories.get(this.session.id).addMessages(this.session.turns);
    }
    return this.histories;
  }

  private async loadPrompt(signal: AbortSignal): Promise<LoadedPrompt> {
    const key = this.key;
    if (key.kind === 'file') {
      const doc = await vscode.workspace.openTextDocument(this.uri!);
      const parsed = await parsePromptDocument(doc);
      if (parsed.file && !parsed.problems.some((p) => p.severity === 'error')) return { file: parsed.file, problem: null };
      const first = parsed.problems.find((p) => p.severity === 'error');
      const where = first ? doc.positionAt(Math.min(first.offset, doc.getText().length)) : undefined;
      return {
        file: null,
        problem: first
          ? vscode.l10n.t('Fix the problems in {0} to run it: {1} (line {2})', titleOf(key), first.message, (where?.line ?? 0) + 1)
          : vscode.l10n.t('Fix the problems in {0} to run it.', titleOf(key)),
      };
    }
    if (this.commitPrompt?.file) return this.commitPrompt;
    try {
      const [pulled, format] = await Promise.all([this.services.clients.call((c) => c.prompts.pull(`${key.identifier}:${key.commit}`, { includeModel: true, signal })), promptFormat()]);
      this.commitPrompt = { file: format.fromManifest(pulled.manifest, { identifier: key.identifier }), problem: null };
    } catch (e) {
      if (signal.aborted) throw e;
      this.commitPrompt = { file: null, problem: vscode.l10n.t('Could not read {0}: {1}', titleOf(key), e instanceof Error ? e.message : String(e)) };
    }
    return this.commitPrompt;
  }

  private async templateOf(file: PromptFile): Promise<PromptTemplate> {
    const [api, format] = await Promise.all([this.services.clients.api(), promptFormat()]);
    return api.PromptTemplate.fromManifest(format.toManifest(file), { followUp: FOLLOW_UP });
  }

  async state(signal: AbortSignal): Promise<PlaygroundState> {
    const [loaded, connection] = await Promise.all([this.loadPrompt(signal), this.services.clients.connection.current()]);
    const endpoint = await resolveModelEndpoint(this.services.secrets, connection);
    let prompt: PromptPreview | null = null;
    let problem = loaded.problem;
    if (loaded.file) {
      try {
        const template = await this.templateOf(loaded.file);
        prompt = preview(loaded.file, template.inputVariables);
      } catch (e) {
        problem = e instanceof Error ? e.message : String(e);
      }
    }
    const own = promptModelSettings(loaded.file);
    const mem = this.remembered();
    const model: ModelSettings = mem.model ?? { model: own.model ?? endpoint.defaultModel, temperature: own.temperature ?? null, maxTokens: own.maxTokens ?? null };
    return {
      title: titleOf(this.key),
      source: this.key.kind,
      prompt,
      problem: problem ? problem.slice(0, 2000) : null,
      values: mem.values ?? {},
      model,
      promptModel: own.model ?? null,
      promptSettings: { temperature: own.temperature ?? null, maxTokens: own.maxTokens && own.maxTokens <= 1_000_000 ? own.maxTokens : null },
      endpoint: { url: endpoint.url, source: endpoint.source, hasKey: !!endpoint.apiKey },
      project: playgroundProject(),
      tracing: isSignedIn(connection),
      session: this.session,
      pendingTraces: this.traces.pendingCount(),
      running: [...this.running.keys()],
      finished: [...this.finished],
    };
  }

  private pushState(): void {
    this.state(this.host.signal).then(
      (s) => this.host.notify(PlaygroundChanged, s),
      (e: unknown) => this.services.log.warn(`Playground: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  /** Starts a run: everything is checked first (the answer to the page is the run's id); it streams and ends on its own. */
  async run(params: ParamsOf<typeof RunPrompt>, signal: AbortSignal): Promise<{ runId: string }> {
    const { host, key, services } = this;
    const loaded = await this.loadPrompt(signal);
    if (!loaded.file) throw new RequestError('invalidParams', loaded.problem ?? vscode.l10n.t('The prompt cannot be read.'));
    const file = loaded.file;
    const api = await services.clients.api();
    const template = await this.templateOf(file);
    const values = inputValues(file, params.values);
    const store = await this.historyStore();
    const session = this.session;
    const followUp = params.chat && params.followUp?.trim() ? params.followUp : null;
    // Checked before any call: a missing f-string value gives the spec's message, and nothing is traced.
    try {
      template.format({ ...values, ...(params.chat ? { [FOLLOW_UP.historyKey]: store.get(session.id).getMessages(), [FOLLOW_UP.inputKey]: followUp } : {}) });
    } catch (e) {
      throw new RequestError('invalidParams', e instanceof Error ? e.message : String(e));
    }
    const connection = await services.clients.connection.current();
    const endpoint = await resolveModelEndpoint(services.secrets, connection);
    if (!endpoint.url) throw new RequestError('invalidParams', vscode.l10n.t('No model endpoint is set: choose Configure… to set an OpenAI-compatible endpoint (OpenAI, Azure OpenAI, Ollama, vLLM).'));
    const modelName = params.model.model.trim() || endpoint.defaultModel;
    let model;
    try {
      model = new api.OpenAIChatModel({
        baseUrl: endpoint.url,
        apiKey: endpoint.apiKey,
        model: modelName,
        temperature: params.model.temperature ?? undefined,
        maxTokens: params.model.maxTokens ?? undefined,
        timeoutMs: 60_000,
        maxRetries: 2,
        fetch: await services.clients.networkFetch(),
      });
    } catch (e) {
      throw new RequestError('invalidParams', e instanceof Error ? e.message : String(e));
    }
    await this.remember({ values: params.values, model: params.model });

    const project = playgroundProject();
    const tracer = await this.traces.queueFor(project);
    const runId = api.uuid7();
    const ctl = new AbortController();
    this.running.set(runId, ctl);
    const chain = template.pipe(model).pipe(new api.StringOutputParser());
    const runnable = params.chat
      ? new api.RunnableWithMessageHistory(chain, { getMessageHistory: (id) => store.get(id), inputMessagesKey: FOLLOW_UP.inputKey, historyMessagesKey: FOLLOW_UP.historyKey })
      : chain;
    const source = key.kind === 'file' ? { prompt_file: titleOf(key) } : { prompt: key.identifier, commit: key.commit };
    let usage: { input: number; output: number; total: number } | null = null;
    const config = {
      runId,
      runName: 'Playground',
      tags: ['playground'],
      metadata: { ...source, ls_model_name: modelName, ...(params.chat ? { session_id: session.id } : {}) },
      signal: ctl.signal,
      configurable: { sessionId: session.id },
      ...(tracer ? { tracer } : {}),
      onStepEnd: (step: { runType: string; output: unknown }) => {
        const u = (step.output as { usage?: { input_tokens: number; output_tokens: number; total_tokens: number } } | undefined)?.usage;
        if (step.runType === 'llm' && u) usage = { input: u.input_tokens, output: u.output_tokens, total: u.total_tokens };
      },
    };
    const input = { ...values, ...(params.chat ? { [FOLLOW_UP.inputKey]: followUp } : {}) };
    const onPanelClosed = () => ctl.abort(new Error(vscode.l10n.t('The panel was closed.')));
    host.signal.addEventListener('abort', onPanelClosed, { once: true });

    const started = Date.now();
    void (async () => {
      let answer = '';
      let outcome: 'done' | 'error' | 'stopped' = 'done';
      let error: string | null = null;
      let hint: string | null = null;
      try {
        for await (const piece of runnable.stream(input, config)) {
          answer += piece;
          void host.notify(RunDelta, { runId, text: piece });
        }
      } catch (e) {
        if (ctl.signal.aborted) outcome = 'stopped';
        else {
          outcome = 'error';
          ({ error, hint } = describeRunError(e, endpoint));
          services.log.warn(`Playground run of ${titleOf(key)} with ${modelName} failed: ${error}`);
        }
      } finally {
        this.running.delete(runId);
        host.signal.removeEventListener('abort', onPanelClosed);
      }
      if (params.chat) {
        // The session as it is now (New session may have started one while the run went).
        const turns: ChatTurn[] = store
          .get(this.session.id)
          .getMessages()
          .filter((m: Message): m is Message & { role: 'human' | 'ai' } => m.role === 'human' || m.role === 'ai')
          .slice(-MAX_TURNS);
        this.session = { id: this.session.id, turns };
        await this.remember({ session: this.session });
      }
      let trace: TraceStatus = { status: 'off', message: null, pending: this.traces.pendingCount() };
      if (tracer) {
        this.traces.ended(runId, project);
        trace = await this.traces.flush();
      }
      if (host.signal.aborted) return;
      const end: FinishedRun = { runId, outcome, answer, usage, error, hint, trace, session: this.session, latencyMs: Date.now() - started };
      this.finished.unshift(end);
      this.finished.splice(10);
      void host.notify(RunFinished, end);
    })();
    return { runId };
  }

  stop(runId: string): boolean {
    const ctl = this.running.get(runId);
    ctl?.abort(new Error(vscode.l10n.t('Stopped.')));
    return !!ctl;
  }

  async resetSession(): Promise<SessionInfo> {
    this.histories?.delete(this.session.id);
    this.session = { id: randomUUID(), turns: [] };
    await this.remember({ session: this.session });
    return this.session;
  }

  async revealTrace(runId: string): Promise<Record<string, never>> {
    const project = this.traces.projectOf(runId);
    if (!project) throw new RequestError('invalidParams', vscode.l10n.t('That run was not traced.'));
    // A playground run is the root of its trace.
    await vscode.commands.executeCommand(Commands.openTrace, { runId, traceId: runId, projectName: project });
    return {};
  }

  async configureModel(): Promise<Record<string, never>> {
    await vscode.commands.executeCommand(Commands.configureModel);
    this.pushState();
    return {};
  }

  async flushTraces(): Promise<{ pending: number }> {
    const status = await this.traces.flush();
    if (status.status === 'failed') throw new RequestError('requestFailed', status.message ?? vscode.l10n.t('The traces were not sent.'));
    return { pending: status.pending };
  }

  async openSource(): Promise<Record<string, never>> {
    if (!this.uri) throw new RequestError('invalidParams', vscode.l10n.t('This prompt is a commit, not a file.'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(this.uri), { viewColumn: vscode.ViewColumn.One });
    return {};
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const ctl of this.running.values()) ctl.abort(new Error(vscode.l10n.t('The panel was closed.')));
    for (const s of this.subscriptions) s.dispose();
    void this.traces.flushOnClose();
  }
}
