// The dataset commands, end to end in the extension host: a dataset made from a CSV file (written to a temp
// dir, chosen through the scripted file dialog) is exported, tagged, split, searched, extended, pruned and
// renamed, each checked through the local server. Bad answers get the exact message and change nothing.
// Everything happens on the dataset made here, so the demo data the other suites read stays as seeded.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { Panels } from '../../../src/webviews/descriptors';
import { activateWorkbench, get, runScripted, raw } from './support';

type AnyNode = TreeNode & Record<string, any>;
interface ExampleJson {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  metadata: { dataset_split?: string[] } | null;
}

const CSV = [
  'question,answer,topic',
  '"How do I reset my password?","Use the reset link on the sign-in page.",account',
  '"Can I change my billing email?","Yes, under Billing → Contacts.",billing',
  '"Why was my card declined?","The bank declined it; try another card.",billing',
  '"How do I export my data?","Settings → Export, then choose CSV.",data',
  '"Where is the API key page?","Settings → API Keys.",account',
].join('\n');

describe('dataset commands', function () {
  let workbench: WorkbenchApi;
  let tmp: string;
  let datasetId: string;

  before(async () => {
    workbench = await activateWorkbench();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-datasets-'));
  });

  after(async () => {
    if (datasetId) await raw('DELETE', `/datasets/${datasetId}`);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs a command with scripted answers (all must be used); returns the script and the error notifications shown. */
  const run = (command: string, answers: Answer[], ...args: unknown[]) => runScripted(workbench, command, new ScriptedPrompter(answers), ...args);

  const datasets = () => get<{ id: string; name: string }[]>('/datasets?limit=100');
  const examples = () => get<ExampleJson[]>(`/examples?dataset=${datasetId}&limit=100`);
  const datasetNode = async () => {
    const node = (await workbench.views.datasets.provider.getChildren()).find((n) => n.id === `dataset/${datasetId}`);
    assert.ok(node, 'the dataset is in the Datasets view');
    return node as AnyNode;
  };
  const exampleNodes = async () => ((await workbench.views.datasets.provider.getChildren(await datasetNode())) as AnyNode[]).filter((n) => n.id.startsWith('example/'));
  const writeFile = (name: string, text: string) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, text);
    return vscode.Uri.file(file);
  };

  it('refuses an empty CSV file with a clear message and creates nothing', async () => {
    const before = (await datasets()).length;
    const { script, errors } = await run('langsmith.createDatasetFromCsv', [{ file: writeFile('empty.csv', '') }]);
    assert.deepEqual(errors, ['empty.csv is empty or has no header row: the first line must name the columns.']);
    assert.equal(script.asked.length, 1, 'nothing is asked after the file');
    assert.equal((await datasets()).length, before);
  });

  it('needs at least one input column, and a valid name, before uploading anything', async () => {
    const file = writeFile('support-faq.csv', CSV);
    const before = (await datasets()).length;
    const none = await run('langsmith.createDatasetFromCsv', [{ file }, { pickMany: [] }]);
    assert.deepEqual(none.errors, ['Choose at least one input column: every example needs inputs. Nothing was uploaded.']);
    assert.deepEqual(none.script.offered[0], ['question', 'answer', 'topic'], 'the header row is offered');

    const badName = await run('langsmith.createDatasetFromCsv', [{ file }, { pickMany: ['question'] }, { pickMany: ['answer'] }, { input: '   ' }]);
    assert.deepEqual(badName.script.rejected, ['Give the dataset a name.']);
    assert.deepEqual(badName.errors, []);
    assert.equal((await datasets()).length, before);
  });

  it('creates a dataset from a CSV file with the chosen input and output columns', async () => {
    const file = writeFile('support-faq.csv', CSV);
    const { script, errors } = await run('langsmith.createDatasetFromCsv', [
      { file },
      { pickMany: ['question'] },
      { pickMany: ['answer'] },
      { input: 'ext-csv-dataset' },
      { input: 'from a CSV file' },
    ]);
    assert.deepEqual(errors, []);
    assert.deepEqual(script.offered[1], ['answer', 'topic'], 'outputs are offered from the columns not chosen as inputs');
    const [dataset] = await get<{ id: string; description: string }[]>('/datasets?name=ext-csv-dataset');
    assert.ok(dataset, 'the dataset exists');
    assert.equal(dataset.description, 'from a CSV file');
    datasetId = dataset.id;
    const rows = await examples();
    assert.equal(rows.length, 5);
    const reset = rows.find((e) => e.inputs.question === 'How do I reset my password?');
    assert.deepEqual(reset?.inputs, { question: 'How do I reset my password?' });
    assert.deepEqual(reset?.outputs, { answer: 'Use the reset link on the sign-in page.' });
    assert.ok(await datasetNode(), 'the Datasets view shows it');
  });

  it('exports the dataset as OpenAI fine-tuning JSONL, one object per line', async () => {
    const target = vscode.Uri.file(path.join(tmp, 'export.jsonl'));
    await run('langsmith.exportDatasetForFineTuning', [{ file: target }], await datasetNode());
    const lines = fs.readFileSync(target.fsPath, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 5);
    for (const line of lines) assert.ok(Array.isArray(JSON.parse(line).messages), `a fine-tuning record: ${line}`);
    assert.ok(lines.some((l) => l.includes('How do I reset my password?')));
  });

  it('tags a version, refusing a tag with spaces', async () => {
    const versionsNode = ((await workbench.views.datasets.provider.getChildren(await datasetNode())) as AnyNode[]).find((n) => n.id.endsWith('/versions'))!;
    const [version] = (await workbench.views.datasets.provider.getChildren(versionsNode)) as AnyNode[];
    assert.equal(version.treeItem().contextValue, 'datasetVersion');

    const bad = await run('langsmith.tagDatasetVersion', [{ input: 'first cut' }], version);
    assert.deepEqual(bad.script.rejected, ['A tag has no spaces; use - or _ instead.']);
    assert.ok((await get<{ tags: string[] }[]>(`/datasets/${datasetId}/versions`)).every((v) => v.tags.length === 0));

    await run('langsmith.tagDatasetVersion', [{ input: 'first-cut' }], version);
    const tagged = await get<{ as_of: string; tags: string[] }>(`/datasets/${datasetId}/version?tag=first-cut`);
    assert.equal(new Date(tagged.as_of).getTime(), new Date(version.version.as_of).getTime());
    const shown = (await workbench.views.datasets.provider.getChildren(versionsNode)) as AnyNode[];
    assert.equal(shown[0].treeItem().label, 'first-cut', 'the version is named by its new tag');
  });

  it('adds selected examples to a new split and removes one again; a blank split name changes nothing', async () => {
    const [a, b] = await exampleNodes();
    const bad = await run('langsmith.addExamplesToSplit', [{ pick: 'New split…' }, { input: ' ' }], a, [a, b]);
    assert.deepEqual(bad.script.rejected, ['Give the split a name.']);
    assert.deepEqual(await get<string[]>(`/datasets/${datasetId}/splits`), ['base']);

    const add = await run('langsmith.addExamplesToSplit', [{ pick: 'New split…' }, { input: 'holdout' }], a, [a, b]);
    assert.ok(add.script.offered[0].includes('base'), 'existing splits are offered');
    assert.deepEqual(await get<string[]>(`/datasets/${datasetId}/splits`), ['base', 'holdout']);
    const inHoldout = (await examples()).filter((e) => e.metadata?.dataset_split?.includes('holdout')).map((e) => e.id);
    assert.deepEqual(inHoldout.sort(), [a.example.id, b.example.id].sort());

    const [a2] = (await exampleNodes()).filter((n) => n.id === a.id);
    const remove = await run('langsmith.removeExamplesFromSplit', [{ pick: 'holdout' }], a2);
    assert.deepEqual(remove.script.offered[0], ['base', 'holdout']);
    const after = await examples();
    assert.deepEqual(after.filter((e) => e.metadata?.dataset_split?.includes('holdout')).map((e) => e.id), [b.example.id]);
    assert.ok((await exampleNodes()).some((n) => String(n.treeItem().description).includes('holdout')), 'the refreshed dataset node shows the split');
  });

  it('searches similar examples after indexing, refusing bad JSON and an out-of-range limit', async () => {
    const node = await datasetNode();
    const broken = '{"question": ';
    let parseError = '';
    try {
      JSON.parse(broken);
    } catch (err) {
      parseError = (err as Error).message;
    }
    const badJson = await run('langsmith.searchSimilarExamples', [{ input: broken }], node);
    assert.deepEqual(badJson.script.rejected, [`That is not valid JSON: ${parseError}`]);
    const badLimit = await run('langsmith.searchSimilarExamples', [{ input: '{"question": "password"}' }, { input: '0' }], node);
    assert.deepEqual(badLimit.script.rejected, ['Enter a whole number from 1 to 100.']);
    const notIndexed = await raw('GET', `/datasets/${datasetId}/index`);
    assert.equal(notIndexed.status, 404, 'bad answers do not even index the dataset');

    await run('langsmith.searchSimilarExamples', [{ input: '{"question": "reset password"}' }, { input: '2' }], node);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'the results opened');
    assert.equal(editor.document.uri.scheme, 'langsmith', 'as a read-only LangSmith document');
    const shown = JSON.parse(editor.document.getText()) as { examples: ExampleJson[]; limit: number };
    assert.equal(shown.limit, 2);
    assert.ok(shown.examples.length >= 1 && shown.examples.length <= 2, `found ${shown.examples.length}`);
    assert.equal(shown.examples[0].inputs.question, 'How do I reset my password?');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('creates an example with outputs in a split through the example editor, refusing inputs that are not a JSON object', async () => {
    const node = await datasetNode();
    await run('langsmith.createExample', [], node);
    const [panel] = workbench.panels.panelsOf<{ exampleId: string; isNew: boolean }>(Panels.exampleEditor).filter((p) => p.key.isNew);
    assert.ok(panel, 'New Example… opened the example editor');
    const save = (id: number, draft: unknown) =>
      panel.host.router.dispatch({ kind: 'request', id, method: 'exampleEditor/save', params: { base: null, draft, attachments: { add: [], rename: {}, remove: [] }, force: false } });
    const bad = await save(1, { inputs: ['not', 'an', 'object'], outputs: null, metadata: null, splits: [] });
    assert.equal(bad?.ok === false && bad.error.code, 'invalidParams');
    assert.equal((await examples()).length, 5);

    const saved = await save(2, { inputs: { question: 'Do you have a mobile app?' }, outputs: { answer: 'Yes, for iOS and Android.' }, metadata: null, splits: ['holdout'] });
    assert.equal(saved?.ok && (saved.result as { status: string }).status, 'saved');
    const rows = await examples();
    assert.equal(rows.length, 6);
    const made = rows.find((e) => e.inputs.question === 'Do you have a mobile app?');
    assert.equal(made?.id, panel.key.exampleId, 'the example has the id chosen when the editor opened');
    assert.deepEqual(made?.outputs, { answer: 'Yes, for iOS and Android.' });
    assert.deepEqual(made?.metadata?.dataset_split, ['holdout']);
    assert.ok((await exampleNodes()).some((n) => n.example.id === made!.id), 'the dataset node was refreshed');
    panel.host.dispose();
  });

  it('deletes selected examples only after confirmation', async () => {
    const [a, b] = await exampleNodes();
    await run('langsmith.deleteExamples', [{ confirm: false }], a, [a, b]);
    assert.equal((await examples()).length, 6, 'declining keeps them');
    await run('langsmith.deleteExamples', [{ confirm: true }], a, [a, b]);
    const left = (await examples()).map((e) => e.id);
    assert.equal(left.length, 4);
    assert.ok(!left.includes(a.example.id) && !left.includes(b.example.id));
    const shown = (await exampleNodes()).map((n) => n.example.id);
    assert.ok(!shown.includes(a.example.id), 'the tree no longer shows them');
  });

  it('renames the dataset, refusing an empty name', async () => {
    const bad = await run('langsmith.renameDataset', [{ input: '' }], await datasetNode());
    assert.deepEqual(bad.script.rejected, ['Give the dataset a name.']);
    assert.equal((await get<{ name: string }>(`/datasets/${datasetId}`)).name, 'ext-csv-dataset');

    await run('langsmith.renameDataset', [{ input: 'ext-csv-dataset-renamed' }], await datasetNode());
    assert.equal((await get<{ name: string }>(`/datasets/${datasetId}`)).name, 'ext-csv-dataset-renamed');
    assert.equal((await datasetNode()).dataset.name, 'ext-csv-dataset-renamed', 'the view shows the new name');
  });
});
