// The example editor's host side in the real extension host, against the local server's demo-invoices dataset:
// the panel opens from the tree command, its ready answer carries the dataset's schemas and the example's
// attachments, saves land on the server, a stale save is a conflict that writes nothing, attachments are added,
// renamed and removed, handlers refuse malformed params, requests cancel, and a saved key restores.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { ExampleEditorKey } from '../../../src/protocol/exampleEditor';
import { Panels } from '../../../src/webviews/descriptors';
import { ScriptedPrompter } from './scriptedPrompter';
import { activateWorkbench, get, runScripted, hostCall, hostOk, raw } from './support';

interface ExampleJson {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  modified_at: string;
  attachment_urls?: Record<string, { presigned_url: string; mime_type: string }> | null;
}

const noAttachments = { add: [], rename: {}, remove: [] };

describe('example editor (host)', function () {
  /** Ids for requests sent by hand (cancellation); hostCall counts from 1, these from far above. */
  let nextId = 500_000;
  let workbench: WorkbenchApi;
  let datasetId: string;
  let exampleId: string;

  const call = hostCall;
  const ok = hostOk;
  const readExample = async (id: string) => get<ExampleJson>(`/examples/${id}`);
  const panelFor = (id: string) => {
    const panel = workbench.panels.panelsOf<ExampleEditorKey>(Panels.exampleEditor).find((p) => p.key.exampleId === id);
    assert.ok(panel, `no example editor for ${id}`);
    return panel;
  };

  before(async () => {
    workbench = await activateWorkbench();
    [{ id: datasetId }] = await get<{ id: string }[]>('/datasets?name=demo-invoices');
    const examples = await get<ExampleJson[]>(`/examples?dataset=${datasetId}&select=attachment_urls`);
    exampleId = examples.find((e) => Object.keys(e.attachment_urls ?? {}).includes('attachment.invoice.txt'))!.id;
  });

  afterEach(() => {
    for (const p of workbench.panels.panelsOf(Panels.exampleEditor)) p.host.dispose();
  });

  it('opens from Edit Example with the dataset schemas and the example with its attachments', async () => {
    await runScripted(workbench, 'langsmith.editExample', new ScriptedPrompter([]), { datasetId, exampleId });
    const { host } = panelFor(exampleId);
    assert.equal(host.panel.viewType, 'langsmith.exampleEditor');
    const ready = await ok<{ restore: unknown; state: { dataset: { name: string; inputsSchema: { required: string[] } }; example: { attachments: { name: string }[]; splits: string[] } } }>(
      host,
      'exampleEditor/ready',
      {},
    );
    assert.deepEqual(ready.restore, { datasetId, exampleId, isNew: false });
    assert.equal(ready.state.dataset.name, 'demo-invoices');
    assert.deepEqual(ready.state.dataset.inputsSchema.required, ['invoice_text']);
    assert.deepEqual(ready.state.example.attachments.map((a) => a.name).sort(), ['invoice.pdf', 'invoice.txt']);
    assert.deepEqual(ready.state.example.splits, ['train']);
    assert.match(host.panel.title, /^Example · /);
    // Opening it again reveals the same panel.
    await vscode.commands.executeCommand('langsmith.editExample', { datasetId, exampleId });
    assert.equal(workbench.panels.panelsOf(Panels.exampleEditor).length, 1);
  });

  it('titles a chat example by its last human message, and takes a draft written field by field', async () => {
    const [{ id: chatId }] = await get<{ id: string }[]>('/datasets?name=demo-chat-transcripts');
    const [chat] = await get<ExampleJson[]>(`/examples?dataset=${chatId}&limit=1`);
    const question = (chat!.inputs['messages'] as { role: string; content: string }[]).filter((m) => m.role === 'user').at(-1)!.content;
    await runScripted(workbench, 'langsmith.editExample', new ScriptedPrompter([]), { datasetId: chatId, exampleId: chat!.id });
    const { host } = panelFor(chat!.id);
    await ok(host, 'exampleEditor/ready', {});
    assert.equal(host.panel.title, `Example · ${question.length > 40 ? `${question.slice(0, 39)}…` : question}`);
    // The webview reports a draft whose inputs are fields (one not valid JSON yet): the host holds it and marks the tab.
    const draft = { inputs: '{}', outputs: '', metadata: '', splits: [], inputsFields: [{ key: 'messages', kind: 'json', text: '[{"role": "user", "content": "half' }], outputsFields: null };
    await host.router.dispatch({ kind: 'notification', method: 'exampleEditor/draftState', params: { dirty: true, draft } });
    assert.match(host.panel.title, /^● Example · /);
    // A malformed field kind is refused: the tab stays as it was told last.
    await host.router.dispatch({ kind: 'notification', method: 'exampleEditor/draftState', params: { dirty: false, draft: { ...draft, inputsFields: [{ key: 'x', kind: 'yaml', text: '' }] } } });
    assert.match(host.panel.title, /^● Example · /);
  });

  it('saves a draft, and refuses a stale one as a conflict that writes nothing until forced', async () => {
    await vscode.commands.executeCommand('langsmith.editExample', { datasetId, exampleId });
    const { host } = panelFor(exampleId);
    const before = await readExample(exampleId);
    const draft = { inputs: before.inputs, outputs: { ...before.outputs, total: 1240.75 }, metadata: { source: 'test' }, splits: ['train'] };
    const saved = await ok<{ status: string; example: { modifiedAt: string } }>(host, 'exampleEditor/save', { base: before.modified_at, draft, attachments: noAttachments, force: false });
    assert.equal(saved.status, 'saved');
    const after = await readExample(exampleId);
    assert.equal(after.outputs?.['total'], 1240.75);
    assert.equal(after.metadata?.['source'], 'test');
    assert.deepEqual(after.metadata?.['dataset_split'], ['train']);

    // Someone else's draft still starts from the old version: nothing is written.
    const stale = await ok<{ status: string; server: { outputs: Record<string, unknown> } }>(host, 'exampleEditor/save', {
      base: before.modified_at,
      draft: { ...draft, outputs: { ...draft.outputs, total: 1 } },
      attachments: noAttachments,
      force: false,
    });
    assert.equal(stale.status, 'conflict');
    assert.equal(stale.server.outputs['total'], 1240.75);
    assert.equal((await readExample(exampleId)).outputs?.['total'], 1240.75);

    // The conflict offers VS Code's diff: server against draft.
    await ok(host, 'exampleEditor/showDiff', { draft: { ...draft, outputs: { ...draft.outputs, total: 1 } } });
    const diffTab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff);
    assert.ok(diffTab, 'a diff editor opened');
    const input = diffTab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.scheme, 'langsmith');
    assert.match((await vscode.workspace.openTextDocument(input.modified)).getText(), /"total": 1\b/);
    await vscode.window.tabGroups.close(diffTab);

    const forced = await ok<{ status: string }>(host, 'exampleEditor/save', { base: before.modified_at, draft: { ...draft, outputs: { ...draft.outputs, total: 1240.5 } }, attachments: noAttachments, force: true });
    assert.equal(forced.status, 'saved');
    assert.equal((await readExample(exampleId)).outputs?.['total'], 1240.5);
  });

  it('adds, renames and removes attachments with the save', async () => {
    await vscode.commands.executeCommand('langsmith.editExample', { datasetId, exampleId });
    const { host } = panelFor(exampleId);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-attach-')), 'scan.png');
    fs.writeFileSync(file, Buffer.from('89504e470d0a1a0a', 'hex'));
    const restore = workbench.setPrompter(new ScriptedPrompter([{ file: vscode.Uri.file(file) }]));
    let picked: { token: string; name: string; mimeType: string; size: number };
    try {
      picked = await ok(host, 'exampleEditor/pickAttachment', {});
    } finally {
      restore();
    }
    assert.deepEqual({ name: picked.name, mimeType: picked.mimeType, size: picked.size }, { name: 'scan.png', mimeType: 'image/png', size: 8 });
    const current = await readExample(exampleId);
    const draft = { inputs: current.inputs, outputs: current.outputs, metadata: null, splits: ['train'] };
    await ok(host, 'exampleEditor/save', {
      base: current.modified_at,
      draft,
      attachments: { add: [{ token: picked.token, name: 'scan.png' }], rename: { 'invoice.txt': 'invoice-text.txt' }, remove: ['invoice.pdf'] },
      force: false,
    });
    const after = await readExample(exampleId);
    const names = Object.keys(after.attachment_urls ?? {}).map((k) => k.replace(/^attachment\./, '')).sort();
    assert.deepEqual(names, ['invoice-text.txt', 'scan.png']);
    const scan = Object.entries(after.attachment_urls!).find(([k]) => k.endsWith('scan.png'))![1];
    assert.equal(Buffer.from(await (await fetch(scan.presigned_url)).arrayBuffer()).toString('hex'), '89504e470d0a1a0a');
    // A token is used once.
    const again = await call(host, 'exampleEditor/save', { base: after.modified_at, draft, attachments: { add: [{ token: picked.token, name: 'x.png' }], rename: {}, remove: [] }, force: false });
    assert.equal(again.ok === false && again.error.code, 'invalidParams');
  });

  it('refuses malformed params without calling the server', async () => {
    await vscode.commands.executeCommand('langsmith.editExample', { datasetId, exampleId });
    const { host } = panelFor(exampleId);
    const before = await readExample(exampleId);
    for (const params of [
      {},
      { base: null, draft: { inputs: 'text', outputs: null, metadata: null, splits: [] }, attachments: noAttachments, force: false },
      { base: null, draft: { inputs: {}, outputs: null, metadata: null, splits: [''] }, attachments: noAttachments, force: false },
      { base: null, draft: { inputs: {}, outputs: null, metadata: null, splits: [] }, attachments: noAttachments, force: 'yes' },
    ]) {
      const answer = await call(host, 'exampleEditor/save', params);
      assert.equal(answer.ok === false && answer.error.code, 'invalidParams', JSON.stringify(params));
    }
    assert.equal((await call(host, 'exampleEditor/openAttachment', { name: 42 })).ok, false);
    assert.equal((await readExample(exampleId)).modified_at, before.modified_at);
  });

  it('cancels a request when the webview says so, and everything in flight when the panel closes', async () => {
    await vscode.commands.executeCommand('langsmith.editExample', { datasetId, exampleId });
    const { host } = panelFor(exampleId);
    const id = nextId++;
    const answer = host.router.dispatch({ kind: 'request', id, method: 'exampleEditor/ready', params: {} });
    await host.router.dispatch({ kind: 'notification', method: 'webview/cancel', params: { id } });
    const cancelled = await answer;
    assert.deepEqual(cancelled && !cancelled.ok && cancelled.error, { code: 'cancelled', message: 'Cancelled.' });

    const inFlight = host.router.dispatch({ kind: 'request', id: nextId++, method: 'exampleEditor/ready', params: {} });
    host.dispose();
    const closed = await inFlight;
    assert.equal(closed && !closed.ok && closed.error.code, 'cancelled');
  });

  it('restores a panel only from a key it can check', async () => {
    const app = await Panels.exampleEditor.load();
    assert.deepEqual(app.parseKey({ datasetId, exampleId, isNew: false }), { datasetId, exampleId, isNew: false });
    for (const junk of [undefined, 'x', { datasetId, exampleId: '../../etc/passwd', isNew: false }, { datasetId, exampleId, isNew: 'no' }, { datasetId, exampleId, isNew: false, extra: 1 }]) {
      assert.equal(app.parseKey(junk), undefined, JSON.stringify(junk));
    }
  });

  it('writes a new example from New Example… on a split, into that split', async () => {
    const before = (await get<ExampleJson[]>(`/examples?dataset=${datasetId}`)).length;
    const datasets = await workbench.views.datasets.root.children();
    const dataset = datasets.find((n) => (n as { dataset?: { id: string } }).dataset?.id === datasetId)!;
    const [splits] = await dataset.children();
    const test = (await splits!.children()).find((n) => (n as { label?: string }).label === 'test');
    assert.ok(test, 'the dataset shows its test split');
    await runScripted(workbench, 'langsmith.createExample', new ScriptedPrompter([]), test);
    const panel = workbench.panels.panelsOf<ExampleEditorKey>(Panels.exampleEditor).find((p) => p.key.isNew)!;
    assert.equal(panel.key.split, 'test');
    const ready = await ok<{ state: { example: unknown; split: string } }>(panel.host, 'exampleEditor/ready', {});
    assert.equal(ready.state.example, null);
    assert.equal(ready.state.split, 'test');
    await ok(panel.host, 'exampleEditor/save', {
      base: null,
      draft: { inputs: { invoice_text: 'Umbrella Corp, GBP 99' }, outputs: { vendor: 'Umbrella Corp', total: 99 }, metadata: null, splits: ['test'] },
      attachments: noAttachments,
      force: false,
    });
    const made = await readExample(panel.key.exampleId);
    assert.deepEqual(made.metadata?.['dataset_split'], ['test']);
    assert.equal((await get<ExampleJson[]>(`/examples?dataset=${datasetId}`)).length, before + 1);
    // Leave the demo data as it was for the other suites.
    await raw('DELETE', `/examples/${made.id}`);
  });
});
