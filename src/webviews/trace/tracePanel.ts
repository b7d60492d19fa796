// The trace viewer panel: one per trace (or shared trace, or thread). The host reads the trace's runs in one
// request (see client.traces) and hands them to the page as rows; the selected run is read whole when the page
// asks, and its payloads reach the page cut (src/webviews/run/), the rest on "Show all". The page reloads a trace that
// is still running while it is shown. Actions that ask something (a queue, a dataset) run as the extension's
// commands, with their pickers.
import * as vscode from 'vscode';
import { Act, AddFeedback, FindInTrace, ReadRun, Reload, ShowAll, TraceKey, TraceReady, type TraceState } from '../../protocol/trace';
import { reported } from '../reported';
import type { PanelApp } from '../panels';
import { TraceSession } from '../run/traceSession';

export const traceApp: PanelApp<TraceKey, typeof TraceReady.result.shape.state> = {
  ready: TraceReady,
  parseKey: (raw) => {
    const key = TraceKey.safeParse(raw);
    return key.success ? key.data : undefined;
  },
  keyId: (key) => (key.kind === 'trace' ? `trace:${key.traceId}` : key.kind === 'shared' ? `shared:${key.token}` : `thread:${key.projectId}:${key.threadId}`),
  title: (key) => (key.kind === 'thread' ? vscode.l10n.t('Thread {0}', short(key.threadId)) : vscode.l10n.t('Trace {0}', short(key.kind === 'trace' ? key.traceId : key.token))),
  open({ host, key, services, setTitle }) {
    const session = new TraceSession(services.clients, key);
    host.router.onRequest(Reload, async (_p, { signal }) => {
      const state = await session.state(signal);
      setTitle(titleOf(state, key));
      return state;
    });
    host.router.onRequest(ReadRun, ({ runId }, { signal }) => reported(() => session.readRun(runId, signal)));
    host.router.onRequest(ShowAll, (params, { signal }) => reported(() => session.showAll(params.runId, params.part, params.path, signal)));
    host.router.onRequest(FindInTrace, ({ text }, { signal }) => reported(async () => ({ runIds: await session.find(text, signal) })));
    host.router.onRequest(AddFeedback, (params, { signal }) => reported(() => session.addFeedback(params, signal)));
    host.router.onRequest(Act, ({ action, runId }, { signal }) => reported(() => session.act(action, runId, signal)));
    return {
      state: async (signal) => {
        const state = await session.state(signal);
        setTitle(titleOf(state, key));
        return state;
      },
    };
  },
};

function short(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

function titleOf(state: TraceState, key: TraceKey): string {
  if (state.kind === 'trace') return vscode.l10n.t('Trace: {0}', state.trace.header.name);
  if (state.kind === 'thread') return vscode.l10n.t('Thread: {0}', short(state.thread.threadId));
  return traceApp.title(key);
}
