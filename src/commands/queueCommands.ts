// Annotation queues: add the selected runs to a queue (or a new one), remove items, create and delete queues, and
// open a queue's settings panel.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { AnnotationQueue, LangSmithClient } from '../client';
import { RunNode } from '../views/projectsView';
import { QueueNode, QueueRunNode } from '../views/queuesView';
import { Commands } from '../constants';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import type { CommandRegistrar } from './registerCommand';
import { ask, choose, confirm, selection, validateName, withProgress } from './ui';
import { inSteps } from './steps';
import type { ChangePublisher } from '../protocol/changes';

export function registerQueueCommands(register: CommandRegistrar, clients: ClientService, changes: ChangePublisher, panels: PanelFrame): void {
  register(Commands.addRunsToQueue, async (clicked, selected) => {
    // Rows of the Projects view, or the ids a panel passes (the trace viewer's Add to Annotation Queue).
    const passed = (clicked as { runIds?: unknown } | undefined)?.runIds;
    const runs: { id: string }[] =
      Array.isArray(passed) && passed.every((id) => typeof id === 'string')
        ? passed.map((id: string) => ({ id }))
        : selection(clicked, selected, (n): n is RunNode => n instanceof RunNode).map((n) => n.run);
    if (!runs.length) throw new Error(vscode.l10n.t('Select one or more runs in the Projects view first.'));
    const client = await clients.client();
    const queue = await pickQueue(client, runs.length);
    await withProgress(runs.length === 1 ? vscode.l10n.t('Adding 1 run to {0}', queue.name) : vscode.l10n.t('Adding {0} runs to {1}', runs.length, queue.name), (signal) =>
      clients.call((c) => c.annotationQueues.addRuns(queue.id, runs.map((r) => r.id), { signal })),
    );
    // The queue's row says its new size (a queue made on the way appears).
    changes.publish({ kind: 'queue', queueId: queue.id });
    void vscode.window.showInformationMessage(
      runs.length === 1
        ? vscode.l10n.t('Added 1 run to the annotation queue “{0}”.', queue.name)
        : vscode.l10n.t('Added {0} runs to the annotation queue “{1}”.', runs.length, queue.name),
    );
  });

  register(Commands.removeRunFromQueue, async (clicked, selected) => {
    const nodes = selection(clicked, selected, (n): n is QueueRunNode => n instanceof QueueRunNode);
    if (!nodes.length) throw new Error(vscode.l10n.t('Select runs in an annotation queue first.'));
    await confirm(
      nodes.length === 1
        ? vscode.l10n.t('Remove “{0}” from “{1}”?', nodes[0].run.name ?? nodes[0].run.id, nodes[0].queueNode.queue.name)
        : vscode.l10n.t('Remove {0} runs from their queues?', nodes.length),
      vscode.l10n.t('The runs themselves are not deleted.'),
      vscode.l10n.t('Remove'),
    );
    // One request per queue, with the ids of its items.
    const byQueue = new Map<string, string[]>();
    for (const n of nodes) byQueue.set(n.queueId, [...(byQueue.get(n.queueId) ?? []), n.itemId]);
    await inSteps([...byQueue], {
      title: vscode.l10n.t('Removing runs from the queue'),
      step: ([queueId, itemIds], signal) => clients.call((c) => c.annotationQueues.items.delete(queueId, itemIds, { signal })),
      progressed: (done, total) => vscode.l10n.t('Removed the runs from {0} of {1} queues', done, total),
      // Each queue's row and sections say what is left.
      after: () => {
        for (const queueId of byQueue.keys()) changes.publish({ kind: 'queue', queueId, items: true });
      },
    });
  });

  register(Commands.createQueue, async () => {
    const queue = await createQueueInteractively(clients);
    changes.publish({ kind: 'queue' });
    void vscode.window.showInformationMessage(vscode.l10n.t('Created the annotation queue “{0}”.', queue.name));
    // Next comes what the name boxes do not ask: the rubric, the default dataset, the reviewers.
    await panels.show(Panels.queueSettings, { queueId: queue.id });
  });

  register(Commands.deleteQueue, async (node) => {
    if (!(node instanceof QueueNode)) throw new Error(vscode.l10n.t('Select an annotation queue to delete.'));
    await confirm(
      vscode.l10n.t('Delete the annotation queue “{0}”?', node.queue.name),
      vscode.l10n.t('Its runs stay in their projects; the queue and its review state are removed.'),
      vscode.l10n.t('Delete'),
    );
    await withProgress(vscode.l10n.t('Deleting {0}', node.queue.name), (signal) => clients.call((c) => c.annotationQueues.delete(node.queue.id, { signal })));
    changes.publish({ kind: 'queue' });
  });

  register(Commands.editQueue, async (node) => {
    const queueId = node instanceof QueueNode ? node.queue.id : (node as { queueId?: unknown } | undefined)?.queueId;
    if (typeof queueId !== 'string') throw new Error(vscode.l10n.t('Select an annotation queue to edit.'));
    await panels.show(Panels.queueSettings, { queueId });
  });
}

async function pickQueue(client: LangSmithClient, runCount: number): Promise<AnnotationQueue> {
  type Item = vscode.QuickPickItem & { queue?: AnnotationQueue };
  const newQueue: Item = { label: vscode.l10n.t('$(add) New queue…'), alwaysShow: true };
  const items = (async () => {
    const list: Item[] = [newQueue];
    for await (const queue of client.annotationQueues.list()) {
      const size = queue.total_runs;
      list.push({ label: queue.name, description: typeof size === 'number' ? vscode.l10n.t('{0} runs', size) : undefined, detail: queue.description ?? undefined, queue });
    }
    return list;
  })();
  const picked = await choose(items, {
    title: runCount === 1 ? vscode.l10n.t('Add 1 run to an annotation queue') : vscode.l10n.t('Add {0} runs to an annotation queue', runCount),
    placeholder: vscode.l10n.t('Choose a queue'),
  });
  return picked.queue ?? createQueueWith(client);
}

async function createQueueInteractively(clients: ClientService): Promise<AnnotationQueue> {
  return createQueueWith(await clients.client());
}

async function createQueueWith(client: LangSmithClient): Promise<AnnotationQueue> {
  const name = await ask({ title: vscode.l10n.t('New annotation queue (1/3)'), prompt: vscode.l10n.t('Name'), validateInput: validateName('queue') });
  const description = await ask({ title: vscode.l10n.t('New annotation queue (2/3)'), prompt: vscode.l10n.t('Description (optional)') });
  const rubric = await ask({ title: vscode.l10n.t('New annotation queue (3/3)'), prompt: vscode.l10n.t('Instructions for reviewers (optional)') });
  return client.annotationQueues.create({ name, description: description || undefined, rubricInstructions: rubric || undefined });
}
