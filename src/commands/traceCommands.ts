// Opening traces and threads in the trace viewer (from the trees, by id, by a shared link), and what the viewer
// asks of the rest of the extension: a run's inputs and outputs as a dataset example.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { Dataset, Run } from '../client';
import { Commands } from '../constants';
import type { TraceKey } from '../protocol/trace';
import { RunNode, ThreadNode } from '../views/projectsView';
import { QueueRunNode } from '../views/queuesView';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import type { CommandRegistrar } from './registerCommand';
import { ask, choose, confirm, withProgress } from './ui';
import { setDraft } from '../views/documents';
import type { ChangePublisher } from '../protocol/changes';
import { lazy } from '../common/lazy';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run as commands receive it: a tree row, or ids passed by a panel. */
interface RunArg {
  runId: string;
  traceId?: string;
  projectId?: string;
  projectName?: string;
  /** A single click in a list: the trace opens beside as a preview, and the keyboard stays in the list. */
  preview?: boolean;
  /** Open beside the active editor (a list's double click: pinned, focused). */
  beside?: boolean;
}

/** Several runs passed by a panel: `{ runIds, projectId? }`. */
function runIdsArg(arg: unknown): { runIds: string[]; projectId?: string } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { runIds, projectId } = arg as Record<string, unknown>;
  if (!Array.isArray(runIds) || runIds.length === 0 || runIds.length > 500 || !runIds.every((id) => typeof id === 'string' && UUID.test(id))) return undefined;
  return { runIds: runIds as string[], ...(typeof projectId === 'string' && UUID.test(projectId) ? { projectId } : {}) };
}

function runArg(arg: unknown): RunArg | undefined {
  if (arg instanceof RunNode || arg instanceof QueueRunNode) {
    const r = arg.run;
    return { runId: r.id, traceId: r.trace_id ?? undefined, projectId: r.session_id ?? undefined };
  }
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { runId, traceId, projectId, projectName, preview, beside } = arg as Record<string, unknown>;
  if (typeof runId !== 'string' || !UUID.test(runId)) return undefined;
  return {
    runId,
    traceId: typeof traceId === 'string' && UUID.test(traceId) ? traceId : undefined,
    projectId: typeof projectId === 'string' && UUID.test(projectId) ? projectId : undefined,
    projectName: typeof projectName === 'string' ? projectName : undefined,
    preview: preview === true,
    beside: beside === true || preview === true,
  };
}

export function registerTraceCommands(register: CommandRegistrar, clients: ClientService, changes: ChangePublisher, panels: PanelFrame): void {
  /** Opens the trace a run belongs to, with that run selected (finding the trace when only the run is known). */
  async function openTrace(ref: RunArg): Promise<void> {
    let { traceId, projectId } = ref;
    if (!projectId && ref.projectName) projectId = (await clients.call((c) => c.projects.read({ projectName: ref.projectName! }))).id;
    if (!traceId) {
      const run = await clients.call((c) => c.runs.read(ref.runId, { projectId }));
      traceId = run.trace_id ?? run.id;
      projectId ??= run.session_id ?? undefined;
    }
    const key: TraceKey = { kind: 'trace', traceId, ...(projectId ? { projectId } : {}), ...(ref.runId !== traceId ? { runId: ref.runId } : {}) };
    const column = ref.beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const host = await panels.show(Panels.trace, key, column, { preview: ref.preview, preserveFocus: ref.preview });
    // Already open on the same trace: show the clicked run.
    const { SelectRun } = await import('../protocol/trace');
    await host.notify(SelectRun, { runId: ref.runId });
  }

  register(Commands.openTrace, async (arg) => {
    const ref = runArg(arg);
    if (!ref) throw new Error(vscode.l10n.t('Select a run to open its trace.'));
    await openTrace(ref);
  });

  register(Commands.openTraceById, async () => {
    const text = await ask({
      title: vscode.l10n.t('Open a trace'),
      prompt: vscode.l10n.t('The id of a run or of a trace (a UUID); a run opens its whole trace with the run selected.'),
      validateInput: (v) => (UUID.test(v.trim()) ? undefined : vscode.l10n.t('A run or trace id looks like 1f2e3d4c-…: 32 hex digits in five groups.')),
    });
    await openTrace({ runId: text.toLowerCase() });
  });

  register(Commands.openSharedTrace, async () => {
    const client = await clients.client();
    const parse = (v: string) => client.public.parseRunToken(v.trim());
    const text = await ask({
      title: vscode.l10n.t('Open a shared trace'),
      prompt: vscode.l10n.t('A public trace link (…/public/<token>/r) or its token'),
      validateInput: (v) => {
        if (!v.trim()) return vscode.l10n.t('Paste a public trace link or token.');
        try {
          parse(v);
          return undefined;
        } catch (err) {
          return err instanceof Error ? err.message : String(err);
        }
      },
    });
    await panels.show(Panels.trace, { kind: 'shared', token: parse(text) });
  });

  register(Commands.openThread, async (arg) => {
    const ref =
      arg instanceof ThreadNode
        ? { threadId: arg.thread.threadId, projectId: arg.projectId }
        : typeof arg === 'object' && arg !== null
          ? (arg as { threadId?: unknown; projectId?: unknown })
          : {};
    if (typeof ref.threadId !== 'string' || !ref.threadId || typeof ref.projectId !== 'string' || !UUID.test(ref.projectId))
      throw new Error(vscode.l10n.t('Select a thread in the Projects view to open it.'));
    await panels.show(Panels.trace, { kind: 'thread', threadId: ref.threadId, projectId: ref.projectId });
  });

  register(Commands.addRunToDataset, async (arg) => {
    const many = runIdsArg(arg);
    if (many) return addRunsToDataset(many.runIds, many.projectId);
    const ref = runArg(arg);
    if (!ref) throw new Error(vscode.l10n.t('Select a run to add to a dataset.'));
    const run = await clients.call((c) => c.runs.read(ref.runId, { projectId: ref.projectId }));
    const dataset = await pickDataset(clients, vscode.l10n.t('Add “{0}” to a dataset', run.name ?? run.id));
    const example = await withProgress(vscode.l10n.t('Adding the run to {0}', dataset.name), (signal) =>
      clients.call((c) =>
        c.examples.createOne({ datasetId: dataset.id, inputs: plainRecord(run.inputs), outputs: plainRecord(run.outputs), sourceRunId: run.id, signal }),
      ),
    );
    changes.publish({ kind: 'dataset', datasetId: dataset.id });
    const edit = vscode.l10n.t('Edit Example');
    const answer = await vscode.window.showInformationMessage(vscode.l10n.t('Added “{0}” to the dataset “{1}” as an example.', run.name ?? run.id, dataset.name), edit);
    if (answer === edit) await vscode.commands.executeCommand(Commands.editExample, { datasetId: dataset.id, exampleId: example.id });
  });

  /** Several runs (the runs panel's selection): the examples to be made shown first, then added in one write. */
  async function addRunsToDataset(runIds: string[], projectId: string | undefined): Promise<void> {
    const runs = await withProgress(vscode.l10n.t('Reading {0} runs', runIds.length), (signal) =>
      clients.call(async (c) => {
        const out: Run[] = [];
        for await (const r of c.runs.query({ runIds, ...(projectId ? { projectId } : {}), select: ['id', 'name', 'inputs', 'outputs'], signal })) out.push(r);
        return out;
      }),
    );
    if (!runs.length) throw new Error(vscode.l10n.t('None of the selected runs could be read; they may have been deleted.'));
    const dataset = await pickDataset(clients, vscode.l10n.t('Add {0} runs to a dataset', runs.length));
    const examples = runs.map((r) => ({ inputs: plainRecord(r.inputs), outputs: plainRecord(r.outputs), sourceRunId: r.id }));
    const preview = setDraft(
      `add-to-dataset/${dataset.id}`,
      `examples-for-${dataset.name}.json`,
      `${JSON.stringify(examples.map((e) => ({ inputs: e.inputs, outputs: e.outputs, source_run_id: e.sourceRunId })), null, 2)}\n`,
    );
    await vscode.window.showTextDocument(preview, { preview: true, preserveFocus: true });
    await confirm(
      vscode.l10n.t('Add {0} examples to “{1}”?', examples.length, dataset.name),
      vscode.l10n.t('The examples to be made are open beside: each run’s inputs and outputs, linked to the run.'),
      vscode.l10n.t('Add'),
    );
    await withProgress(vscode.l10n.t('Adding {0} examples to {1}', examples.length, dataset.name), (signal) => clients.call((c) => c.examples.create({ datasetId: dataset.id, examples, signal })));
    changes.publish({ kind: 'dataset', datasetId: dataset.id });
    void vscode.window.showInformationMessage(vscode.l10n.t('Added {0} examples to the dataset “{1}”.', examples.length, dataset.name));
  }

  register(Commands.openRunInPlayground, async (arg) => {
    const ref = runArg(arg);
    if (!ref) throw new Error(vscode.l10n.t('Select an llm run to open in the playground.'));
    const run = await clients.call((c) => c.runs.read(ref.runId, { projectId: ref.projectId }));
    const engine = await lazy.promptFile();
    const file = engine.promptFileFromRun(run.inputs, runModel(run));
    if (!file) throw new Error(vscode.l10n.t('“{0}” has no chat messages in its inputs to run again.', run.name ?? run.id));
    // An untitled prompt file: the playground runs it, and the user may save it into the workspace.
    const base = (run.name ?? 'run').replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 40) || 'run';
    const uri = vscode.Uri.from({ scheme: 'untitled', path: `${base}-${run.id.slice(0, 8)}.prompt.yaml` });
    const doc = await vscode.workspace.openTextDocument(uri);
    if (!doc.getText()) {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(uri, new vscode.Position(0, 0), engine.writePromptFile(file));
      await vscode.workspace.applyEdit(edit);
    }
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
    await panels.show(Panels.playground, { kind: 'file', uri: uri.toString() }, vscode.ViewColumn.Beside);
  });
}

/** The model an llm run used, from its metadata or invocation parameters. */
function runModel(run: Run): { name: string; settings: Record<string, unknown> } | undefined {
  const extra = run.extra && typeof run.extra === 'object' ? (run.extra as Record<string, unknown>) : {};
  const meta = (extra['metadata'] ?? {}) as Record<string, unknown>;
  const params = (extra['invocation_params'] ?? {}) as Record<string, unknown>;
  const name = meta['ls_model_name'] ?? params['model'] ?? params['model_name'];
  if (typeof name !== 'string' || !name) return undefined;
  const settings: Record<string, unknown> = {};
  for (const k of ['temperature', 'max_tokens', 'top_p']) if (typeof params[k] === 'number') settings[k] = params[k];
  return { name, settings };
}

function plainRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : v === undefined || v === null ? {} : { value: v };
}

async function pickDataset(clients: ClientService, title: string): Promise<Dataset> {
  type Item = vscode.QuickPickItem & { dataset: Dataset };
  const items = clients.call(async (c) => {
    const list: Item[] = [];
    for await (const dataset of c.datasets.list({ limit: 500 })) {
      list.push({ label: dataset.name, description: typeof dataset.example_count === 'number' ? vscode.l10n.t('{0} examples', dataset.example_count) : undefined, detail: dataset.description ?? undefined, dataset });
    }
    if (!list.length) throw new Error(vscode.l10n.t('There is no dataset yet: create one in the Datasets view first.'));
    return list;
  });
  const picked = await choose(items, { title, placeholder: vscode.l10n.t('Choose a dataset') });
  return picked.dataset;
}
