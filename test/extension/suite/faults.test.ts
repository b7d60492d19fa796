// The extension under faults, in the real extension host against the local server's fault switch
// (PUT /__local/faults): a server answering 503 to everything and one dropping every connection give each view
// one error row with a Retry action (never a broken or empty view), a nested list fails alone under its parent,
// Retry brings the rows back once the server is well; an example editor save that fails is refused with the
// reason, writes nothing and succeeds when sent again; and a server that accepts connections and never answers
// leaves the extension usable while its views wait.
//
// Not here: the error row of a never-answering server (it appears when the client gives up, after its 30 s timeout
// and two retries, about 90 s; the extension has no test-only way to shorten that).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import { activateWorkbench, get, hostCall, hostOk, http } from './support';

type AnyNode = TreeNode & Record<string, any>;
type ViewName = 'projects' | 'datasets' | 'prompts' | 'queues';
const VIEWS: ViewName[] = ['projects', 'datasets', 'prompts', 'queues'];
const VIEW_IDS: Record<ViewName, string> = { projects: 'langsmith.projects', datasets: 'langsmith.datasets', prompts: 'langsmith.prompts', queues: 'langsmith.annotationQueues' };

const pkg = JSON.parse(fs.readFileSync(path.join(vscode.extensions.getExtension('langsmith-workbench.langsmith-workbench')!.extensionPath, 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
};

/** Whether package.json puts Retry (Refresh) inline on a row with this context value in this view. */
function offersRetry(view: ViewName, contextValue: string): boolean {
  return pkg.contributes.menus['view/item/context']!.some((m) => {
    if (m.command !== 'langsmith.refreshItem' || !m.group?.startsWith('inline')) return false;
    return (m.when ?? '').split('&&').every((raw) => {
      const term = raw.trim();
      let k = /^view\s*==\s*(\S+)$/.exec(term);
      if (k) return k[1] === VIEW_IDS[view];
      k = /^view\s*=~\s*\/(.*)\/$/.exec(term);
      if (k) return new RegExp(k[1]!).test(VIEW_IDS[view]);
      k = /^viewItem\s*==\s*(\S+)$/.exec(term);
      if (k) return k[1] === contextValue;
      k = /^viewItem\s*=~\s*\/(.*)\/$/.exec(term);
      if (k) return new RegExp(k[1]!).test(contextValue);
      return false;
    });
  });
}

interface Silent {
  url: string;
  /** The connections it accepted and never answered. */
  held: net.Socket[];
  /** Drops every connection and stops listening. */
  close(): void;
}

/** A server that accepts connections and never says a word. */
async function silentServer(): Promise<Silent> {
  const held: net.Socket[] = [];
  const server = net.createServer((socket) => {
    held.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    held,
    close() {
      for (const s of held) s.destroy();
      server.close();
    },
  };
}

describe('the extension under faults', function () {
  this.timeout(120_000);
  let workbench: WorkbenchApi;
  const faults = (spec: string) => http('PUT', '/__local/faults', { faults: spec });
  const children = async (view: ViewName, node?: TreeNode) => (await workbench.views[view].provider.getChildren(node)) as AnyNode[];
  const label = (node: TreeNode) => {
    const l = node.treeItem().label;
    return typeof l === 'string' ? l : (l?.label ?? '');
  };

  /** The view's one error row, checked: what it says, where it leads, and that it offers Retry. */
  async function errorRow(view: ViewName, node: TreeNode | undefined, says: RegExp): Promise<AnyNode> {
    const kids = await children(view, node);
    const errors = kids.filter((n) => n.id.endsWith('/error'));
    assert.equal(errors.length, 1, `${view}: one error row among ${kids.map(label).join(' | ')}`);
    const row = errors[0]!;
    const item = row.treeItem();
    assert.match(label(row), /^Could not load: /, `${view}: ${label(row)}`);
    assert.match(label(row), says, `${view}: ${label(row)}`);
    assert.equal(typeof item.tooltip, 'string', 'the reason in full, as plain text');
    assert.equal(item.command?.command, 'langsmith.showLog', 'a click shows the log');
    assert.equal(item.contextValue, 'loadError');
    assert.ok(offersRetry(view, item.contextValue!), `${view}: the error row offers Retry`);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.None);
    return row;
  }

  before(async () => {
    workbench = await activateWorkbench();
  });

  afterEach(async () => {
    await faults('');
    await vscode.workspace.getConfiguration('langsmith').update('endpoint', undefined, vscode.ConfigurationTarget.Global);
    workbench.views.refreshAll();
  });

  it('503 on everything: each view shows one error row with Retry; Retry brings the rows back', async () => {
    await faults('503:1,retryAfter:0');
    workbench.views.refreshAll();
    const rows: Partial<Record<ViewName, AnyNode>> = {};
    for (const view of VIEWS) rows[view] = await errorRow(view, undefined, /503|unavailable/i);
    // The Prompts view keeps its groups above the error.
    assert.deepEqual((await children('prompts')).slice(0, 2).map(label), ['Public prompts', 'Archived prompts']);
    assert.equal(workbench.clients.health, 'connected', 'the server answers: the connection is fine, the lists are not');

    await faults('');
    for (const view of VIEWS) {
      await vscode.commands.executeCommand('langsmith.refreshItem', rows[view]);
      const kids = await children(view);
      assert.ok(!kids.some((n) => n.id.endsWith('/error')), `${view}: no error row after Retry`);
      assert.ok(kids.some((n) => /^(project|dataset|prompt|queue)\//.test(n.id)), `${view}: the rows are back`);
    }
  });

  it('a nested list that fails shows its error under its parent; Retry reloads that list only', async () => {
    const project = (await children('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
    assert.ok(project, 'the demo project is listed');
    const dataset = (await children('datasets')).find((d) => label(d) === 'demo-support-qa')!;
    await faults('503:1,retryAfter:0');
    workbench.views.projects.refresh(project);
    const row = await errorRow('projects', project, /503|unavailable/i);
    assert.equal(row.parent, project, 'the error row sits under the project');
    // Splits load on their own: their failure is their own row too.
    workbench.views.datasets.refresh(dataset);
    const splits = (await children('datasets', dataset)).find((n) => n.id.endsWith('/splits'))!;
    await errorRow('datasets', splits, /503|unavailable/i);
    // The rest of the view is still there.
    assert.ok((await children('projects')).some((p) => label(p) === 'demo-support-chatbot'), 'the project row stays');

    await faults('');
    await vscode.commands.executeCommand('langsmith.refreshItem', row);
    const runs = (await children('projects', project)).filter((n) => n.id.startsWith('run/'));
    assert.ok(runs.length > 0, 'Retry loaded the runs');
  });

  it('dropped connections: an error row, the connection shown offline, and back after Retry', async () => {
    await faults('reset:1');
    workbench.views.datasets.refresh();
    const row = await errorRow('datasets', undefined, /fetch failed|socket|reset|closed|network|terminated/i);
    assert.equal(workbench.clients.health, 'offline');
    await faults('');
    await vscode.commands.executeCommand('langsmith.refreshItem', row);
    assert.ok((await children('datasets')).some((d) => label(d) === 'demo-support-qa'));
    assert.equal(workbench.clients.health, 'connected');
  });

  it('an example editor save that fails (503) says why, writes nothing, and goes through when sent again', async () => {
    const [{ id: datasetId }] = await get<{ id: string }[]>('/datasets?name=demo-invoices');
    const [example] = await get<{ id: string; inputs: Record<string, unknown>; outputs: Record<string, unknown>; metadata: Record<string, unknown>; modified_at: string }[]>(`/examples?dataset=${datasetId}&limit=1`);
    const host = await workbench.panels.show(Panels.exampleEditor, { datasetId: datasetId!, exampleId: example!.id, isNew: false });
    try {
      const { dataset_split: split, ...metadata } = example!.metadata ?? {};
      const draft = { inputs: example!.inputs, outputs: example!.outputs, metadata: { ...metadata, reviewed_under_faults: true }, splits: Array.isArray(split) ? split : [] };
      const save = { base: example!.modified_at, draft, attachments: { add: [], rename: {}, remove: [] }, force: false };
      await faults('503:1,retryAfter:0');
      const refused = await hostCall(host, 'exampleEditor/save', save);
      assert.ok(!refused.ok, 'the save is refused');
      assert.equal(refused.error.code, 'requestFailed');
      assert.match(refused.error.message, /503|unavailable/i, `the reason is given: ${refused.error.message}`);
      await faults('');
      const unchanged = (await get<{ metadata: Record<string, unknown>; modified_at: string }[]>(`/examples?id=${example!.id}`))[0]!;
      assert.equal(unchanged.modified_at, example!.modified_at, 'nothing was written');
      assert.equal(unchanged.metadata['reviewed_under_faults'], undefined);
      // The webview keeps the draft (test/webview/exampleEditor.test.ts): sent again, it saves.
      const saved = await hostOk<{ status: string }>(host, 'exampleEditor/save', save);
      assert.equal(saved.status, 'saved');
      const now = (await get<{ metadata: Record<string, unknown>; modified_at: string }[]>(`/examples?id=${example!.id}`))[0]!;
      assert.equal(now.metadata['reviewed_under_faults'], true);
      // Put it back as it was.
      await hostOk(host, 'exampleEditor/save', { ...save, base: now.modified_at, draft: { ...draft, metadata: Object.keys(metadata).length ? metadata : null } });
    } finally {
      host.dispose();
    }
  });

  it('a server that accepts connections and never answers: the extension stays usable, Refresh is not stuck behind it, and a dropped wait ends in an error row', async () => {
    const config = vscode.workspace.getConfiguration('langsmith');
    const silent: Silent[] = [];
    const useSilent = async () => {
      const server = await silentServer();
      silent.push(server);
      // A key of its own for that endpoint (the environment's key never goes to another endpoint).
      await workbench.secrets.store(`langsmith.apiKey:${server.url}`, 'key-for-the-silent-server');
      await config.update('endpoint', server.url, vscode.ConfigurationTarget.Global);
      workbench.views.datasets.refresh();
      let settled = false;
      const waiting = workbench.views.datasets.provider.getChildren().then((kids) => {
        settled = true;
        return kids as AnyNode[];
      });
      for (let i = 0; i < 50 && server.held.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(server.held.length > 0, 'the view asked the silent server');
      return { server, waiting, settled: () => settled };
    };
    try {
      // 1. While a view waits, everything else answers at once: commands, a panel's requests.
      const first = await useSilent();
      const t0 = Date.now();
      await vscode.commands.executeCommand('langsmith.openHello');
      const hello = workbench.panels.panelsOf(Panels.hello)[0]!.host;
      const ping = await hostOk<{ connection: { endpoint: string } }>(hello, 'hello/ping', { message: 'still there?' });
      assert.equal(ping.connection.endpoint, first.server.url);
      await vscode.commands.executeCommand('langsmith.toggleErrorsOnly');
      await vscode.commands.executeCommand('langsmith.toggleErrorsOnly');
      assert.ok(Date.now() - t0 < 5_000, `the extension answered in ${Date.now() - t0} ms while a view waited`);
      assert.equal(first.settled(), false, 'the view is still waiting for the silent server');
      hello.dispose();

      // 2. Back to a working endpoint while the request still hangs: the view loads at once, not after the hang.
      await config.update('endpoint', undefined, vscode.ConfigurationTarget.Global);
      const back = await Promise.race([children('datasets'), new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
      assert.ok(back, 'the view loaded again without waiting for the silent server');
      assert.ok(back.some((d) => label(d) === 'demo-support-qa'), 'the datasets are back');
      first.server.close();
      const superseded = await Promise.race([first.waiting, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
      assert.ok(superseded, 'the superseded wait ended once the connection dropped');

      // 3. A view left waiting on a silent server whose connections then drop: an error row with Retry, not a hang.
      const second = await useSilent();
      second.server.close();
      const kids = await Promise.race([second.waiting, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
      assert.ok(kids, 'the wait ended once the connection dropped');
      assert.ok(kids.some((n) => n.id.endsWith('/error')), `it ended in an error row: ${kids.map(label).join(' | ')}`);
      await errorRow('datasets', undefined, /fetch failed|socket|reset|closed|network|terminated|ECONNREFUSED|other side/i);
    } finally {
      for (const server of silent) {
        server.close();
        await workbench.secrets.delete(`langsmith.apiKey:${server.url}`);
      }
      await config.update('endpoint', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
