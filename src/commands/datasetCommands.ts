// What is inside a dataset: create one from a CSV file, rename it, export it for OpenAI fine-tuning, tag a
// version, edit splits, add and delete examples, and search examples similar to an inputs object.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { datasetNameFromFile, parseJsonObject, validateJsonObject, validateSplitName, validateTagName, validateWholeNumber } from '../common/datasetInput';
import { DatasetNode, ExampleNode, VersionNode } from '../views/datasetsView';
import { documentUri, showDocument } from '../views/documents';
import type { LangSmithViews } from '../views/views';
import { Commands } from '../constants';
import { prompter } from './prompter';
import { UserCancelled, type CommandRegistrar } from './registerCommand';
import { ask, choose, confirm, selection, validateName, withProgress } from './ui';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function registerDatasetCommands(register: CommandRegistrar, clients: ClientService, views: LangSmithViews): void {
  register(Commands.createDatasetFromCsv, async () => {
    const file = await prompter().openFile({ title: 'New dataset from a CSV file', openLabel: 'Use This File', canSelectFiles: true, canSelectFolders: false, filters: { 'CSV files': ['csv'] } });
    if (!file) throw new UserCancelled();
    const fileName = file.path.split('/').pop() || 'data.csv';
    const bytes = await vscode.workspace.fs.readFile(file);
    const { csvHeader } = await import('../common/csv');
    const columns = csvHeader(new TextDecoder('utf-8').decode(bytes), fileName);

    const inputs = await prompter().pickMany(
      columns.map((c) => ({ label: c })),
      { title: `New dataset from ${fileName}: input columns`, placeholder: 'Choose the columns that become the inputs of each example' },
    );
    if (!inputs) throw new UserCancelled();
    if (!inputs.length) throw new Error('Choose at least one input column: every example needs inputs. Nothing was uploaded.');
    const inputKeys = inputs.map((i) => i.label);
    const rest = columns.filter((c) => !inputKeys.includes(c));
    let outputKeys: string[] = [];
    if (rest.length) {
      const outputs = await prompter().pickMany(
        rest.map((c) => ({ label: c })),
        { title: `New dataset from ${fileName}: output columns`, placeholder: 'Choose the reference output columns (none is fine)' },
      );
      if (!outputs) throw new UserCancelled();
      outputKeys = outputs.map((o) => o.label);
    }
    const name = await ask({ title: 'New dataset from a CSV file (name)', prompt: 'Dataset name', value: datasetNameFromFile(fileName), validateInput: validateName('dataset') });
    const description = await ask({ title: 'New dataset from a CSV file (description)', prompt: 'Description (optional)' });

    const dataset = await withProgress(`Uploading ${fileName} as “${name}”`, (signal) =>
      clients.call((c) => c.datasets.uploadCsv({ csv: bytes, fileName, inputKeys, outputKeys, name, description: description || undefined, signal })),
    );
    views.datasets.refresh();
    const count = (dataset as { example_count?: unknown }).example_count;
    void vscode.window.showInformationMessage(`Created the dataset “${dataset.name}”${typeof count === 'number' ? ` with ${plural(count, 'example')}` : ''}.`);
  });

  register(Commands.renameDataset, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error('Select a dataset to rename.');
    const old = node.dataset.name;
    const name = await ask({ title: `Rename “${old}”`, prompt: 'New dataset name', value: old, validateInput: validateName('dataset') });
    if (name === old) return;
    await clients.call((c) => c.datasets.update(node.dataset.id, { name }));
    views.datasets.refresh();
  });

  register(Commands.exportDatasetForFineTuning, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error('Select a dataset to export.');
    const fileName = `${node.dataset.name.replace(/[\\/:*?"<>|]+/g, '-')}.jsonl`;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await prompter().saveFile({
      title: `Export “${node.dataset.name}” for OpenAI fine-tuning`,
      saveLabel: 'Export',
      defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
      filters: { 'JSON Lines': ['jsonl'] },
    });
    if (!target) throw new UserCancelled();
    const lines = await withProgress(`Exporting ${node.dataset.name}`, (signal) =>
      clients.call((c) => c.datasets.readOpenAiFineTuning({ datasetId: node.dataset.id, signal })),
    );
    const text = lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : '');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    void vscode.window.showInformationMessage(`Wrote ${plural(lines.length, 'example')} to ${target.path.split('/').pop()}.`, 'Open File').then((choice) => {
      if (choice) void vscode.window.showTextDocument(target);
    });
  });

  register(Commands.tagDatasetVersion, async (node) => {
    if (!(node instanceof VersionNode)) throw new Error('Select a version of a dataset to tag.');
    const dataset = node.versionsNode.datasetNode.dataset;
    const tag = await ask({
      title: `Tag the version of “${dataset.name}” as of ${node.version.as_of}`,
      prompt: 'Tag name (moves the tag here if it is on another version)',
      placeHolder: 'e.g. prod or v2',
      validateInput: validateTagName,
    });
    await clients.call((c) => c.datasets.updateTag({ datasetId: dataset.id, asOf: node.version.as_of, tag }));
    views.refreshNode(node.versionsNode);
  });

  register(Commands.addExamplesToSplit, async (clicked, selected) => {
    const groups = examplesByDataset(clicked, selected);
    const count = [...groups.values()].reduce((n, g) => n + g.exampleIds.length, 0);
    const existing = await splitsOf(clients, groups);
    type Item = vscode.QuickPickItem & { split?: string };
    const items: Item[] = [{ label: '$(add) New split…', alwaysShow: true }, ...existing.map((s) => ({ label: s, split: s }))];
    const picked = await choose(items, { title: `Add ${plural(count, 'example')} to a split`, placeholder: 'Choose a split or make a new one' });
    const split = picked.split ?? (await ask({ title: 'New split', prompt: 'Split name', placeHolder: 'e.g. test', validateInput: validateSplitName }));
    await updateSplits(clients, views, groups, split, false);
  });

  register(Commands.removeExamplesFromSplit, async (clicked, selected) => {
    const groups = examplesByDataset(clicked, selected);
    const count = [...groups.values()].reduce((n, g) => n + g.exampleIds.length, 0);
    const existing = await splitsOf(clients, groups);
    if (!existing.length) throw new Error('The dataset has no splits to remove examples from.');
    const picked = await choose(existing.map((s) => ({ label: s })), { title: `Remove ${plural(count, 'example')} from a split`, placeholder: 'Choose the split' });
    await updateSplits(clients, views, groups, picked.label, true);
  });

  register(Commands.searchSimilarExamples, async (node) => {
    if (!(node instanceof DatasetNode)) throw new Error('Select a dataset to search.');
    const text = await ask({
      title: `Search “${node.dataset.name}” (1/2)`,
      prompt: 'Inputs to find similar examples for, as a JSON object',
      placeHolder: '{"question": "How do I reset my password?"}',
      validateInput: validateJsonObject('inputs'),
    });
    const limitText = await ask({ title: `Search “${node.dataset.name}” (2/2)`, prompt: 'How many examples (1–100)', value: '5', validateInput: validateWholeNumber(1, 100) });
    const inputs = parseJsonObject(text);
    const limit = Number(limitText);
    await withProgress(`Indexing ${node.dataset.name}`, (signal) => clients.call((c) => c.datasets.index({ datasetId: node.dataset.id, signal })));
    await showDocument(documentUri('similarExamples', JSON.stringify({ datasetId: node.dataset.id, inputs, limit }), `similar-in-${node.dataset.name}`));
  });

  register(Commands.deleteExamples, async (clicked, selected) => {
    const nodes = selection(clicked, selected, (n): n is ExampleNode => n instanceof ExampleNode);
    if (!nodes.length) throw new Error('Select one or more examples in the Datasets view first.');
    await confirm(
      nodes.length === 1 ? `Delete this example of “${nodes[0].datasetNode.dataset.name}”?` : `Delete ${nodes.length} examples?`,
      'Earlier versions of the dataset keep them; the latest version does not.',
      'Delete',
    );
    await withProgress(`Deleting ${plural(nodes.length, 'example')}`, async (signal) => {
      for (const n of nodes) await clients.call((c) => c.examples.delete(n.example.id, { signal }));
    });
    for (const d of new Set(nodes.map((n) => n.datasetNode))) views.refreshNode(d);
  });
}

interface ExampleGroup {
  datasetNode: DatasetNode;
  exampleIds: string[];
}

/** The selected examples, by dataset (a selection may span datasets). */
function examplesByDataset(clicked: unknown, selected: unknown): Map<string, ExampleGroup> {
  const nodes = selection(clicked, selected, (n): n is ExampleNode => n instanceof ExampleNode);
  if (!nodes.length) throw new Error('Select one or more examples in the Datasets view first.');
  const groups = new Map<string, ExampleGroup>();
  for (const n of nodes) {
    const id = n.datasetNode.dataset.id;
    if (!groups.has(id)) groups.set(id, { datasetNode: n.datasetNode, exampleIds: [] });
    groups.get(id)!.exampleIds.push(n.example.id);
  }
  return groups;
}

async function splitsOf(clients: ClientService, groups: Map<string, ExampleGroup>): Promise<string[]> {
  const all = new Set<string>();
  for (const id of groups.keys()) for (const s of await clients.call((c) => c.datasets.listSplits({ datasetId: id }))) all.add(s);
  return [...all].sort();
}

async function updateSplits(clients: ClientService, views: LangSmithViews, groups: Map<string, ExampleGroup>, splitName: string, remove: boolean): Promise<void> {
  await withProgress(remove ? `Removing examples from ${splitName}` : `Adding examples to ${splitName}`, async (signal) => {
    for (const [datasetId, g] of groups) await clients.call((c) => c.datasets.updateSplits({ datasetId, splitName, exampleIds: g.exampleIds, remove, signal }));
  });
  for (const g of groups.values()) views.refreshNode(g.datasetNode);
}
