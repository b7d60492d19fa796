// The dataset version diff, end to end in the extension host against the local server's demo data: "Compare
// Versions…" with scripted picks opens the panel; the panel's handlers (reached through its router, as the webview
// reaches them) answer the server's diff with field-level changes, validate what they are sent, cancel a page
// request, and open an example's two versions in the diff editor; a restored panel's key is checked.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { DatasetDiffKey, DatasetDiffState, DiffRow } from '../../../src/protocol/datasetDiff';
import type { ResponseMessage } from '../../../src/protocol/messages';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import type { WebviewHost } from '../../../src/webviews/webviewHost';
import { ScriptedPrompter, type Answer } from './scriptedPrompter';
import { activateWorkbench, get, http, runScripted, raw } from './support';

type AnyNode = TreeNode & Record<string, any>;
interface Version {
  as_of: string;
  tags: string[];
}
interface ServerDiff {
  examples_added: string[];
  examples_removed: string[];
  examples_modified: string[];
}
interface PageAnswer {
  offset: number;
  total: number;
  rows: DiffRow[];
}

const TITLE = 'demo-support-qa: v1 → prod';

describe('dataset version diff', function () {
  this.timeout(60_000);
  let workbench: WorkbenchApi;
  let dataset: { id: string; name: string };
  let versions: Version[];
  let serverDiff: ServerDiff;
  /** Ids the webview's own requests never use. */
  let nextId = 900_000;

  const run = (answers: Answer[], ...args: unknown[]) => runScripted(workbench, 'langsmith.compareDatasetVersions', new ScriptedPrompter(answers), ...args);
  const diffPanels = () => workbench.panels.panelsOf<DatasetDiffKey>(Panels.datasetDiff);
  const panel = (): { key: DatasetDiffKey; host: WebviewHost } => {
    const open = diffPanels();
    assert.equal(open.length, 1, 'one diff panel is open');
    return open[0]!;
  };
  const request = (method: string, params: unknown) => panel().host.router.dispatch({ kind: 'request', id: nextId++, method, params }) as Promise<ResponseMessage>;
  const ok = <T>(answer: ResponseMessage | undefined): T => {
    assert.ok(answer?.ok, `expected an answer, got ${JSON.stringify(answer)}`);
    return answer.result as T;
  };
  const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  const datasetNode = async () => {
    const node = (await workbench.views.datasets.provider.getChildren()).find((n) => n.id === `dataset/${dataset.id}`);
    assert.ok(node, 'demo-support-qa is in the Datasets view');
    return node as AnyNode;
  };
  const waitFor = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(check(), `timed out waiting for ${what}`);
  };

  before(async () => {
    workbench = await activateWorkbench();
    [dataset] = await get<{ id: string; name: string }[]>('/datasets?name=demo-support-qa');
    assert.ok(dataset, 'the demo seed has demo-support-qa');
    versions = await get<Version[]>(`/datasets/${dataset.id}/versions`);
    serverDiff = await get<ServerDiff>(`/datasets/${dataset.id}/versions/diff?from_version=v1&to_version=prod`);
    assert.ok(serverDiff.examples_added.length && serverDiff.examples_removed.length && serverDiff.examples_modified.length, 'the demo diff has every kind');
  });

  after(async () => {
    for (const p of diffPanels()) p.host.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens the diff of two versions picked by tag from the dataset, the previous version suggested first', async () => {
    const { script, errors } = await run([{ pick: 'v1' }, { pick: 'prod' }], await datasetNode());
    assert.deepEqual(errors, []);
    assert.equal(script.asked.length, 2);
    const [firstOffer, secondOffer] = script.offered;
    // Newest first, the suggestion (the version before the latest) on top, then any date and time.
    assert.ok(firstOffer![0]!.includes(versions[1]!.tags[0] ?? versions[1]!.as_of), `first offered: ${firstOffer![0]}`);
    assert.ok(firstOffer!.some((l) => l.includes('prod')) && firstOffer!.some((l) => l.includes('v1')));
    assert.match(firstOffer!.at(-1)!, /A date and time/);
    assert.ok(secondOffer![0]!.includes(versions[0]!.tags[0] ?? versions[0]!.as_of), 'the latest is suggested to compare with');
    assert.ok(!secondOffer!.some((l) => l.endsWith(' v1')), 'the version picked first is not offered again');

    await waitFor(() => tabs().some((t) => t.label === TITLE), `a tab titled ${TITLE}`);
    const tab = tabs().find((t) => t.label === TITLE)!;
    assert.ok(tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('langsmith.datasetDiff'), 'the tab is the diff webview');
    const v1 = versions.find((v) => v.tags.includes('v1'))!;
    const prod = versions.find((v) => v.tags.includes('prod'))!;
    assert.deepEqual(panel().key, { datasetId: dataset.id, datasetName: 'demo-support-qa', from: { asOf: v1.as_of, label: 'v1' }, to: { asOf: prod.as_of, label: 'prod' } });
  });

  it('loads its webview in VS Code, which asks for its state and its first rows', async () => {
    const { host } = panel();
    const seen: string[] = [];
    const dispatch = host.router.dispatch.bind(host.router);
    host.router.dispatch = async (raw: unknown) => {
      const method = (raw as { method?: unknown }).method;
      if (typeof method === 'string') seen.push(method);
      return dispatch(raw);
    };
    try {
      await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
      await waitFor(() => seen.includes('datasetDiff/page'), 'the webview’s page request');
      assert.equal(seen[0], 'datasetDiff/ready');
    } finally {
      host.router.dispatch = dispatch;
    }
  });

  it('answers ready with the counts of the server’s diff', async () => {
    const answer = ok<{ restore: unknown; state: DatasetDiffState }>(await request('datasetDiff/ready', {}));
    assert.deepEqual(answer.state.counts, { added: serverDiff.examples_added.length, removed: serverDiff.examples_removed.length, modified: serverDiff.examples_modified.length });
    assert.deepEqual(answer.state.dataset, { id: dataset.id, name: 'demo-support-qa' });
    assert.deepEqual(answer.restore, panel().key);
  });

  it('serves pages of rows with field-level changes, filtered by kind and search', async () => {
    const all = ok<PageAnswer>(await request('datasetDiff/page', { kinds: ['added', 'removed', 'modified'], search: '', offset: 0, limit: 50 }));
    const expected = [...serverDiff.examples_added, ...serverDiff.examples_removed, ...serverDiff.examples_modified];
    assert.equal(all.total, expected.length);
    assert.deepEqual(all.rows.map((r) => r.id), expected, 'added, removed, then modified');

    const added = all.rows.find((r) => r.kind === 'added')!;
    assert.deepEqual(added.changes.find((c) => c.path === 'inputs.question'), { path: 'inputs.question', op: 'added', before: null, after: 'How do I enable two-factor authentication?' });
    assert.ok(added.changes.some((c) => c.path === 'split' && c.after === 'train'), 'the split is a field of its own');
    assert.ok(!added.changes.some((c) => c.path.startsWith('metadata.dataset_split')), 'not repeated in metadata');
    const removed = all.rows.find((r) => r.kind === 'removed')!;
    assert.ok(removed.changes.length > 0 && removed.changes.every((c) => c.op === 'removed' && c.after === null));
    for (const row of all.rows.filter((r) => r.kind === 'modified')) {
      assert.equal(row.changes.length, 1, JSON.stringify(row.changes));
      const [change] = row.changes;
      assert.equal(change!.path, 'outputs.answer');
      assert.equal(change!.op, 'changed');
      assert.equal(change!.after, `${change!.before} (reviewed)`);
      // The stretch around the change: a short value whole, the same on both sides up to the added words.
      assert.equal(change!.around?.offset, 0);
      assert.equal(change!.around?.after, `${change!.around?.before} (reviewed)`);
      assert.equal(change!.around?.more, false);
    }

    const second = ok<PageAnswer>(await request('datasetDiff/page', { kinds: ['modified', 'added', 'removed'], search: '', offset: 2, limit: 2 }));
    assert.deepEqual(second.rows.map((r) => r.id), expected.slice(2, 4));
    const modified = ok<PageAnswer>(await request('datasetDiff/page', { kinds: ['modified'], search: '', offset: 0, limit: 50 }));
    assert.deepEqual(modified.rows.map((r) => r.id), serverDiff.examples_modified);
    const search = ok<PageAnswer>(await request('datasetDiff/page', { kinds: ['added', 'removed', 'modified'], search: 'TWO-FACTOR', offset: 0, limit: 50 }));
    assert.ok(search.rows.some((r) => r.id === added.id), 'the search finds the added example');
    assert.ok(search.total < expected.length);
    const reviewed = ok<PageAnswer>(await request('datasetDiff/page', { kinds: ['added', 'removed', 'modified'], search: '(reviewed)', offset: 0, limit: 50 }));
    assert.deepEqual(reviewed.rows.map((r) => r.id), serverDiff.examples_modified);
    const none = ok<PageAnswer>(await request('datasetDiff/page', { kinds: [], search: '', offset: 0, limit: 50 }));
    assert.deepEqual(none, { offset: 0, total: 0, rows: [] });
  });

  it('refuses malformed requests with invalidParams, before any handler runs', async () => {
    for (const params of [
      { kinds: ['bogus'], search: '', offset: 0, limit: 50 },
      { kinds: ['added'], search: '', offset: -1, limit: 50 },
      { kinds: ['added'], search: '', offset: 0, limit: 100_000 },
      { kinds: ['added'], search: 5, offset: 0, limit: 50 },
      { kinds: ['added'], search: '', offset: 0, limit: 50, extra: true },
      'page 1',
    ]) {
      const answer = await request('datasetDiff/page', params);
      assert.equal(answer.ok, false, JSON.stringify(params));
      assert.equal(!answer.ok && answer.error.code, 'invalidParams', JSON.stringify(params));
    }
    const notAnId = await request('datasetDiff/open', { exampleId: '../etc/passwd', how: 'diff' });
    assert.equal(!notAnId.ok && notAnId.error.code, 'invalidParams');
    const badHow = await request('datasetDiff/open', { exampleId: serverDiff.examples_added[0], how: 'delete' });
    assert.equal(!badHow.ok && badHow.error.code, 'invalidParams');
    const stranger = await request('datasetDiff/open', { exampleId: '00000000-0000-4000-8000-000000000000', how: 'diff' });
    assert.deepEqual(!stranger.ok && stranger.error, { code: 'invalidParams', message: 'That example is not part of this diff.' });
    const editRemoved = await request('datasetDiff/open', { exampleId: serverDiff.examples_removed[0], how: 'edit' });
    assert.deepEqual(!editRemoved.ok && editRemoved.error, { code: 'invalidParams', message: 'That example was removed in prod: there is nothing to edit.' });
    const unknown = await request('datasetDiff/delete', {});
    assert.equal(!unknown.ok && unknown.error.code, 'unknownMethod');
  });

  it('cancels a page request when the webview says so', async () => {
    // A ready empties the host's caches, so the page has to be fetched again: it is in flight when cancelled.
    ok(await request('datasetDiff/ready', {}));
    const id = nextId++;
    const { host } = panel();
    const answer = host.router.dispatch({ kind: 'request', id, method: 'datasetDiff/page', params: { kinds: ['added', 'removed', 'modified'], search: 'password', offset: 0, limit: 50 } });
    await host.router.dispatch({ kind: 'notification', method: 'webview/cancel', params: { id } });
    assert.deepEqual(await answer, { kind: 'response', id, ok: false, error: { code: 'cancelled', message: 'Cancelled.' } });
    // The panel still answers afterwards.
    assert.equal(ok<PageAnswer>(await request('datasetDiff/page', { kinds: ['modified'], search: '', offset: 0, limit: 50 })).total, serverDiff.examples_modified.length);
  });

  it('opens a modified example’s two versions in the diff editor', async () => {
    const exampleId = serverDiff.examples_modified[0]!;
    ok(await request('datasetDiff/open', { exampleId, how: 'diff' }));
    const title = `Example ${exampleId.slice(0, 8)}: v1 ↔ prod`;
    await waitFor(() => tabs().some((t) => t.label === title), `a diff tab titled ${title}`);
    const input = tabs().find((t) => t.label === title)!.input;
    assert.ok(input instanceof vscode.TabInputTextDiff);
    assert.equal(input.original.scheme, 'langsmith');
    const [before, after] = await Promise.all([vscode.workspace.openTextDocument(input.original), vscode.workspace.openTextDocument(input.modified)]);
    const old = JSON.parse(before.getText()) as { id: string; outputs: { answer: string } };
    const now = JSON.parse(after.getText()) as { id: string; outputs: { answer: string } };
    assert.equal(old.id, exampleId);
    assert.equal(now.outputs.answer, `${old.outputs.answer} (reviewed)`);

    // An added example did not exist at v1: the left side is null.
    ok(await request('datasetDiff/open', { exampleId: serverDiff.examples_added[0], how: 'diff' }));
    const addedTitle = `Example ${serverDiff.examples_added[0]!.slice(0, 8)}: v1 ↔ prod`;
    await waitFor(() => tabs().some((t) => t.label === addedTitle), 'the added example’s diff');
    const added = tabs().find((t) => t.label === addedTitle)!.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(added.original)).getText(), 'null\n');
  });

  it('suggests a clicked version against the latest, and shows the same pair in the same panel', async () => {
    const versionsNode = ((await workbench.views.datasets.provider.getChildren(await datasetNode())) as AnyNode[]).find((n) => n.id.endsWith('/versions'))!;
    const v1 = ((await workbench.views.datasets.provider.getChildren(versionsNode)) as AnyNode[]).find((n) => n.version?.tags?.includes('v1'))!;
    assert.ok(v1, 'the v1 version node');
    const { script, errors } = await run([{ pick: 'v1' }, { pick: 'prod' }], v1);
    assert.deepEqual(errors, []);
    assert.match(script.offered[0]![0]!, /v1/);
    assert.match(script.offered[1]![0]!, /prod/);
    assert.equal(diffPanels().length, 1, 'the same versions reuse their panel');
  });

  it('asks for the dataset from the palette; dismissing a question ends quietly', async () => {
    const { script, errors } = await run([{ pick: 'demo-support-qa' }, { dismiss: true }]);
    assert.deepEqual(errors, []);
    assert.equal(script.asked.length, 2);
    assert.equal(diffPanels().length, 1, 'nothing new opened');
  });

  it('says so when a dataset has nothing to compare', async () => {
    const created = await http<{ id: string }>('POST', '/datasets', { name: 'ext-diff-no-versions' });
    try {
      const { errors } = await run([{ pick: 'ext-diff-no-versions' }]);
      assert.equal(errors.length, 1);
      assert.match(errors[0]!, /^“ext-diff-no-versions” has (no versions|one version): there is nothing to compare yet\.$/);
    } finally {
      await raw('DELETE', `/datasets/${created.id}`);
    }
  });

  it('restores a panel from its key and refuses anything else', async () => {
    const app = await Panels.datasetDiff.load();
    const key = panel().key;
    assert.deepEqual(app.parseKey(JSON.parse(JSON.stringify(key))), key);
    assert.equal(app.keyId(key), app.keyId(app.parseKey(JSON.parse(JSON.stringify(key)))!));
    assert.equal(app.title(key), TITLE);
    // An untagged version (its label a timestamp) is titled with a readable date and time, not ISO 8601.
    const untagged = app.title({ ...key, from: { asOf: '2026-11-27T11:12:14.000Z', label: '2026-11-27T11:12:14.000Z' } });
    assert.match(untagged, /^demo-support-qa: .*2026.* → prod$/);
    assert.doesNotMatch(untagged, /T11:12|\.000Z/);
    for (const junk of [
      undefined,
      null,
      'demo-support-qa',
      {},
      { datasetId: key.datasetId },
      { ...key, datasetId: 'not-a-uuid' },
      { ...key, from: { asOf: '', label: 'v1' } },
      { ...key, to: 'prod' },
      { ...key, extra: 1 },
    ]) {
      assert.equal(app.parseKey(junk), undefined, JSON.stringify(junk));
    }
  });
});
