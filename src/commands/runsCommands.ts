// The runs panel: Open Runs on a project (a project row's own action), from a chart or a command with a query
// (a window, a filter), or from the palette with a project picked.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { Commands } from '../constants';
import { EMPTY_QUERY, RunsKey, ShowQuery, type RunsQuery } from '../protocol/runs';
import { ProjectNode } from '../views/projectsView';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import type { CommandRegistrar } from './registerCommand';
import { choose } from './ui';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The query a caller passes: times as ISO text or epoch ms, the filters as text; anything else is refused. */
function queryOf(arg: Record<string, unknown>): Partial<RunsQuery> | undefined {
  const out: Partial<RunsQuery> = {};
  const time = (v: unknown, name: string) => {
    if (v === undefined || v === null) return undefined;
    const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
    if (!Number.isFinite(ms)) throw new Error(vscode.l10n.t('{0} is not a time: {1}', name, String(v)));
    return ms;
  };
  for (const f of ['filter', 'traceFilter', 'treeFilter'] as const) if (typeof arg[f] === 'string') out[f] = arg[f] as string;
  const start = time(arg['startTime'], 'startTime');
  const end = time(arg['endTime'], 'endTime');
  if (start !== undefined) out.startTime = start;
  if (end !== undefined) out.endTime = end;
  if (arg['scope'] === 'root' || arg['scope'] === 'all' || arg['scope'] === 'llm') out.scope = arg['scope'];
  return Object.keys(out).length ? out : undefined;
}

/** The project (and query) a caller names: a project row, or `{ projectId, projectName?, filter?, startTime?, … }`. */
export function runsKeyOf(arg: unknown): RunsKey | undefined {
  if (arg instanceof ProjectNode) return { projectId: arg.project.id, projectName: arg.project.name ?? undefined };
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as Record<string, unknown>;
  if (typeof a['projectId'] !== 'string' || !UUID.test(a['projectId'])) return undefined;
  const query = queryOf(a);
  const key = { projectId: a['projectId'], ...(typeof a['projectName'] === 'string' ? { projectName: a['projectName'] } : {}), ...(query ? { query } : {}) };
  const parsed = RunsKey.safeParse(key);
  return parsed.success ? parsed.data : undefined;
}

export function registerRunsCommands(register: CommandRegistrar, clients: ClientService, panels: PanelFrame): void {
  register(Commands.openRuns, async (arg) => {
    let key = arg === undefined ? undefined : runsKeyOf(arg);
    if (arg !== undefined && !key) throw new Error(vscode.l10n.t('Select a project to open its runs.'));
    if (!key) {
      const projects = clients.call(async (c) => {
        const items: (vscode.QuickPickItem & { id: string })[] = [];
        for await (const p of c.projects.list({ limit: 500, referenceFree: true })) items.push({ label: p.name ?? p.id, id: p.id });
        return items;
      });
      const picked = await choose(projects, { title: vscode.l10n.t('Open Runs'), placeholder: vscode.l10n.t('The project whose runs to show') });
      key = { projectId: picked.id, projectName: picked.label };
    }
    const host = await panels.show(Panels.runs, key);
    // Already open on this project: it shows the query it was opened with this time.
    if (key.query) await host.notify(ShowQuery, { ...EMPTY_QUERY, ...key.query });
  });
}
