// The monitor panel: one per project. The host reads LangSmith's dashboard for the range, stride and grouping the
// page asks for (one request; LangSmith aggregates), converts it for drawing (dashboardData.ts) and remembers the
// choice per project, so the panel opens again (shown, moved, restored) on the same range moved up to now. A click
// on a point opens the runs panel on the runs behind it.
import * as vscode from 'vscode';
import type { LangSmithClient } from '../../client';
import { Commands } from '../../constants';
import { defaultQuery, Load, MAX_GROUPS, MonitorKey, MonitorReady, movedToNow, OpenRuns, Query, Reload, type Dashboard, type MonitorState } from '../../protocol/monitor';
import type { ParamsOf } from '../../protocol/messages';
import type { PanelApp, PanelServices } from '../panels';
import { problemOf, reported } from '../reported';
import { dashboardOf } from './dashboardData';

const queryKey = (projectId: string) => `langsmith.monitor.query/${projectId}`;

export const monitorApp: PanelApp<MonitorKey, typeof MonitorReady.result.shape.state> = {
  ready: MonitorReady,
  parseKey: (raw) => {
    const key = MonitorKey.safeParse(raw);
    return key.success ? key.data : undefined;
  },
  keyId: (key) => key.projectId,
  title: (key) => vscode.l10n.t('Monitor: {0}', key.projectName || key.projectId.slice(0, 8)),
  open({ host, key, services }) {
    const session = new MonitorSession(services, key);
    const state = (signal: AbortSignal) => session.state(signal);
    host.router.onRequest(Reload, (_p, { signal }) => state(signal));
    host.router.onRequest(Load, (query, { signal }) => reported(() => session.load(query, signal)));
    host.router.onRequest(OpenRuns, (target) => reported(() => session.openRuns(target)));
    return { state };
  },
};

export class MonitorSession {
  constructor(
    private readonly services: PanelServices,
    private readonly key: MonitorKey,
  ) {}

  /** The last choice for this project moved up to now, or the last 7 days in this machine's time zone. */
  query(now = Date.now()): Query {
    const kept = Query.safeParse(this.services.workspaceState.get<unknown>(queryKey(this.key.projectId)));
    return kept.success ? movedToNow(kept.data, now) : defaultQuery(now, Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  }

  async state(signal: AbortSignal): Promise<MonitorState> {
    try {
      const t0 = Date.now();
      const dashboard = await this.read(this.query(), signal);
      this.services.log.info(`Monitor: ${dashboard.charts.length} charts × ${dashboard.times.length} buckets of ${this.key.projectName || this.key.projectId} read in ${Date.now() - t0} ms`);
      return { kind: 'monitor', project: { id: this.key.projectId, name: this.key.projectName.slice(0, 500) }, dashboard };
    } catch (err) {
      if (signal.aborted) throw err;
      return { kind: 'problem', problem: problemOf(err, (detail) => vscode.l10n.t('The project was not found. It may have been deleted. ({0})', detail)) };
    }
  }

  async load(query: Query, signal: AbortSignal): Promise<Dashboard> {
    const dashboard = await this.read(query, signal);
    await this.services.workspaceState.update(queryKey(this.key.projectId), query);
    return dashboard;
  }

  private async read(query: Query, signal: AbortSignal): Promise<Dashboard> {
    const section = await this.services.clients.call((c: LangSmithClient) =>
      c.projects.dashboard(this.key.projectId, {
        startTime: new Date(query.startTime).toISOString(),
        endTime: new Date(query.endTime).toISOString(),
        stride: query.stride,
        timezone: query.timezone,
        ...(query.groupBy ? { groupBy: { attribute: query.groupBy.attribute, ...(query.groupBy.path !== null ? { path: query.groupBy.path } : {}), maxGroups: MAX_GROUPS } } : {}),
        signal,
      }),
    );
    return dashboardOf(section, query);
  }

  /** The runs panel on the runs behind a point, through its command (the runs panel is another room). */
  async openRuns(target: ParamsOf<typeof OpenRuns>): Promise<Record<string, never>> {
    if (!(target.endTime > target.startTime)) throw new Error(vscode.l10n.t('The window of runs to open is empty.'));
    const args = {
      projectId: this.key.projectId,
      projectName: this.key.projectName,
      scope: target.scope,
      filter: target.filter ?? undefined,
      startTime: new Date(target.startTime).toISOString(),
      endTime: new Date(target.endTime).toISOString(),
    };
    await vscode.commands.executeCommand(Commands.openRuns, args);
    return {};
  }
}
