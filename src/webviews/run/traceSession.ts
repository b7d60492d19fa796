// One trace's reading for a panel: its runs in one request, a run read whole when selected, long values cut for the
// page (payload.ts) with the rest on "Show all", finding in the trace, feedback and the header's actions. The trace
// panel shows one; the review panel keeps one per item.
import * as vscode from 'vscode';
import type { Feedback, Run } from '../../client';
import { LangSmithNotFoundError } from '../../client/errors';
import { Commands } from '../../constants';
import { RequestError } from '../../protocol/router';
import {
  TraceKey,
  type Attachment,
  type FeedbackItem,
  type ProjectRef,
  type RunDetail,
  type TraceAction,
  type TraceState,
} from '../../protocol/trace';
import type { PanelClients } from '../panels';
import { problemOf } from '../reported';
import { cutPayload, valueAt, valueText } from './payload';
import { epochMs, headerOf, rootOf, slimRows, threadIdOf, threadTotals, toRow, toTurn } from './rows';


/** Whole values up to this many characters go to the page on "Show all"; larger ones open in an editor. */
const SHOW_ALL_MAX = 2_000_000;
/** Runs read whole that are kept for "Show all" and for reselecting. */
const RUNS_KEPT = 8;
/** Turns a thread panel shows (the latest). */
const MAX_TURNS = 200;

export function feedbackItem(f: Feedback): FeedbackItem {
  const source = f.feedback_source && typeof f.feedback_source === 'object' ? (f.feedback_source as { type?: unknown }).type : undefined;
  return {
    id: f.id,
    key: f.key.slice(0, 2000),
    score: typeof f.score === 'boolean' ? Number(f.score) : (f.score ?? null),
    value: f.value ?? null,
    comment: typeof f.comment === 'string' ? f.comment.slice(0, 2000) : null,
    source: typeof source === 'string' ? source : null,
    createdAt: epochMs(f.created_at),
  };
}

/**
 * A run's attachments that the page may load (http(s) links only): v2's `attachments` (name → link) or v1's
 * `s3_urls` (`attachment.<name>` → `{presigned_url, mime_type}`).
 */
function attachmentsOf(run: Run): Attachment[] {
  const r = run as Record<string, unknown>;
  const out: Attachment[] = [];
  for (const [raw, v1] of [[r['attachments'], false], [r['s3_urls'], true]] as const) {
    if (!raw || typeof raw !== 'object') continue;
    out.push(...attachmentLinks(raw as Record<string, unknown>, v1));
  }
  const seen = new Set<string>();
  return out.filter((a) => !seen.has(a.name) && !!seen.add(a.name));
}

/** The links of one map; v1's also holds the payloads' own blobs, whose keys are not `attachment.<name>`. */
function attachmentLinks(raw: Record<string, unknown>, v1: boolean): Attachment[] {
  const out: Attachment[] = [];
  for (const [key, v] of Object.entries(raw)) {
    if (v1 && !key.startsWith('attachment.')) continue;
    const name = v1 ? key.slice('attachment.'.length) : key;
    const url = typeof v === 'string' ? v : v && typeof v === 'object' ? ((v as Record<string, unknown>)['presigned_url'] ?? (v as Record<string, unknown>)['url']) : undefined;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) continue;
    const mime = v && typeof v === 'object' ? (v as Record<string, unknown>)['mime_type'] : undefined;
    out.push({ name: name.slice(0, 2000), url, mimeType: typeof mime === 'string' ? mime : mimeFromName(name) });
  }
  return out;
}

function mimeFromName(name: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  const known: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf', txt: 'text/plain' };
  return ext ? (known[ext] ?? null) : null;
}

function metadataOf(run: Run): Record<string, unknown> | null {
  const extra = run.extra;
  if (!extra || typeof extra !== 'object') return null;
  const meta = (extra as { metadata?: unknown }).metadata;
  return meta && typeof meta === 'object' ? (meta as Record<string, unknown>) : null;
}

function invocationParamsOf(run: Run): Record<string, unknown> | null {
  const extra = run.extra;
  if (!extra || typeof extra !== 'object') return null;
  const params = (extra as { invocation_params?: unknown }).invocation_params;
  return params && typeof params === 'object' ? (params as Record<string, unknown>) : null;
}

function modelOf(run: Run): string | null {
  const meta = metadataOf(run);
  const params = invocationParamsOf(run);
  const model = meta?.['ls_model_name'] ?? params?.['model'] ?? params?.['model_name'];
  const provider = meta?.['ls_provider'];
  if (typeof model !== 'string' || !model) return null;
  return typeof provider === 'string' && provider ? `${model} (${provider})` : model;
}

/** One trace's reading (its runs, a run whole, long values): the trace panel's, and the review panel's per item. */
export class TraceSession {
  /** The trace's project and its name, once found. */
  private project: ProjectRef | null = null;
  private traceId: string | undefined;
  private rootRunId: string | undefined;
  private shareUrl: string | null = null;
  /** Most recently read last. */
  private readonly runs = new Map<string, Run>();
  /** The ids of the trace's runs, once read. */
  private readonly runIds = new Set<string>();

  constructor(
    private readonly clients: PanelClients,
    private readonly key: TraceKey,
    /** `runs`: the runs only, not the header's project name and public link (a panel that shows neither). */
    private readonly read: 'full' | 'runs' = 'full',
  ) {
    if (key.kind === 'trace') this.traceId = key.traceId;
  }

  async state(signal: AbortSignal): Promise<TraceState> {
    try {
      if (this.key.kind === 'thread') return { kind: 'thread', thread: await this.thread(this.key.threadId, this.key.projectId, signal) };
      const trace = this.key.kind === 'shared' ? await this.sharedTrace(this.key.token, signal) : await this.trace(this.key.traceId, signal);
      return { kind: 'trace', trace, selectedRunId: this.key.runId ?? trace.header.rootRunId };
    } catch (err) {
      if (signal.aborted) throw err;
      const what = this.key.kind === 'thread' ? vscode.l10n.t('The thread “{0}” was not found in its project.', this.key.threadId) : vscode.l10n.t('This trace was not found. It may have been deleted, or belong to another workspace.');
      return { kind: 'problem', problem: problemOf(err, (detail) => `${what} (${detail})`) };
    }
  }

  private async trace(traceId: string, signal: AbortSignal) {
    const key = this.key as Extract<TraceKey, { kind: 'trace' }>;
    const read = await this.clients.call((c) => c.traces.runs(traceId, { projectId: this.project?.id ?? key.projectId, signal }));
    if (!read.runs.length) throw new LangSmithNotFoundError(vscode.l10n.t('Trace {0} has no runs.', traceId), { action: 'read trace' });
    const root = rootOf(read.runs, traceId)!;
    const rows = read.runs.map(toRow);
    this.rootRunId = root.id;
    for (const r of read.runs) this.runIds.add(r.id);
    let requests = read.requests;
    const projectId = root.session_id ?? key.projectId;
    if (this.read === 'full' && projectId && this.project?.id !== projectId) {
      requests++;
      const project = await this.clients.call((c) => c.projects.read({ projectId, signal }));
      this.project = { id: project.id, name: String(project.name ?? project.id) };
    }
    if (this.read === 'full' && this.shareUrl === null) {
      requests++;
      this.shareUrl = (await this.clients.call((c) => c.runs.readShareLink(root.id, { signal }))) ?? null;
    }
    return {
      header: headerOf(root, rows, { traceId, project: this.project, shareUrl: this.shareUrl, readOnly: false }),
      runs: slimRows(rows),
      source: read.source,
      requests,
    };
  }

  private async sharedTrace(token: string, signal: AbortSignal) {
    const runs = await this.clients.call((c) => c.public.listRuns(token, { signal }));
    if (!runs.length) throw new LangSmithNotFoundError(vscode.l10n.t('Nothing is shared with this link.'), { action: 'read shared trace' });
    for (const run of runs) this.keep(run);
    const traceId = runs.find((r) => r.trace_id)?.trace_id ?? runs[0]!.id;
    this.traceId = traceId;
    const root = rootOf(runs, traceId)!;
    this.rootRunId = root.id;
    const rows = runs.map(toRow);
    const shareUrl = await this.clients.call(async (c) => `${c.webUrl}/public/${token}/r`);
    return { header: headerOf(root, rows, { traceId, project: null, shareUrl, readOnly: true }), runs: slimRows(rows), source: 'public' as const, requests: 1 };
  }

  private async thread(threadId: string, projectId: string, signal: AbortSignal) {
    const [turns, stats, project] = await Promise.all([
      this.clients.call((c) => c.threads.turns(threadId, { projectId, limit: MAX_TURNS, signal })),
      this.clients.call((c) => c.threads.stats(threadId, { projectId, signal })),
      this.clients.call((c) => c.projects.read({ projectId, signal })),
    ]);
    if (!turns.length) throw new LangSmithNotFoundError(vscode.l10n.t('The thread has no turns.'), { action: 'read thread' });
    const shown = turns.slice(-MAX_TURNS).map(toTurn);
    const totals = threadTotals(stats);
    return {
      threadId,
      project: { id: project.id, name: String(project.name ?? project.id) },
      turns: shown,
      moreTurns: Math.max(0, totals.turns - shown.length),
      totals,
    };
  }

  /** Whether the run is part of the trace read. */
  has(runId: string): boolean {
    return this.runIds.has(runId) || this.runs.has(runId);
  }

  /** A run read elsewhere (whole), so it is not read again. */
  remember(run: Run): void {
    this.keep(run);
  }

  private keep(run: Run): void {
    this.runs.delete(run.id);
    this.runs.set(run.id, run);
    while (this.runs.size > RUNS_KEPT) this.runs.delete(this.runs.keys().next().value!);
  }

  /** The run whole (cached), read from the shared trace or the workspace. */
  private async run(runId: string, signal: AbortSignal, fresh = false): Promise<Run> {
    const kept = this.runs.get(runId);
    if (kept && (!fresh || this.key.kind === 'shared')) return kept;
    if (this.key.kind === 'shared') throw new LangSmithNotFoundError(vscode.l10n.t('Run {0} is not part of this shared trace.', runId), { action: 'read shared run' });
    const run = await this.clients.call((c) => c.runs.read(runId, { projectId: this.project?.id, attachments: true, signal }));
    this.keep(run);
    return run;
  }

  async readRun(runId: string, signal: AbortSignal): Promise<RunDetail> {
    // A running run changes: read it again unless it has ended.
    const kept = this.runs.get(runId);
    const run = await this.run(runId, signal, !kept || kept.end_time == null);
    const feedback =
      this.key.kind === 'shared' ? [] : await this.clients.call(async (c) => {
        const out: FeedbackItem[] = [];
        for await (const f of c.feedback.list({ runIds: [runId], limit: 200, signal })) out.push(feedbackItem(f));
        return out;
      });
    const meta = metadataOf(run);
    const params = invocationParamsOf(run);
    return {
      id: run.id,
      inputs: run.inputs == null ? null : cutPayload(run.inputs),
      outputs: run.outputs == null ? null : cutPayload(run.outputs),
      error: typeof run.error === 'string' && run.error ? run.error.slice(0, 100_000) : null,
      tags: (run.tags ?? []).map((t) => String(t).slice(0, 2000)),
      metadata: meta ? cutPayload(meta) : null,
      model: modelOf(run),
      invocationParams: params ? cutPayload(params) : null,
      attachments: attachmentsOf(run),
      feedback,
      inDataset: !!(run as Record<string, unknown>)['in_dataset'],
    };
  }

  async showAll(runId: string, part: 'inputs' | 'outputs' | 'metadata' | 'invocationParams', path: (string | number)[], signal: AbortSignal) {
    const run = await this.run(runId, signal);
    const whole = part === 'metadata' ? metadataOf(run) : part === 'invocationParams' ? invocationParamsOf(run) : run[part];
    const value = valueAt(whole, path);
    if (value === undefined) throw new RequestError('requestFailed', vscode.l10n.t('That value is no longer in the run.'));
    const text = valueText(value);
    if (text.length <= SHOW_ALL_MAX) return { text, opened: false };
    // Too large for the page: an editor handles megabytes (read-only text the user may save if they like).
    const doc = await vscode.workspace.openTextDocument({ content: text, language: typeof value === 'string' ? 'plaintext' : 'json' });
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    return { text: null, opened: true };
  }

  async find(text: string, signal: AbortSignal): Promise<string[]> {
    if (this.key.kind === 'shared') {
      // A shared trace's runs are all here already: look in them.
      const needle = text.toLowerCase();
      return [...this.runs.values()]
        .filter((r) => [r.name, JSON.stringify(r.inputs ?? ''), JSON.stringify(r.outputs ?? ''), r.error ?? ''].some((s) => String(s).toLowerCase().includes(needle)))
        .map((r) => r.id);
    }
    const traceId = this.traceId;
    if (!traceId) return [];
    return this.clients.call((c) => c.traces.find(traceId, text, { projectId: this.project?.id, signal }));
  }

  async addFeedback(p: { runId: string; key: string; score: number | null; value: string | null; comment: string | null }, signal: AbortSignal): Promise<FeedbackItem> {
    if (this.key.kind === 'shared') throw new RequestError('requestFailed', vscode.l10n.t('Feedback cannot be added to a trace shared by link.'));
    const key = p.key.trim();
    if (!key) throw new RequestError('invalidParams', vscode.l10n.t('Give the feedback a key, such as “correctness”.'));
    if (p.score === null && p.value === null && !p.comment) throw new RequestError('invalidParams', vscode.l10n.t('Give a score, a value or a comment.'));
    const created = await this.clients.call((c) =>
      c.feedback.create({ runId: p.runId, key, score: p.score ?? undefined, value: p.value ?? undefined, comment: p.comment ?? undefined, feedbackSourceType: 'api', signal }),
    );
    return feedbackItem(created);
  }

  async act(action: TraceAction, runId: string, signal: AbortSignal): Promise<{ message: string | null; shareUrl?: string | null }> {
    const root = this.rootRunId ?? runId;
    switch (action) {
      case 'copyId':
        await vscode.env.clipboard.writeText(runId);
        return { message: vscode.l10n.t('Copied {0}', runId) };
      case 'copyPublicLink': {
        const url = this.shareUrl ?? (await this.clients.call((c) => c.runs.readShareLink(root, { signal }))) ?? null;
        if (!url) throw new RequestError('requestFailed', vscode.l10n.t('This trace is not shared. Share it first.'));
        await vscode.env.clipboard.writeText(url);
        return { message: vscode.l10n.t('Copied the public link.'), shareUrl: url };
      }
      case 'share': {
        const url = await this.clients.call((c) => c.runs.share(root, { signal }));
        this.shareUrl = url;
        await vscode.env.clipboard.writeText(url);
        return { message: vscode.l10n.t('Anyone with the link can now see this trace. The link is on the clipboard.'), shareUrl: url };
      }
      case 'unshare':
        await this.clients.call((c) => c.runs.unshare(root, { signal }));
        this.shareUrl = null;
        return { message: vscode.l10n.t('The public link no longer works.'), shareUrl: null };
      case 'openInLangSmith': {
        const run = await this.run(runId, signal);
        const projectId = run.session_id ?? this.project?.id;
        if (!projectId) throw new RequestError('requestFailed', vscode.l10n.t('This run does not name its project, so it has no page link.'));
        const url = await this.clients.call(async (c) => `${await c.links.project({ projectId, signal })}?peek=${encodeURIComponent(runId)}`);
        await vscode.env.openExternal(vscode.Uri.parse(url));
        return { message: null };
      }
      case 'openRawJson':
        await vscode.commands.executeCommand(Commands.openRun, { runId, projectId: this.project?.id });
        return { message: null };
      case 'addToQueue':
        await vscode.commands.executeCommand(Commands.addRunsToQueue, { runIds: [runId] });
        return { message: null };
      case 'addToDataset':
        await vscode.commands.executeCommand(Commands.addRunToDataset, { runId, projectId: this.project?.id });
        return { message: null };
      case 'openInPlayground':
        await vscode.commands.executeCommand(Commands.openRunInPlayground, { runId, projectId: this.project?.id });
        return { message: null };
      case 'openProject':
        if (this.project) await vscode.commands.executeCommand(Commands.revealRun, { runId: root, projectName: this.project.name });
        return { message: null };
      case 'openThread': {
        const run = await this.run(root, signal);
        const threadId = threadIdOf(run);
        const projectId = run.session_id ?? this.project?.id;
        if (!threadId || !projectId) throw new RequestError('requestFailed', vscode.l10n.t('This trace is not part of a thread.'));
        await vscode.commands.executeCommand(Commands.openThread, { threadId, projectId });
        return { message: null };
      }
      case 'openTrace': {
        const projectId = this.key.kind === 'thread' ? this.key.projectId : this.project?.id;
        await vscode.commands.executeCommand(Commands.openTrace, { runId, projectId });
        return { message: null };
      }
    }
  }
}
