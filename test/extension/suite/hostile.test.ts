// Hostile server text in the real extension host: the corpus of test/harness/hostile.ts goes into every field of
// projects, runs, datasets, examples, splits, versions, prompts, commits, queues and feedback on the local server.
// Every row of the four trees is then checked as VS Code gets it (label, description, the tooltip resolved on
// hover): tooltips are untrusted Markdown without HTML in which server text is escaped (no live link, image or
// autolink survives), commands are the extension's own; documents of runs, examples and commits show the text
// verbatim (JSON and YAML); no command link was followed (the payloads aim at Sign Out). Then every host handler
// of every webview app gets malformed messages (wrong types, missing and extra fields, huge strings, __proto__ and
// constructor keys) and refuses each without touching the server. Last, pulling a prompt and exporting a dataset
// whose names are paths, device names or very long write only inside the chosen folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parse as parseYaml } from 'yaml';
import type * as z from 'zod/mini';
import type { PickOptions, Prompter } from '../../../src/common/prompter';
import type { WorkbenchApi } from '../../../src/extension';
import * as datasetDiff from '../../../src/protocol/datasetDiff';
import * as exampleEditor from '../../../src/protocol/exampleEditor';
import * as hello from '../../../src/protocol/hello';
import type { RequestType, ResponseMessage } from '../../../src/protocol/messages';
import * as playground from '../../../src/protocol/playground';
import * as promptCommit from '../../../src/protocol/promptCommit';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import type { WebviewHost } from '../../../src/webviews/webviewHost';
import { COMMAND_TARGET, HOSTILE, HOSTILE_FILE_NAMES, hostileManifest, insertHostile, comparable, type HostileItem, type HostileObjects } from '../../harness/hostile';
import { recordFigures } from '../../harness/report';
import { activateWorkbench, get, http, raw, serverAddress, shownMessages } from './support';

type AnyNode = TreeNode & Record<string, any>;
type ViewName = 'projects' | 'datasets' | 'prompts' | 'queues';

const EXTENSION_ID = 'langsmith-workbench.langsmith-workbench';
const REPORT = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, '.test-output', 'reliability.json');

/** Markdown source with its escapes and our own code spans (ids) taken out: what could still be syntax. */
function markdownSyntaxLeft(source: string): string {
  return source.replace(/\\[\s\S]/g, '').replace(/`[^`\n]*`/g, '');
}

/** What a person reads of escaped Markdown. */
function unescapeMarkdown(source: string): string {
  return source.replace(/\\([\s\S])/g, '$1');
}

/** Every string of a JSON value made comparable. */
const deepComparable = (x: unknown): unknown =>
  typeof x === 'string' ? comparable(x) : Array.isArray(x) ? x.map(deepComparable) : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([k, v]) => [comparable(k), deepComparable(v)])) : x;

/** Whether a text has control, direction or zero-width characters, or lone surrogates (a name that poses as another). */
function hasInvisible(text: string): boolean {
  return Array.from(text).some((ch) => {
    const c = ch.codePointAt(0)!;
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || (c >= 0xd800 && c <= 0xdfff);
  });
}

const labelOf = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

/** The whitespace-collapsed start of a value, as a one-line summary shows it. */
const start = (value: string, n = 24) => comparable(value).replace(/\s+/g, ' ').trim().slice(0, n);

/** A prompter that records what commands offer and ask, accepts the proposed file name and dismisses the rest. */
class RecordingPrompter implements Prompter {
  readonly saves: vscode.SaveDialogOptions[] = [];
  readonly picks: { options: PickOptions; items: vscode.QuickPickItem[] }[] = [];
  async input(): Promise<string | undefined> {
    return undefined;
  }
  async confirm(): Promise<boolean> {
    return false;
  }
  async pick<T extends vscode.QuickPickItem>(items: T[] | Promise<T[]>, options: PickOptions): Promise<T | undefined> {
    this.picks.push({ options, items: await items });
    return undefined;
  }
  async pickMany<T extends vscode.QuickPickItem>(): Promise<T[] | undefined> {
    return undefined;
  }
  async openFile(): Promise<vscode.Uri | undefined> {
    return undefined;
  }
  async saveFile(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    this.saves.push(options);
    return options.defaultUri;
  }
  async offerRetry(): Promise<boolean> {
    return false;
  }
}

describe('hostile server text in the extension host', function () {
  this.timeout(180_000);
  let workbench: WorkbenchApi;
  let objects: HostileObjects;
  const figures = {
    entries: HOSTILE.length,
    rowsChecked: 0,
    hostileRowFields: 0,
    markdownTooltips: 0,
    documentsChecked: 0,
    hostileDocumentFields: 0,
    liveLinks: 0,
    commandsFollowed: 0,
    malformedSent: 0,
    malformedRefused: 0,
    serverChanges: 0,
    filesWritten: 0,
    filesOutsideFolder: 0,
  };
  /** What to delete afterwards. */
  const cleanup: (() => Promise<unknown>)[] = [];

  const view = (name: ViewName) => workbench.views[name];
  /** A row as VS Code gets it: the item, then its tooltip resolved on hover. */
  const resolved = (name: ViewName, node: TreeNode) => view(name).provider.resolveTreeItem(view(name).provider.getTreeItem(node), node) as vscode.TreeItem;
  /** Children, with every "Load more" followed. */
  async function childrenOf(name: ViewName, node?: TreeNode): Promise<AnyNode[]> {
    let kids = (await view(name).provider.getChildren(node)) as AnyNode[];
    for (let i = 0; i < 50 && kids.at(-1)?.id.includes('/loadMore/'); i++) {
      await vscode.commands.executeCommand('langsmith.loadMore', kids.at(-1));
      kids = (await view(name).provider.getChildren(node)) as AnyNode[];
    }
    return kids;
  }

  before(async () => {
    workbench = await activateWorkbench();
    objects = await insertHostile(serverAddress);
    cleanup.push(async () => {
      for (const item of objects.items) {
        await raw('DELETE', `/sessions/${item.project.id}`);
        await raw('DELETE', `/datasets/${item.dataset.id}`);
        await raw('DELETE', `/repos/-/${item.prompt.handle}`);
        await raw('DELETE', `/annotation-queues/${item.queue.id}`);
      }
    });
    // The Prompts view shows just these prompts (their handles carry the tag). Projects and datasets are not
    // filtered by name: the server's name filter does not see past a NUL character (the control-chars entry).
    workbench.views.prompts.root.nameQuery = objects.tag;
    workbench.views.refreshAll();
  });

  after(async () => {
    workbench.views.prompts.root.nameQuery = undefined;
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
    workbench.views.refreshAll();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    recordFigures('extensionHostile', figures, REPORT);
  });

  /** Checks one row; returns the text a person reads in it (label, description, tooltip). */
  function checkRow(name: ViewName, node: AnyNode): string {
    const item = resolved(name, node);
    figures.rowsChecked++;
    const where = `${name} row ${node.id}`;
    const texts = [labelOf(item), typeof item.description === 'string' ? item.description : ''];
    const tooltip = item.tooltip;
    if (tooltip instanceof vscode.MarkdownString) {
      figures.markdownTooltips++;
      assert.ok(!tooltip.isTrusted, `${where}: the tooltip is trusted (command links would run)`);
      assert.ok(!tooltip.supportHtml, `${where}: the tooltip renders HTML`);
      const syntax = markdownSyntaxLeft(tooltip.value);
      const live = /[[\]<>]/.exec(syntax);
      if (live) figures.liveLinks++;
      assert.equal(live, null, `${where}: unescaped link, image or HTML syntax in the tooltip: ${tooltip.value.slice(0, 400)}`);
      texts.push(unescapeMarkdown(tooltip.value));
    } else if (tooltip !== undefined) {
      assert.equal(typeof tooltip, 'string', `${where}: a tooltip is Markdown or plain text`);
      texts.push(tooltip);
    }
    if (item.command) {
      assert.ok(item.command.command.startsWith('langsmith.'), `${where}: runs ${item.command.command}`);
      assert.ok((item.command.arguments ?? []).every((a) => a === node), `${where}: the command gets the node, nothing from the server`);
    }
    assert.equal(item.resourceUri, undefined, `${where}: no file URI`);
    return texts.join('\n');
  }

  /** Counts (and checks) that the row shows the text: `expect` are the values it must show, verbatim. */
  function shows(text: string, expect: string[], where: string) {
    for (const e of expect) {
      assert.ok(comparable(text).includes(comparable(e)), `${where} does not show ${JSON.stringify(e.slice(0, 80))}: ${JSON.stringify(text.slice(0, 300))}`);
      figures.hostileRowFields++;
    }
  }

  const itemOf = (pred: (i: HostileItem) => boolean) => objects.items.find(pred);

  it('shows every project, run and child run as text; tooltips escape it; nothing links', async () => {
    const ids = new Set(objects.items.map((i) => `project/${i.project.id}`));
    const projects = (await childrenOf('projects')).filter((n) => ids.has(n.id));
    assert.equal(projects.length, objects.items.length, 'each hostile project is listed');
    for (const project of projects) {
      const item = itemOf((i) => project.id === `project/${i.project.id}`)!;
      const v = item.entry.value;
      const text = checkRow('projects', project);
      shows(text, [comparable(`${v}${item.suffix}`), comparable(v)], `project ${item.entry.name}`);
      const runs = (await childrenOf('projects', project)).filter((n) => n.id.startsWith('run/'));
      assert.equal(runs.length, 2, `${item.entry.name}: two root runs`);
      for (const run of runs) {
        const runText = checkRow('projects', run);
        shows(runText, [comparable(`${v}${item.suffix}`), start(v)], `run ${item.entry.name}`);
        if (run.run.id === item.runs.failed) shows(runText, [comparable(v).slice(0, 300).replace(/[\ud800-\udbff]$/, '')], `failed run ${item.entry.name} (its error)`);
        for (const child of (await childrenOf('projects', run)).filter((n) => n.run)) {
          shows(checkRow('projects', child), [comparable(v)], `child run ${item.entry.name}`);
        }
      }
    }
  });

  it('shows every dataset, example, split and version tag as text', async () => {
    const ids = new Set(objects.items.map((i) => `dataset/${i.dataset.id}`));
    const datasets = (await childrenOf('datasets')).filter((n) => ids.has(n.id));
    assert.equal(datasets.length, objects.items.length, 'each hostile dataset is listed');
    for (const dataset of datasets) {
      const item = itemOf((i) => dataset.id === `dataset/${i.dataset.id}`)!;
      const v = item.entry.value;
      shows(checkRow('datasets', dataset), [comparable(`${v}${item.suffix}`), comparable(v)], `dataset ${item.entry.name}`);
      const kids = await childrenOf('datasets', dataset);
      const examples = kids.filter((n) => n.id.startsWith('example/'));
      assert.equal(examples.length, 2);
      for (const example of examples) shows(checkRow('datasets', example), [start(v, 20)], `example ${item.entry.name}`);
      const splits = await childrenOf('datasets', kids.find((n) => n.id.endsWith('/splits')));
      assert.deepEqual(splits.map((s) => comparable(labelOf(resolved('datasets', s)))), [comparable(v)], `${item.entry.name}: the split is named by the text`);
      splits.forEach((s) => checkRow('datasets', s));
      figures.hostileRowFields++;
      const versions = await childrenOf('datasets', kids.find((n) => n.id.endsWith('/versions')));
      const tagged = versions.map((n) => checkRow('datasets', n)).filter((t) => comparable(t).includes(comparable(v.slice(0, 200))));
      assert.ok(tagged.length >= 1, `${item.entry.name}: a version shows its tag`);
      figures.hostileRowFields++;
    }
  });

  it('shows every prompt and commit: description, readme tags and commit tags as text', async () => {
    const prompts = (await childrenOf('prompts')).filter((n) => n.id.startsWith('prompt/'));
    assert.equal(prompts.length, objects.items.length);
    for (const prompt of prompts) {
      const item = itemOf((i) => prompt.repo.repo_handle === i.prompt.handle)!;
      shows(checkRow('prompts', prompt), [comparable(item.entry.value)], `prompt ${item.entry.name}`);
      const commits = (await childrenOf('prompts', prompt)).filter((n) => n.id.includes('/commit/'));
      assert.equal(commits.length, 1);
      shows(checkRow('prompts', commits[0]!), [comparable(item.entry.value.slice(0, 200))], `commit ${item.entry.name} (its tag)`);
    }
    // The groups are rows too.
    for (const group of (await childrenOf('prompts')).filter((n) => !n.id.startsWith('prompt/'))) checkRow('prompts', group);
  });

  it('shows every annotation queue and its runs as text', async () => {
    const ids = new Set(objects.items.map((i) => `queue/${i.queue.id}`));
    const queues = (await childrenOf('queues')).filter((n) => ids.has(n.id));
    assert.equal(queues.length, objects.items.length);
    for (const queue of queues) {
      const item = itemOf((i) => queue.id === `queue/${i.queue.id}`)!;
      const v = item.entry.value;
      shows(checkRow('queues', queue), [comparable(`${v}${item.suffix}`), comparable(v), `Rubric: ${comparable(v)}`], `queue ${item.entry.name}`);
      const [mine] = await childrenOf('queues', queue);
      const runs = await childrenOf('queues', mine);
      assert.equal(runs.length, 2);
      for (const run of runs) shows(checkRow('queues', run), [comparable(`${v}${item.suffix}`)], `queue run ${item.entry.name}`);
    }
  });

  it('lists feedback comments as plain text in the picker', async () => {
    const projects = await childrenOf('projects');
    for (const item of objects.items) {
      const run = (await childrenOf('projects', projects.find((n) => n.id === `project/${item.project.id}`))).find((n) => n.id === `run/${item.runs.root}`)!;
      const prompter = new RecordingPrompter();
      const restore = workbench.setPrompter(prompter);
      try {
        await vscode.commands.executeCommand('langsmith.showFeedback', run);
      } finally {
        restore();
      }
      const entry = prompter.picks[0]?.items.find((i) => i.label === 'hostile');
      assert.ok(entry, `${item.entry.name}: the feedback is offered`);
      assert.ok(comparable(entry.detail ?? '').includes(start(item.entry.value, 20)), `${item.entry.name}: the comment is shown: ${entry.detail?.slice(0, 100)}`);
      figures.hostileRowFields++;
    }
  });

  it('opens runs, examples and commits as documents that hold the text verbatim', async () => {
    const open = async (command: string, node: AnyNode, ready: (t: string) => boolean) => {
      await vscode.commands.executeCommand(command, node);
      const end = Date.now() + 15_000;
      for (;;) {
        const doc = vscode.window.activeTextEditor?.document;
        if (doc?.uri.scheme === 'langsmith' && ready(doc.getText())) {
          figures.documentsChecked++;
          // The tab shows the path's last part: no control or direction characters from the server there.
          assert.ok(!hasInvisible(doc.uri.path), `a document's name carries invisible characters: ${JSON.stringify(doc.uri.path)}`);
          return doc.getText();
        }
        if (Date.now() > end) assert.fail(`${command} opened no document (active: ${doc?.uri.toString().slice(0, 200)}; shown: ${JSON.stringify(shownMessages().slice(-3))})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    /** Server JSON as the client keeps it: a key named __proto__ at the top of a record is not kept (see the report). */
    const withoutProto = (o: unknown) => {
      if (!o || typeof o !== 'object') return o;
      const copy = { ...(o as Record<string, unknown>) };
      delete copy['__proto__'];
      return copy;
    };
    const projects = await childrenOf('projects');
    for (const item of objects.items) {
      const v = comparable(item.entry.value);
      const runs = await childrenOf('projects', projects.find((n) => n.id === `project/${item.project.id}`));
      for (const id of [item.runs.root, item.runs.failed]) {
        const shown = JSON.parse(await open('langsmith.openRun', runs.find((n) => n.id === `run/${id}`)!, (t) => t.includes(id)));
        const server = await get<Record<string, unknown>>(`/runs/${id}`);
        assert.equal(shown.name, server['name'], `${item.entry.name}: run name`);
        assert.deepEqual(shown.inputs, withoutProto(server['inputs']), `${item.entry.name}: run inputs`);
        assert.deepEqual(shown.outputs ?? null, withoutProto(server['outputs']) ?? null, `${item.entry.name}: run outputs`);
        assert.equal(shown.error ?? null, server['error'] ?? null, `${item.entry.name}: run error`);
        if (id === item.runs.failed) assert.equal(comparable(shown.error), v, `${item.entry.name}: the error is whole`);
        else assert.equal(comparable(shown.inputs.text), v, `${item.entry.name}: an input is whole (${v.length} characters)`);
        figures.hostileDocumentFields += 4;
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      }
      const datasets = await childrenOf('datasets');
      const examples = (await childrenOf('datasets', datasets.find((n) => n.id === `dataset/${item.dataset.id}`))).filter((n) => n.id.startsWith('example/'));
      const example = JSON.parse(await open('langsmith.openExample', examples[0]!, (t) => t.includes(examples[0]!.example.id)));
      const server = await get<Record<string, Record<string, unknown>>>(`/examples/${examples[0]!.example.id}`);
      assert.deepEqual(example.inputs, server['inputs'], `${item.entry.name}: example inputs`);
      assert.deepEqual(example.outputs, server['outputs'], `${item.entry.name}: example outputs`);
      assert.equal(comparable(example.inputs.text), v, `${item.entry.name}: example input`);
      assert.equal(comparable(example.outputs.answer), v, `${item.entry.name}: example output`);
      assert.equal(comparable(example.metadata.note), v, `${item.entry.name}: example metadata`);
      figures.hostileDocumentFields += 3;
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

      const prompts = await childrenOf('prompts');
      const commit = (await childrenOf('prompts', prompts.find((n) => n.repo?.repo_handle === item.prompt.handle))).find((n) => n.id.includes('/commit/'))!;
      const manifest = JSON.parse(await open('langsmith.openCommitManifest', commit, (t) => t.startsWith('{')));
      assert.deepEqual(deepComparable(manifest.manifest), deepComparable(hostileManifest(item.entry.value)), `${item.entry.name}: the manifest as pushed`);
      const yaml = await open('langsmith.openCommit', commit, (t) => /^messages:/m.test(t));
      const strings: string[] = [];
      const collect = (x: unknown) => {
        if (typeof x === 'string') strings.push(x);
        else if (x && typeof x === 'object') Object.values(x).forEach(collect);
      };
      collect(parseYaml(yaml));
      assert.ok(strings.map(comparable).includes(v), `${item.entry.name}: the system template is in the prompt file verbatim`);
      assert.ok(strings.map(comparable).includes(`Q: ${v}`), `${item.entry.name}: the human template is in the prompt file verbatim`);
      figures.hostileDocumentFields += 3;
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('followed no link: still signed in, the connection works', async () => {
    const connection = await workbench.clients.connection.current();
    if (!connection.apiKey) figures.commandsFollowed++;
    assert.ok(connection.apiKey, `${COMMAND_TARGET} ran: signed out`);
    assert.equal(await workbench.clients.checkHealth(), 'connected');
  });

  describe('malformed messages to every host handler', () => {
    /** Ids no webview uses. */
    let nextId = 7_000_000;
    const send = (host: WebviewHost, message: unknown) => host.router.dispatch(message) as Promise<ResponseMessage | undefined>;
    let item: HostileItem;
    let promptFile: vscode.Uri;

    /** What the server holds that a handler could change. */
    async function fingerprint(): Promise<string> {
      const repo = await get<Record<string, unknown>>(`/repos/-/${item.prompt.handle}`);
      const counters = new Set(['num_downloads', 'num_views', 'updated_at', 'last_commit_hash']);
      return JSON.stringify([
        await get(`/examples?dataset=${item.dataset.id}`),
        await get(`/datasets/${item.dataset.id}/versions`),
        Object.fromEntries(Object.entries((repo as { repo?: Record<string, unknown> }).repo ?? repo).filter(([k]) => !counters.has(k))),
        await get(`/commits/-/${item.prompt.handle}/?limit=100`),
        await get(`/repos/-/${item.prompt.handle}/tags`),
        await http('POST', '/runs/query', { session: [item.project.id], limit: 100 }),
        (await get<{ name: string }[]>('/sessions?limit=1000')).map((s) => s.name).sort(),
      ]);
    }

    before(async () => {
      item = objects.items.find((i) => i.entry.name === 'markdown-link')!;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-hostile-'));
      const file = path.join(dir, `${item.prompt.handle}.prompt.yaml`);
      fs.writeFileSync(file, `prompt: ${item.prompt.handle}\ntemplate_format: f-string\nmessages:\n  - role: system\n    template: Hello {name}\n`);
      promptFile = vscode.Uri.file(file);
      cleanup.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    });

    after(async () => {
      for (const d of Object.values(Panels)) for (const p of workbench.panels.panelsOf(d)) p.host.dispose();
    });

    /** A valid example of each request's params: only the malformed variants made from it are sent. */
    function sample(method: string): Record<string, unknown> {
      const draft = { inputs: {}, outputs: null, metadata: null, splits: ['train'] };
      const samples: Record<string, Record<string, unknown>> = {
        'hello/ping': { message: 'hi' },
        'exampleEditor/save': { base: '2026-01-01T00:00:00.000000+00:00', draft, attachments: { add: [{ token: 't', name: 'n.txt' }], rename: { 'a.txt': 'b.txt' }, remove: ['c.txt'] }, force: false },
        'exampleEditor/showDiff': { draft },
        'exampleEditor/openAttachment': { name: 'x.txt' },
        'datasetDiff/page': { kinds: ['added'], search: '', offset: 0, limit: 10 },
        'datasetDiff/open': { exampleId: '00000000-0000-4000-8000-000000000001', how: 'diff' },
        'promptCommit/push': { parent: null, description: '', tags: ['v1'], create: { description: '', isPublic: false } },
        'promptCommit/openCommit': { hash: 'abc' },
        'promptCommit/revealFile': { line: 1, column: 1 },
        'playground/run': { values: { name: 'x' }, model: { model: '', temperature: null, maxTokens: null }, chat: false, followUp: 'y' },
        'playground/stop': { runId: 'x' },
        'playground/revealTrace': { runId: 'x' },
      };
      return samples[method] ?? {};
    }

    /** Malformed variants of a request's params, each with what makes it malformed. */
    function variants(method: string, schema: z.ZodMiniType): { what: string; params: unknown; mustRefuse: boolean }[] {
      const ok = sample(method);
      assert.ok(schema.safeParse(ok).success, `the sample of ${method} is valid`);
      const out: { what: string; params: unknown; mustRefuse: boolean }[] = [];
      for (const [what, params] of [['null', null], ['a number', 42], ['a string', 'params'], ['true', true], ['an array', [ok]], ['nothing', undefined]] as const) out.push({ what, params, mustRefuse: true });
      out.push({ what: 'an extra field', params: { ...ok, extra: 'x' }, mustRefuse: true });
      out.push({ what: 'a __proto__ key', params: JSON.parse(`{"__proto__": {"polluted": "yes"}${Object.keys(ok).length ? ',' : ''}${JSON.stringify(ok).slice(1)}`), mustRefuse: true });
      out.push({ what: 'a constructor key', params: JSON.parse(`{"constructor": {"prototype": {"polluted": "yes"}}${Object.keys(ok).length ? ',' : ''}${JSON.stringify(ok).slice(1)}`), mustRefuse: true });
      for (const [key, value] of Object.entries(ok)) {
        const without = { ...ok };
        delete without[key];
        out.push({ what: `without ${key}`, params: without, mustRefuse: false });
        const wrong = typeof value === 'string' ? 42 : typeof value === 'number' ? '1' : typeof value === 'boolean' ? 'true' : value === null ? { x: 1 } : Array.isArray(value) ? 'list' : 'object';
        out.push({ what: `${key} of the wrong type`, params: { ...ok, [key]: wrong }, mustRefuse: true });
        if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
          out.push({ what: `a __proto__ key in ${key}`, params: { ...ok, [key]: JSON.parse(`{"__proto__": {"polluted": "yes"}, ${JSON.stringify(value).slice(1)}`) }, mustRefuse: true });
        }
      }
      // A huge string in every string field (10 MB: beyond every limit a field has).
      const huge = 'x'.repeat(10_000_001);
      const strings = (value: unknown, at: (string | number)[]): (string | number)[][] =>
        typeof value === 'string' ? [at] : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => strings(v, [...at, Array.isArray(value) ? Number(k) : k])) : [];
      for (const at of strings(ok, [])) {
        const copy = structuredClone(ok) as Record<string | number, unknown>;
        let target = copy;
        for (const k of at.slice(0, -1)) target = target[k] as Record<string | number, unknown>;
        target[at.at(-1)!] = huge;
        out.push({ what: `a 10 MB ${at.join('.')}`, params: copy, mustRefuse: true });
      }
      return out.filter((v) => v.mustRefuse || !schema.safeParse(v.params).success);
    }

    async function hostsOfEveryApp(): Promise<Record<string, WebviewHost>> {
      await vscode.commands.executeCommand('langsmith.openHello');
      const versions = await get<{ as_of: string }[]>(`/datasets/${item.dataset.id}/versions`);
      const hosts: Record<string, WebviewHost> = {
        hello: workbench.panels.panelsOf(Panels.hello)[0]!.host,
        exampleEditor: await workbench.panels.show(Panels.exampleEditor, { datasetId: item.dataset.id, exampleId: item.examples[0]!, isNew: false }),
        datasetDiff: await workbench.panels.show(Panels.datasetDiff, {
          datasetId: item.dataset.id,
          datasetName: item.dataset.name.slice(0, 500),
          from: { asOf: versions.at(-1)!.as_of, label: 'first' },
          to: { asOf: versions[0]!.as_of, label: 'last' },
        }),
        promptCommit: await workbench.panels.show(Panels.promptCommit, { uri: promptFile.toString() }),
        playground: await workbench.panels.show(Panels.playground, { kind: 'commit', identifier: item.prompt.handle, commit: item.prompt.commit }),
      };
      for (const [app, host] of Object.entries(hosts)) assert.ok(host, `a ${app} panel is open`);
      return hosts;
    }

    it('every request handler of every app refuses malformed params (invalidParams) and the server is unchanged', async () => {
      const hosts = await hostsOfEveryApp();
      const protocols: Record<string, Record<string, unknown>> = { hello, exampleEditor, datasetDiff, promptCommit, playground };
      const before = await fingerprint();
      const accepted: string[] = [];
      let methods = 0;
      for (const [app, protocol] of Object.entries(protocols)) {
        const requests = Object.values(protocol).filter((x): x is RequestType<z.ZodMiniType, z.ZodMiniType> => !!x && typeof x === 'object' && (x as { kind?: unknown }).kind === 'request');
        assert.ok(requests.length >= 2, `${app} declares its requests`);
        for (const type of requests) {
          methods++;
          for (const variant of variants(type.method, type.params)) {
            const message: Record<string, unknown> = { kind: 'request', id: nextId++, method: type.method };
            if (variant.params !== undefined) message['params'] = variant.params;
            figures.malformedSent++;
            const answer = await send(hosts[app]!, message);
            // Params the schema refuses: invalidParams; a request without params is not a request at all: invalidMessage.
            if (answer && !answer.ok && answer.error.code === (variant.params === undefined ? 'invalidMessage' : 'invalidParams')) figures.malformedRefused++;
            else accepted.push(`${type.method} with ${variant.what}: ${JSON.stringify(answer)?.slice(0, 200)}`);
            // Only the schema's own words go back; never the 10 MB it was sent.
            if (answer && !answer.ok) assert.ok(answer.error.message.length < 2000, `${type.method}: a ${answer.error.message.length}-character error message`);
          }
        }
      }
      assert.deepEqual(accepted, [], 'malformed params that a handler accepted');
      assert.ok(methods >= 20, `${methods} request types`);
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype was polluted');
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
      const after = await fingerprint();
      if (after !== before) figures.serverChanges++;
      assert.equal(after, before, 'the server changed');
    });

    it('malformed envelopes, unknown methods and bad notifications are refused or dropped, never handled', async () => {
      const hosts = await hostsOfEveryApp();
      const before = await fingerprint();
      for (const [app, host] of Object.entries(hosts)) {
        const cases: [unknown, string | undefined][] = [
          [null, undefined],
          ['a string', undefined],
          [[{ kind: 'request', id: 1, method: `${app}/ready`, params: {} }], undefined],
          [{ kind: 'request', id: -1, method: `${app}/ready`, params: {} }, undefined],
          [{ kind: 'request', id: 1.5, method: `${app}/ready`, params: {} }, undefined],
          [{ kind: 'request', id: nextId++, method: `${app}/ready`, params: {}, extra: true }, 'invalidMessage'],
          [{ kind: 'request', id: nextId++, method: `${app}/${'x'.repeat(1_000_000)}`, params: {} }, 'invalidMessage'],
          [{ kind: 'request', id: nextId++, method: `${app}/nothingHere`, params: {} }, 'unknownMethod'],
          [{ kind: 'request', id: nextId++, method: '../../etc/passwd', params: {} }, 'invalidMessage'],
          [{ kind: 'request', id: nextId++, method: 'constructor/prototype', params: {} }, 'unknownMethod'],
          [{ kind: 'request', id: nextId++, method: '__proto__/x', params: {} }, 'invalidMessage'],
          [{ kind: 'response', id: nextId++, ok: true, result: {} }, undefined],
          [{ kind: 'notification', method: 'webview/cancel', params: { id: 'all' } }, undefined],
          [{ kind: 'notification', method: 'exampleEditor/draftState', params: { dirty: 'yes', draft: { inputs: 'x'.repeat(6_000_000) } } }, undefined],
          [{ kind: 'notification', method: 'nothing/here', params: {} }, undefined],
          [JSON.parse('{"kind": "notification", "method": "webview/cancel", "params": {"__proto__": {"polluted": "yes"}, "id": 1}}'), undefined],
        ];
        for (const [message, code] of cases) {
          figures.malformedSent++;
          const answer = await send(host, message);
          if (code === undefined) assert.equal(answer, undefined, `${app}: ${JSON.stringify(message)?.slice(0, 120)} was answered`);
          else {
            assert.ok(answer && !answer.ok, `${app}: ${JSON.stringify(message).slice(0, 120)} was accepted`);
            assert.equal(answer.error.code, code, `${app}: ${JSON.stringify(message).slice(0, 120)}`);
            assert.ok(answer.error.message.length < 2000, `${app}: a ${answer.error.message.length}-character error message`);
          }
          figures.malformedRefused++;
        }
      }
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype was polluted');
      assert.equal(await fingerprint(), before, 'the server changed');
    });
  });

  describe('names that are paths, device names or too long, on pull and export', () => {
    let folder: vscode.Uri;

    before(() => {
      const f = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(f, 'the test window has a workspace folder');
      folder = f;
    });

    /** The file was written inside the folder, under a name that stays there on every system. */
    function checkWritten(target: vscode.Uri, name: string) {
      const rel = path.relative(folder.fsPath, target.fsPath);
      const inside = !!rel && !rel.startsWith('..') && !path.isAbsolute(rel) && !rel.includes(path.sep);
      if (!inside) figures.filesOutsideFolder++;
      assert.ok(inside, `${JSON.stringify(name.slice(0, 60))} was written to ${target.fsPath}, not directly in ${folder.fsPath}`);
      const base = path.basename(target.fsPath);
      assert.ok(Buffer.byteLength(base) <= 255, `${base.length}-character file name`);
      assert.ok(!hasInvisible(base), `a file name with invisible characters: ${JSON.stringify(base)}`);
      assert.doesNotMatch(base, /^\.|^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i, `unsafe file name ${JSON.stringify(base)}`);
      assert.ok(fs.existsSync(target.fsPath), `${target.fsPath} was written`);
      figures.filesWritten++;
      fs.rmSync(target.fsPath, { force: true });
    }

    it('exports datasets with hostile names into files in the workspace folder', async () => {
      for (const name of HOSTILE_FILE_NAMES.filter((n) => n.length > 0)) {
        const created = await raw('POST', '/datasets', { name });
        const id: string = created.status < 300 ? created.body.id : (await get<{ id: string }[]>(`/datasets?name=${encodeURIComponent(name)}`))[0]!.id;
        cleanup.push(() => raw('DELETE', `/datasets/${id}`));
        view('datasets').refresh();
        const node = (await childrenOf('datasets')).find((n) => n.id === `dataset/${id}`);
        assert.ok(node, `the dataset ${JSON.stringify(name.slice(0, 40))} is listed`);
        const prompter = new RecordingPrompter();
        const restore = workbench.setPrompter(prompter);
        try {
          await vscode.commands.executeCommand('langsmith.exportDatasetForFineTuning', node);
        } finally {
          restore();
        }
        assert.equal(prompter.saves.length, 1, 'the save dialog was offered');
        checkWritten(prompter.saves[0]!.defaultUri!, name);
      }
    });

    it('pulls prompts with device names and very long names into files in the workspace folder', async () => {
      const suffix = objects.tag.replace(/[^a-z0-9]/gi, '');
      const handles = ['con', 'nul.txt', 'lpt1', 'com1.prompt', `a${'b'.repeat(299)}`, `x..${suffix}`];
      for (const handle of handles) {
        const created = await raw('POST', '/repos', { repo_handle: handle, description: '../../escape', is_public: false });
        assert.ok(created.status < 300 || created.status === 409, `repo ${handle}: ${created.status} ${created.text.slice(0, 200)}`);
        cleanup.push(() => raw('DELETE', `/repos/-/${handle}`));
        await http('POST', `/commits/-/${handle}`, { manifest: hostileManifest('Hello') });
        workbench.views.prompts.root.nameQuery = handle;
        view('prompts').refresh();
        const node = (await childrenOf('prompts')).find((n) => n.repo?.repo_handle === handle);
        assert.ok(node, `the prompt ${handle.slice(0, 40)} is listed`);
        const prompter = new RecordingPrompter();
        const restore = workbench.setPrompter(prompter);
        try {
          await vscode.commands.executeCommand('langsmith.pullPrompt', node);
        } finally {
          restore();
        }
        assert.equal(prompter.saves.length, 1, 'the save dialog was offered');
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        checkWritten(prompter.saves[0]!.defaultUri!, handle);
      }
      workbench.views.prompts.root.nameQuery = objects.tag;
    });
  });
});
