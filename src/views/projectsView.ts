// Projects → root runs (newest first, paged) → child runs.
import * as vscode from 'vscode';
import type { Project, Run } from '../client';
import { Commands } from '../constants';
import { askedText, escapeMarkdown, fitDescription, formatAgo, formatCount, formatLatency, formatWhen, summarize } from '../text/format';
import { markdownLines } from './markdown';
import { PagedParentNode, TreeNode, type ViewContext } from './treeNode';

const PAGE = 50;
/** Run types whose runs are usually leaves; others may have child runs. */
const LEAF_TYPES = new Set(['llm', 'embedding', 'retriever', 'prompt', 'parser']);
const RUN_ICONS: Record<string, string> = {
  llm: 'sparkle',
  chain: 'link',
  tool: 'tools',
  retriever: 'search',
  prompt: 'note',
  parser: 'symbol-structure',
  embedding: 'symbol-array',
};

export interface ProjectFilters {
  nameContains?: string;
  errorsOnly: boolean;
}

export class ProjectsRoot extends PagedParentNode<Project> {
  readonly filters: ProjectFilters = { errorsOnly: false };

  constructor(view: ViewContext) {
    super('projects', undefined, PAGE, view);
    this.hidden = true;
  }

  treeItem(): vscode.TreeItem {
    return new vscode.TreeItem(vscode.l10n.t('Projects'));
  }

  protected async openList(): Promise<AsyncIterator<Project>> {
    const client = await this.view.clients.client();
    // Each page with its figures (one request), and the names of the datasets its experiments ran on (one more).
    const projects = client.projects.list({ nameContains: this.filters.nameContains || undefined, pageSize: PAGE, includeStats: true });
    const datasetNames = this.datasetNames;
    return (async function* () {
      let page: Project[] = [];
      const flush = async () => {
        const missing = [...new Set(page.map((p) => p.reference_dataset_id).filter((id): id is string => typeof id === 'string' && !datasetNames.has(id)))];
        if (missing.length) {
          try {
            for await (const d of client.datasets.list({ ids: missing, limit: missing.length })) datasetNames.set(d.id, d.name);
          } catch {
            // Names are a nicety: the rows show without them.
          }
        }
        const out = page;
        page = [];
        return out;
      };
      for await (const p of projects) {
        page.push(p);
        if (page.length >= PAGE) yield* await flush();
      }
      yield* await flush();
    })();
  }

  /** Dataset names by id, for experiment rows (kept while the view lives). */
  private readonly datasetNames = new Map<string, string>();

  protected itemNode(project: Project): TreeNode {
    const dataset = project.reference_dataset_id ? this.datasetNames.get(project.reference_dataset_id) : undefined;
    return new ProjectNode(project, this.childParent, this.view, this.filters, dataset);
  }

  protected override emptyLabel(): string {
    return this.filters.nameContains ? vscode.l10n.t('No project name contains “{0}”', this.filters.nameContains) : vscode.l10n.t('No projects yet');
  }
}

export class ProjectNode extends PagedParentNode<Run> {
  constructor(
    readonly project: Project,
    parent: TreeNode | undefined,
    view: ViewContext,
    private readonly filters: ProjectFilters,
    /** The dataset an experiment ran on, when its name is known. */
    private readonly datasetName?: string,
  ) {
    super(`project/${project.id}`, parent, PAGE, view);
  }

  treeItem(): vscode.TreeItem {
    const p = this.project;
    const experiment = !!p.reference_dataset_id;
    const name = p.name ?? p.id;
    const item = new vscode.TreeItem(experiment ? experimentLabel(name) : name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(experiment ? 'beaker' : 'project');
    item.description = this.descriptionParts().filter(Boolean).join(' · ') || undefined;
    const stats = projectStats(p);
    item.tooltip = markdownLines([
      `**${escapeMarkdown(name)}**`,
      experiment && this.datasetName ? vscode.l10n.t('Experiment on the dataset {0}', escapeMarkdown(this.datasetName)) : undefined,
      p.description ? escapeMarkdown(String(p.description)) : undefined,
      stats.runs !== undefined ? vscode.l10n.t('{0} runs, {1}% errors', stats.runs.toLocaleString('en-US'), percent(stats.errorRate ?? 0)) : undefined,
      stats.p50 !== undefined ? vscode.l10n.t('Latency p50 {0}, p99 {1}', formatLatency(0, stats.p50 * 1000) ?? '', formatLatency(0, (stats.p99 ?? stats.p50) * 1000) ?? '') : undefined,
      stats.last ? vscode.l10n.t('Last run {0}', formatWhen(stats.last) ?? '') : undefined,
      vscode.l10n.t('id {0}', `\`${p.id}\``),
    ]);
    item.contextValue = experiment ? 'project.experiment' : 'project';
    // A click opens the runs table; the twistie (or →) still unfolds the runs here.
    item.command = { command: Commands.openRuns, title: vscode.l10n.t('Open Runs'), arguments: [this] };
    return item;
  }

  /** What the row says after its name: the dataset an experiment ran on, then the project's figures. */
  protected descriptionParts(): (string | undefined)[] {
    const stats = projectStats(this.project);
    return [
      this.project.reference_dataset_id ? (this.datasetName ? vscode.l10n.t('on {0}', this.datasetName) : vscode.l10n.t('experiment')) : undefined,
      stats.runs !== undefined ? vscode.l10n.t('{0} runs', formatCount(stats.runs)) : undefined,
      ...figureParts(stats),
    ];
  }

  private threadsNode: ThreadsNode | undefined;

  /** The project's threads (conversations), before its runs. */
  protected override fixedChildren(): TreeNode[] {
    this.threadsNode ??= new ThreadsNode(this, this.view);
    return [this.threadsNode];
  }

  protected async openList(): Promise<AsyncIterator<Run>> {
    const client = await this.view.clients.client();
    return client.runs.query({ projectId: this.project.id, isRoot: true, error: this.filters.errorsOnly ? true : undefined, order: 'desc', pageSize: PAGE });
  }

  protected itemNode(run: Run): TreeNode {
    return new RunNode(run, this, this.view);
  }

  protected override emptyLabel(): string {
    return this.filters.errorsOnly ? vscode.l10n.t('No failed runs') : vscode.l10n.t('No runs yet');
  }
}

/** A project's figures from a listing with stats (any of them may be missing). */
export function projectStats(p: Project): { runs?: number; errorRate?: number; p50?: number; p99?: number; last?: string } {
  const r = p as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
  return {
    runs: num(r['run_count']),
    errorRate: num(r['error_rate']),
    p50: num(r['latency_p50']),
    p99: num(r['latency_p99']),
    last: typeof r['last_run_start_time'] === 'string' ? r['last_run_start_time'] : undefined,
  };
}

/** The error rate, p50 latency and last activity of a project, as a row says them. */
export function figureParts(stats: ReturnType<typeof projectStats>): (string | undefined)[] {
  return [
    stats.errorRate ? vscode.l10n.t('{0}% errors', percent(stats.errorRate)) : undefined,
    stats.p50 !== undefined ? vscode.l10n.t('p50 {0}', formatLatency(0, stats.p50 * 1000) ?? '') : undefined,
    stats.last ? formatAgo(stats.last) : undefined,
  ];
}

/** A share as a whole percent, or one decimal under 10 %. */
function percent(rate: number): string {
  const p = rate * 100;
  return p > 0 && p < 10 ? p.toFixed(1) : String(Math.round(p));
}

/**
 * An experiment's row label: names made by Run Prompt over Dataset end in the time they ran
 * (`support-answer-20261129-093012`), so siblings differ only at the end, past the sidebar's width. The time comes
 * first (`11-29 09:30:12 · support-answer`); other names are kept.
 */
export function experimentLabel(name: string): string {
  const m = /^(.+)-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(-\d+)?$/.exec(name);
  if (!m) return name;
  const [, prefix, , month, day, h, min, sec, again] = m;
  return `${month}-${day} ${h}:${min}:${sec}${again ?? ''} · ${prefix}`;
}

export class RunNode extends PagedParentNode<Run> {
  constructor(
    readonly run: Run,
    parent: TreeNode | undefined,
    view: ViewContext,
  ) {
    super(`run/${run.id}`, parent, PAGE, view);
  }

  get projectId(): string | undefined {
    return this.run.session_id ?? undefined;
  }

  /** The run's public share token, or null: kept up to date by Share Run / Stop Sharing Run. */
  get shareToken(): string | null {
    return this.run.share_token || null;
  }

  set shareToken(token: string | null) {
    this.run.share_token = token;
  }

  /** A root run (a trace) is told apart by what it was asked; a child run by its name. */
  get isRoot(): boolean {
    return !(this.parent instanceof RunNode);
  }

  /** How deep its row is in the Projects view (a trace is under its project). */
  get depth(): number {
    let depth = 2;
    for (let p = this.parent; p instanceof RunNode; p = p.parent) depth++;
    return depth;
  }

  treeItem(): vscode.TreeItem {
    const r = this.run;
    const type = r.run_type ?? 'chain';
    const failed = !!r.error || r.status === 'error';
    const running = !failed && r.end_time == null;
    const item = new vscode.TreeItem(runLabel(r, this.isRoot), LEAF_TYPES.has(type) ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    // Status by shape and by word, not by colour alone: failed, running, or done (the run type's own icon).
    item.iconPath = failed
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
      : running
        ? new vscode.ThemeIcon('loading~spin')
        : new vscode.ThemeIcon(RUN_ICONS[type] ?? 'pass', new vscode.ThemeColor('testing.iconPassed'));
    const latency = formatLatency(r.start_time, r.end_time);
    const tokens = typeof r.total_tokens === 'number' && r.total_tokens > 0 ? vscode.l10n.t('{0} tok', formatCount(r.total_tokens)) : undefined;
    // Short enough for a 300 px sidebar: a failed or running trace says so first, then when it ran (compact: 5m,
    // 3h, leaving the question room) and how long it took; its name, tokens and the rest are in the tooltip.
    // A child run, which ran with its siblings, shows how long it took and its tokens instead of when.
    const status = failed ? vscode.l10n.t('error') : running ? vscode.l10n.t('running') : undefined;
    item.description = fitDescription(runLabel(r, this.isRoot), this.isRoot ? [status, formatAgo(r.start_time), status ? undefined : latency] : [status ?? latency, tokens], this.depth);
    const state = failed ? vscode.l10n.t('failed') : running ? vscode.l10n.t('running') : vscode.l10n.t('done');
    // A screen reader hears the run's name, what it was asked and its state, whatever the row shows.
    item.accessibilityInformation = { label: [r.name ?? r.id, item.label === r.name ? undefined : item.label, state, item.description].filter(Boolean).join(', ') };
    const started = r.start_time != null ? escapeMarkdown(new Date(r.start_time).toLocaleString()) : undefined;
    item.tooltip = markdownLines([
      `**${escapeMarkdown(r.name ?? '')}** · ${escapeMarkdown(type)} · ${state}`,
      failed && r.error ? vscode.l10n.t('Error: {0}', escapeMarkdown(String(r.error).slice(0, 300))) : undefined,
      started === undefined ? undefined : latency ? vscode.l10n.t('Started {0} · took {1}', started, escapeMarkdown(latency)) : vscode.l10n.t('Started {0}', started),
      tokens
        ? vscode.l10n.t(
            'Tokens: {0} (prompt {1}, completion {2})',
            formatCount(r.total_tokens as number),
            formatCount(Number(r.prompt_tokens ?? 0)),
            formatCount(Number(r.completion_tokens ?? 0)),
          )
        : undefined,
      r.inputs ? vscode.l10n.t('Inputs: {0}', escapeMarkdown(summarize(r.inputs, 200))) : undefined,
      this.shareToken ? vscode.l10n.t('Shared publicly') : undefined,
      vscode.l10n.t('id {0}', `\`${r.id}\``),
    ]);
    item.contextValue = `run.${this.shareToken ? 'shared' : 'unshared'}`;
    item.command = { command: Commands.openTrace, title: vscode.l10n.t('Open Trace'), arguments: [this] };
    return item;
  }

  protected async openList(): Promise<AsyncIterator<Run>> {
    const client = await this.view.clients.client();
    return client.runs.query({ projectId: this.projectId, parentRunId: this.run.id, order: 'asc', pageSize: PAGE });
  }

  protected itemNode(run: Run): TreeNode {
    return new RunNode(run, this, this.view);
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No child runs');
  }
}

/** Characters of a trace's input its row shows: with the description it fits a 300 px sidebar. */
export const RUN_PREVIEW_CHARS = 22;

/** A trace's row reads as what it was asked (in quotes); a child run, or a trace with no input text, as its name. */
export function runLabel(r: Run, root: boolean): string {
  const name = r.name ?? r.id;
  if (!root) return name;
  const asked = askedText(r.inputs, RUN_PREVIEW_CHARS);
  return asked ? `“${asked}”` : name;
}

/** A thread of a project as the tree lists it. */
export interface ThreadRow {
  threadId: string;
  turns: number | null;
  /** When its latest turn started (API time text). */
  lastActivity: string | null;
}

/** A project's threads: its traces grouped by the thread their metadata names, latest activity first. */
export class ThreadsNode extends PagedParentNode<ThreadRow> {
  constructor(
    readonly projectNode: ProjectNode,
    view: ViewContext,
  ) {
    super(`${projectNode.id}/threads`, projectNode, PAGE, view);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Threads'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('comment-discussion');
    item.tooltip = vscode.l10n.t('Conversations: the traces that share a thread_id, session_id or conversation_id in their metadata.');
    item.contextValue = 'threads';
    return item;
  }

  protected async openList(): Promise<AsyncIterator<ThreadRow>> {
    const client = await this.view.clients.client();
    const threads = client.threads.list({ projectId: this.projectNode.project.id, pageSize: PAGE });
    return (async function* () {
      for await (const t of threads) yield { threadId: t.thread_id, turns: t.turns, lastActivity: t.last_start_time ?? null };
    })();
  }

  protected itemNode(thread: ThreadRow): TreeNode {
    return new ThreadNode(thread, this, this.projectNode.project.id);
  }

  protected override emptyLabel(): string {
    return vscode.l10n.t('No threads: runs join one through thread_id, session_id or conversation_id in their metadata');
  }
}

export class ThreadNode extends TreeNode {
  constructor(
    readonly thread: ThreadRow,
    parent: ThreadsNode,
    readonly projectId: string,
  ) {
    super(`${parent.id}/${thread.threadId}`, parent);
  }

  treeItem(): vscode.TreeItem {
    const t = this.thread;
    const item = new vscode.TreeItem(t.threadId, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('comment');
    item.description = [t.turns === null ? undefined : t.turns === 1 ? vscode.l10n.t('1 turn') : vscode.l10n.t('{0} turns', t.turns), formatWhen(t.lastActivity)].filter(Boolean).join(' · ');
    item.tooltip = markdownLines([
      vscode.l10n.t('Thread {0}', `\`${escapeMarkdown(t.threadId)}\``),
      t.turns === null ? undefined : vscode.l10n.t('{0} turns', t.turns),
      t.lastActivity ? vscode.l10n.t('Last activity {0}', escapeMarkdown(new Date(t.lastActivity).toLocaleString())) : undefined,
    ]);
    item.contextValue = 'thread';
    item.command = { command: Commands.openThread, title: vscode.l10n.t('Open Thread'), arguments: [this] };
    return item;
  }
}
