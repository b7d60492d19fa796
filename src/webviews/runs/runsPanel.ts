// The runs panel: one per project. The page asks for the runs of its query a page at a time; the host reads them
// through the client's cursor paging (a reader per query, kept while the page scrolls it) and answers rows of
// short texts and figures. The layout (columns, widths) and the named filters are kept per project in the
// workspace. Acting on runs goes through the extension's commands (queue, dataset, feedback, trace), so a panel
// and the tree act alike.
import * as vscode from 'vscode';
import type { Run } from '../../client';
import { Commands } from '../../constants';
import type { Change } from '../../protocol/changes';
import {
  ActOnRuns,
  CountNewer,
  DEFAULT_COLUMNS,
  EMPTY_QUERY,
  Layout,
  OpenMonitor,
  QueryRuns,
  Reload,
  RUNS_PAGE,
  RunsChanged,
  RunsKey,
  RunsReady,
  SaveFilters,
  SaveLayout,
  SavedFilter,
  type RunsQuery,
  type RunsRow,
  type RunsState,
} from '../../protocol/runs';
import type { ParamsOf } from '../../protocol/messages';
import { RequestError } from '../../protocol/router';
import { setDraft } from '../../views/documents';
import type { PanelApp, PanelServices } from '../panels';
import { problemOf, reported } from '../reported';
import { epochMs } from '../run/rows';
import { queryOptions, runsRow, seenIn } from './runsRows';

const layoutKey = (projectId: string) => `langsmith.runs.layout/${projectId}`;
const filtersKey = (projectId: string) => `langsmith.runs.filters/${projectId}`;

export const runsApp: PanelApp<RunsKey, typeof RunsReady.result.shape.state> = {
  ready: RunsReady,
  parseKey: (raw) => {
    const key = RunsKey.safeParse(raw);
    return key.success ? key.data : undefined;
  },
  keyId: (key) => key.projectId,
  title: (key) => (key.projectName ? vscode.l10n.t('Runs: {0}', key.projectName) : vscode.l10n.t('Runs')),
  open({ host, key, services, setTitle }) {
    const session = new RunsSession(services, key);
    host.router.onRequest(QueryRuns, (p, { signal }) => reported(() => session.page(p.query, p.cursor, signal)));
    host.router.onRequest(CountNewer, (p, { signal }) => reported(() => session.countNewer(p.query, p.since, signal)));
    host.router.onRequest(SaveLayout, (layout) => reported(async () => (await services.workspaceState.update(layoutKey(key.projectId), layout), {})));
    host.router.onRequest(SaveFilters, ({ saved }) => reported(async () => (await services.workspaceState.update(filtersKey(key.projectId), saved), {})));
    host.router.onRequest(ActOnRuns, (p, { signal }) => reported(() => session.act(p, signal)));
    host.router.onRequest(OpenMonitor, () =>
      reported(async () => (await vscode.commands.executeCommand(Commands.monitorProject, { projectId: key.projectId, projectName: session.projectName }), {})),
    );
    const state = async (signal: AbortSignal) => {
      const s = await session.state(signal);
      if (s.kind === 'ready') setTitle(vscode.l10n.t('Runs: {0}', s.project.name));
      return s;
    };
    host.router.onRequest(Reload, (_p, { signal }) => state(signal));
    return {
      state,
      changed: (what: Change) => {
        if (what.kind === 'feedback') void host.notify(RunsChanged, {});
      },
      dispose: () => session.dispose(),
    };
  },
};

/** A reader of one query's pages: the rows come from the client's cursor paging, a page at a time. */
interface Reader {
  id: string;
  iterator: AsyncGenerator<Run, void, undefined>;
  read: number;
  done: boolean;
  /** A page is being read (a second request for the same cursor is refused). */
  busy: boolean;
}

/** Readers kept at once. */
const MAX_READERS = 4;

export class RunsSession {
  projectName: string | undefined;
  private readonly readers = new Map<string, Reader>();
  private made = 0;

  constructor(
    private readonly services: PanelServices,
    private readonly key: RunsKey,
  ) {
    this.projectName = key.projectName;
  }

  async state(signal: AbortSignal): Promise<RunsState> {
    try {
      const query = { ...EMPTY_QUERY, ...this.key.query };
      // Everything at once: the project, its link, values to complete, and the table's first page.
      const [project, url, recent, first] = await Promise.all([
        this.services.clients.call((c) => c.projects.read({ projectId: this.key.projectId, signal })),
        this.services.clients.call((c) => c.links.project({ projectId: this.key.projectId, signal })).catch(() => null),
        this.sample(signal),
        this.page(query, null, signal).catch(() => null),
      ]);
      this.projectName = project.name ?? project.id;
      const stored = Layout.safeParse(this.services.workspaceState.get(layoutKey(project.id)));
      const saved = (this.services.workspaceState.get<unknown[]>(filtersKey(project.id)) ?? []).flatMap((s) => {
        const parsed = SavedFilter.safeParse(s);
        return parsed.success ? [parsed.data] : [];
      });
      return {
        kind: 'ready',
        project: { id: project.id, name: (project.name ?? project.id).slice(0, 2000), url },
        query,
        layout: stored.success ? stored.data : { columns: [...DEFAULT_COLUMNS], widths: {} },
        saved,
        seen: seenIn(recent),
        first,
      };
    } catch (err) {
      return { kind: 'problem', problem: problemOf(err, () => vscode.l10n.t('The project {0} was not found; it may have been deleted.', this.key.projectName ?? this.key.projectId)) };
    }
  }

  /** The latest runs of the project (any kind), for the values a filter completes. */
  private async sample(signal: AbortSignal): Promise<RunsRow[]> {
    try {
      const rows: RunsRow[] = [];
      await this.services.clients.call(async (c) => {
        for await (const run of c.runs.query({ projectId: this.key.projectId, order: 'desc', limit: RUNS_PAGE, pageSize: RUNS_PAGE, select: ['id', 'name', 'tags', 'extra', 'feedback_stats', 'start_time'], signal })) rows.push(runsRow(run));
      });
      return rows;
    } catch {
      return [];
    }
  }

  /**
   * A page of the query: the first (cursor null) starts a reader; a later one names its reader and how far it has
   * read. A few readers are kept (a table's list and a new query being tried), the least recently used let go.
   */
  async page(query: RunsQuery, cursor: string | null, signal: AbortSignal): Promise<{ rows: RunsRow[]; cursor: string | null }> {
    let reader: Reader | undefined;
    if (cursor === null) {
      const options = { ...queryOptions(this.key.projectId, query), pageSize: RUNS_PAGE };
      const iterator = await this.services.clients.call(async (c) => c.runs.query(options));
      reader = { id: String(++this.made), iterator, read: 0, done: false, busy: false };
    } else {
      const [id, read] = cursor.split(':');
      reader = this.readers.get(id ?? '');
      // A cursor of a reader this host no longer has (the window reloaded, or it was let go): start over.
      if (!reader || String(reader.read) !== read || reader.busy) throw new RequestError('requestFailed', vscode.l10n.t('The list was reset; scroll to the top to read it again.'));
    }
    this.readers.delete(reader.id);
    this.readers.set(reader.id, reader);
    for (const [id, old] of this.readers) {
      if (this.readers.size <= MAX_READERS) break;
      void old.iterator.return(undefined);
      this.readers.delete(id);
    }
    const rows: RunsRow[] = [];
    const current = reader;
    current.busy = true;
    try {
      // One call for the page (the client's paging reads it in one request).
      await this.services.clients.call(async () => {
        while (rows.length < RUNS_PAGE) {
          if (signal.aborted) throw new RequestError('cancelled', vscode.l10n.t('Cancelled'));
          const next = await current.iterator.next();
          if (next.done) {
            current.done = true;
            break;
          }
          rows.push(runsRow(next.value));
        }
      });
    } catch (err) {
      // A refused filter is the server's 400 (its message says where); a cancelled page leaves the reader mid-page.
      this.readers.delete(current.id);
      throw err;
    } finally {
      current.busy = false;
    }
    current.read += rows.length;
    if (current.done) this.readers.delete(current.id);
    return { rows, cursor: current.done ? null : `${current.id}:${current.read}` };
  }

  /** How many runs of the query started after `since` (up to a page: "100+ new runs"). */
  async countNewer(query: RunsQuery, since: number, signal: AbortSignal): Promise<{ count: number; more: boolean }> {
    if (query.order !== 'desc' || (query.endTime !== null && query.endTime <= since)) return { count: 0, more: false };
    let count = 0;
    await this.services.clients.call(async (c) => {
      const options = { ...queryOptions(this.key.projectId, { ...query, startTime: since + 1 }), select: ['id', 'start_time'], limit: RUNS_PAGE + 1, pageSize: RUNS_PAGE + 1, signal };
      for await (const run of c.runs.query(options)) {
        if ((epochMs(run.start_time) ?? 0) > since) count++;
      }
    });
    return { count: Math.min(count, RUNS_PAGE), more: count > RUNS_PAGE };
  }

  async act(p: ParamsOf<typeof ActOnRuns>, signal: AbortSignal): Promise<{ done: boolean }> {
    const projectId = this.key.projectId;
    const first = p.runs[0]!;
    switch (p.action) {
      case 'openTrace':
      case 'pinTrace':
        // A single click previews the trace beside (the next click replaces it); a double click pins it.
        await vscode.commands.executeCommand(Commands.openTrace, { runId: first.id, traceId: first.traceId, projectId, preview: p.action === 'openTrace', beside: true });
        return { done: true };
      case 'openJson':
        await vscode.commands.executeCommand(Commands.openRun, { runId: first.id, projectId });
        return { done: true };
      case 'addToQueue':
        await vscode.commands.executeCommand(Commands.addRunsToQueue, { runIds: p.runs.map((r) => r.id) });
        return { done: true };
      case 'addToDataset':
        await vscode.commands.executeCommand(Commands.addRunToDataset, { runIds: p.runs.map((r) => r.id), projectId });
        return { done: true };
      case 'addFeedback':
        await vscode.commands.executeCommand(Commands.addFeedback, { runId: first.id, projectId });
        return { done: true };
      case 'copyIds':
        await vscode.env.clipboard.writeText(p.runs.map((r) => r.id).join('\n'));
        vscode.window.setStatusBarMessage(p.runs.length === 1 ? vscode.l10n.t('Copied the run’s id') : vscode.l10n.t('Copied {0} run ids', p.runs.length), 3000);
        return { done: true };
      case 'openInLangSmith': {
        const url = await this.services.clients.call(async (c) => `${await c.links.project({ projectId, signal })}?peek=${encodeURIComponent(first.id)}`);
        await vscode.env.openExternal(vscode.Uri.parse(url));
        return { done: true };
      }
      case 'compare':
        return this.compare(p.runs, signal);
    }
  }

  /** Two runs' inputs and outputs in VS Code's diff editor. */
  private async compare(runs: ParamsOf<typeof ActOnRuns>['runs'], signal: AbortSignal): Promise<{ done: boolean }> {
    if (runs.length !== 2) throw new RequestError('requestFailed', vscode.l10n.t('Select two runs to compare.'));
    const read = await Promise.all(runs.map((r) => this.services.clients.call((c) => c.runs.read(r.id, { projectId: this.key.projectId, signal }))));
    const [a, b] = read.map((run) => {
      const text = `${JSON.stringify({ name: run.name, inputs: run.inputs ?? null, outputs: run.outputs ?? null, error: run.error ?? null }, null, 2)}\n`;
      return setDraft(`run-compare/${run.id}`, `${run.name ?? 'run'}-${run.id.slice(0, 8)}.json`, text);
    });
    await vscode.commands.executeCommand('vscode.diff', a, b, vscode.l10n.t('{0} ↔ {1}', read[0]!.name ?? read[0]!.id.slice(0, 8), read[1]!.name ?? read[1]!.id.slice(0, 8)), { preview: true });
    return { done: true };
  }

  dispose(): void {
    for (const r of this.readers.values()) void r.iterator.return(undefined);
    this.readers.clear();
  }
}
