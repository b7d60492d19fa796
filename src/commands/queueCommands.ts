// Annotation queues: add the selected runs to a queue (or a new one), remove runs, create, edit and delete queues.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { AnnotationQueue, LangSmithClient } from '../client';
import { RunNode } from '../views/projectsView';
import { QueueNode, QueueRunNode } from '../views/queuesView';
import type { LangSmithViews } from '../views/views';
import { Commands } from '../constants';
import type { CommandRegistrar } from './registerCommand';
import { ask, choose, confirm, selection, validateName, withProgress } from './ui';

export function registerQueueCommands(register: CommandRegistrar, clients: ClientService, views: LangSmithViews): void {
  register(Commands.addRunsToQueue, async (clicked, selected) => {
    const runs = selection(clicked, selected, (n): n is RunNode => n instanceof RunNode).map((n) => n.run);
    if (!runs.length) throw new Error('Select one or more runs in the Projects view first.');
    const client = await clients.client();
    const queue = await pickQueue(client, runs.length);
    await withProgress(`Adding ${runs.length} run${runs.length === 1 ? '' : 's'} to ${queue.name}`, (signal) =>
      clients.call((c) => c.annotationQueues.addRuns(queue.id, runs.map((r) => r.id), { signal })),
    );
    views.queues.refresh();
    void vscode.window.showInformationMessage(`Added ${runs.length} run${runs.length === 1 ? '' : 's'} to the annotation queue “${queue.name}”.`);
  });

  register(Commands.removeRunFromQueue, async (clicked, selected) => {
    const nodes = selection(clicked, selected, (n): n is QueueRunNode => n instanceof QueueRunNode);
    if (!nodes.length) throw new Error('Select runs in an annotation queue first.');
    await confirm(
      nodes.length === 1 ? `Remove “${nodes[0].run.name ?? nodes[0].run.id}” from “${nodes[0].queueNode.queue.name}”?` : `Remove ${nodes.length} runs from their queues?`,
      'The runs themselves are not deleted.',
      'Remove',
    );
    await withProgress('Removing runs from the queue', async (signal) => {
      for (const n of nodes) await clients.call((c) => c.annotationQueues.deleteRun(n.queueNode.queue.id, n.run.queue_run_id ?? n.run.id, { signal }));
    });
    views.queues.refresh();
  });

  register(Commands.createQueue, async () => {
    const queue = await createQueueInteractively(clients);
    views.queues.refresh();
    void vscode.window.showInformationMessage(`Created the annotation queue “${queue.name}”.`);
  });

  register(Commands.deleteQueue, async (node) => {
    if (!(node instanceof QueueNode)) throw new Error('Select an annotation queue to delete.');
    await confirm(`Delete the annotation queue “${node.queue.name}”?`, 'Its runs stay in their projects; the queue and its review state are removed.', 'Delete');
    await withProgress(`Deleting ${node.queue.name}`, (signal) => clients.call((c) => c.annotationQueues.delete(node.queue.id, { signal })));
    views.queues.refresh();
  });

  register(Commands.editQueue, async (node) => {
    if (!(node instanceof QueueNode)) throw new Error('Select an annotation queue to edit.');
    const q = node.queue;
    const title = `Edit the annotation queue “${q.name}”`;
    const name = await ask({ title, prompt: 'Name', value: q.name, validateInput: validateName('queue') });
    const description = await ask({ title, prompt: 'Description (empty for none)', value: q.description ?? '' });
    const rubric = await ask({ title, prompt: 'Instructions for reviewers (empty for none)', value: q.rubric_instructions ?? '' });
    await clients.call((c) => c.annotationQueues.update(q.id, { name, description, rubricInstructions: rubric }));
    views.queues.refresh();
    void vscode.window.showInformationMessage(`Saved the annotation queue “${name}”.`);
  });
}

async function pickQueue(client: LangSmithClient, runCount: number): Promise<AnnotationQueue> {
  type Item = vscode.QuickPickItem & { queue?: AnnotationQueue };
  const newQueue: Item = { label: '$(add) New queue…', alwaysShow: true };
  const items = (async () => {
    const list: Item[] = [newQueue];
    for await (const queue of client.annotationQueues.list()) {
      const size = (queue as { total_runs?: unknown }).total_runs;
      list.push({ label: queue.name, description: typeof size === 'number' ? `${size} runs` : undefined, detail: queue.description ?? undefined, queue });
    }
    return list;
  })();
  const picked = await choose(items, { title: `Add ${runCount} run${runCount === 1 ? '' : 's'} to an annotation queue`, placeholder: 'Choose a queue' });
  return picked.queue ?? createQueueWith(client);
}

async function createQueueInteractively(clients: ClientService): Promise<AnnotationQueue> {
  return createQueueWith(await clients.client());
}

async function createQueueWith(client: LangSmithClient): Promise<AnnotationQueue> {
  const name = await ask({ title: 'New annotation queue (1/3)', prompt: 'Name', validateInput: validateName('queue') });
  const description = await ask({ title: 'New annotation queue (2/3)', prompt: 'Description (optional)' });
  const rubric = await ask({ title: 'New annotation queue (3/3)', prompt: 'Instructions for reviewers (optional)' });
  return client.annotationQueues.create({ name, description: description || undefined, rubricInstructions: rubric || undefined });
}
