// Prompt files in the real extension host against the local server: pull a demo prompt into a file, problems
// appear while typing and clear, the commit panel's host pushes (new prompt, update, nothing to commit, stale
// parent, another workspace's prompt), tags move, environments are promoted, and comparisons open VS Code's
// diff editor with the commit rendered as a prompt file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { promptFileLocation } from '../../../src/commands/promptFileCommands';
import type { WorkbenchApi } from '../../../src/extension';
import type { PromptCommitKey, PromptCommitState, PushResult } from '../../../src/protocol/promptCommit';
import type { TreeNode } from '../../../src/views/treeNode';
import { Panels } from '../../../src/webviews/descriptors';
import type { WebviewHost } from '../../../src/webviews/webviewHost';
import { ScriptedPrompter } from './scriptedPrompter';
import { activateWorkbench, eventuallyText, get, http, runScripted, hostCall, hostOk, raw } from './support';

interface CommitJson {
  id: string;
  commit_hash: string;
  parent_commit_hash: string | null;
}
interface TagJson {
  tag_name: string;
  commit_hash: string;
}

type AnyNode = TreeNode & Record<string, any>;

const chat = (system: string, human: string) => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain_core', 'prompts', 'chat', 'ChatPromptTemplate'],
  kwargs: {
    input_variables: ['topic'],
    messages: [
      { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'SystemMessagePromptTemplate'], kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { input_variables: [], template: system, template_format: 'f-string' } } } },
      { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'chat', 'HumanMessagePromptTemplate'], kwargs: { prompt: { lc: 1, type: 'constructor', id: ['langchain_core', 'prompts', 'prompt', 'PromptTemplate'], kwargs: { input_variables: ['topic'], template: human, template_format: 'f-string' } } } },
    ],
  },
});

describe('prompt files', function () {
  let workbench: WorkbenchApi;
  let dir: string;
  const suffix = Math.random().toString(36).slice(2, 8);

  const call = hostCall;
  const ok = hostOk;
  const commits = async (name: string, owner = '-') => (await get<{ commits: CommitJson[] }>(`/commits/${owner}/${name}/?limit=100`)).commits;
  const tags = async (name: string) => get<TagJson[]>(`/repos/-/${name}/tags`);
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return vscode.Uri.file(file);
  };
  const panelFor = async (uri: vscode.Uri) => {
    await vscode.commands.executeCommand('langsmith.pushPromptFile', uri);
    const panel = workbench.panels.panelsOf<PromptCommitKey>(Panels.promptCommit).find((p) => p.key.uri === uri.toString());
    assert.ok(panel, `no commit panel for ${uri.toString()}`);
    return panel.host;
  };
  const ready = async (host: WebviewHost) => (await ok<{ state: PromptCommitState }>(host, 'promptCommit/ready', {})).state;
  const push = (host: WebviewHost, params: Partial<{ parent: string | null; description: string; tags: string[]; create: { description: string; isPublic: boolean } | null }>) =>
    ok<PushResult>(host, 'promptCommit/push', { parent: null, description: '', tags: [], create: null, ...params });
  const diagnostics = async (uri: vscode.Uri, check: (d: readonly vscode.Diagnostic[]) => boolean) => {
    const end = Date.now() + 10_000;
    for (;;) {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'LangSmith');
      if (check(d)) return d;
      if (Date.now() > end) assert.fail(`diagnostics never matched: ${JSON.stringify(d.map((x) => x.message))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const edit = async (uri: vscode.Uri, from: string, to: string) => {
    const doc = await vscode.workspace.openTextDocument(uri);
    const at = doc.getText().indexOf(from);
    assert.ok(at >= 0, `“${from}” is not in the file`);
    const e = new vscode.WorkspaceEdit();
    e.replace(uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + from.length)), to);
    assert.ok(await vscode.workspace.applyEdit(e));
    return doc;
  };
  const promptNode = async (name: string): Promise<AnyNode> => {
    const view = workbench.views.prompts;
    view.refresh();
    const kids = (await view.provider.getChildren(undefined)) as AnyNode[];
    const node = kids.find((k) => k.repo?.repo_handle === name);
    assert.ok(node, `${name} is not in the Prompts tree`);
    return node;
  };
  const commitNodes = async (name: string) => (await workbench.views.prompts.provider.getChildren(await promptNode(name))) as AnyNode[];

  before(async () => {
    workbench = await activateWorkbench();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-prompts-'));
  });

  afterEach(async () => {
    for (const p of workbench.panels.panelsOf(Panels.promptCommit)) p.host.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('pulls a demo prompt from the tree into a new prompt file that pushes as nothing to commit', async () => {
    const target = vscode.Uri.file(path.join(dir, 'summarizer.prompt.yaml'));
    const run = await runScripted(workbench, 'langsmith.pullPrompt', new ScriptedPrompter([{ file: target }]), await promptNode('demo-summarizer'));
    assert.deepEqual(run.errors, []);
    const text = fs.readFileSync(target.fsPath, 'utf8');
    assert.match(text, /^prompt: demo-summarizer$/m);
    assert.match(text, /^ {2}- role: system$/m);
    assert.match(text, /Keep product names\./);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, target.fsPath, 'the pulled file opens');
    const host = await panelFor(target);
    const state = await ready(host);
    assert.equal(state.local.problems.filter((p) => p.severity === 'error').length, 0);
    assert.deepEqual(state.local.variables.sort(), ['max_words', 'ticket']);
    assert.equal(state.remote?.exists, true);
    assert.deepEqual(state.changes, [], 'an unchanged pull changes nothing');
    const before = await commits('demo-summarizer');
    const result = await push(host, { parent: state.remote!.latest!.hash });
    assert.equal(result.status, 'nothingToCommit');
    assert.equal((await commits('demo-summarizer')).length, before.length, 'no commit was made');
  });

  it('pulls again into a changed file asking once (the save dialog’s own overwrite question), and proposes where prompt files are', async () => {
    const target = vscode.Uri.file(path.join(dir, `again-${Date.now()}.prompt.yaml`));
    let run = await runScripted(workbench, 'langsmith.pullPrompt', new ScriptedPrompter([{ file: target }]), await promptNode('demo-summarizer'));
    assert.deepEqual(run.errors, []);
    // The user changes the pulled file and saves it.
    const doc = await edit(target, 'Keep product names.', 'Keep product names and versions.');
    assert.ok(await doc.save());
    // Only the file is scripted: a second question (“Replace…?”) would fail the run as unscripted.
    const again = new ScriptedPrompter([{ file: target }]);
    run = await runScripted(workbench, 'langsmith.pullPrompt', again, await promptNode('demo-summarizer'));
    assert.deepEqual(run.errors, []);
    assert.equal(again.asked.length, 1, `asked once: ${again.asked.join(' | ')}`);
    assert.match(fs.readFileSync(target.fsPath, 'utf8'), /Keep product names\./, 'the file holds the pulled prompt again');
    assert.doesNotMatch(fs.readFileSync(target.fsPath, 'utf8'), /and versions/);

    // Where the dialog opens: the prompt's own file, else the folder with most prompt files, else the workspace.
    const ws = vscode.Uri.file('/ws');
    const files = ['/ws/prompts/a.prompt.yaml', '/ws/prompts/b.prompt.yaml', '/ws/x.prompt.yaml', '/ws/deep/x.prompt.yaml'].map((f) => vscode.Uri.file(f));
    assert.equal(promptFileLocation(files, ws, 'c.prompt.yaml').path, '/ws/prompts/c.prompt.yaml');
    assert.equal(promptFileLocation(files, ws, 'x.prompt.yaml').path, '/ws/x.prompt.yaml');
    assert.equal(promptFileLocation([], ws, 'c.prompt.yaml').path, '/ws/c.prompt.yaml');
  });

  it('shows template problems while typing, at their place, and clears them', async () => {
    const uri = write(`typing-${suffix}.prompt.yaml`, 'prompt: typing\ntemplate_format: f-string\ninput_variables: [topic]\nmessages:\n  - role: human\n    template: Tell me about {topic}\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await diagnostics(uri, (d) => d.length === 0);
    await edit(uri, 'about {topic}', 'about {topic');
    const [unclosed] = await diagnostics(uri, (d) => d.some((x) => x.message === "Unclosed '{' in template."));
    assert.equal(doc.getText(unclosed!.range), '{');
    assert.equal(unclosed!.severity, vscode.DiagnosticSeverity.Error);
    await edit(uri, 'about {topic', 'about {topic} and {extra}');
    const [undeclared] = await diagnostics(uri, (d) => d.length === 1 && /“extra” is used/.test(d[0]!.message));
    assert.equal(doc.getText(undeclared!.range), 'extra');
    await edit(uri, 'role: human', 'role: user');
    await diagnostics(uri, (d) => d.some((x) => /Unknown role “user” \(use human\)/.test(x.message)));
    await edit(uri, 'role: user', 'role: human');
    await edit(uri, ' and {extra}', '');
    await diagnostics(uri, (d) => d.length === 0);
    // Hover names where a variable is used; completion offers the declared variables inside a template.
    const at = doc.positionAt(doc.getText().indexOf('{topic}') + 2);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, at);
    // Text in Markdown comes escaped (brackets, parentheses, spaces as &nbsp;); read it as the user does.
    const hoverText = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : String((c as { value?: unknown }).value ?? '')))).join('\n').replace(/\\/g, '').replace(/&nbsp;/g, ' ');
    assert.match(hoverText, /Used in messages\[1\] \(human\), line 6/, `hover at ${at.line}:${at.character}`);
    await edit(uri, 'about {topic}', 'about {topic} {');
    const pos = doc.positionAt(doc.getText().indexOf('{topic} {') + '{topic} {'.length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, pos, '{');
    assert.ok(list.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'topic'), 'topic is offered');
  });

  it('creates a prompt that does not exist, then commits changes on the latest commit with tags', async () => {
    const name = `pf-new-${suffix}`;
    const uri = write(`${name}.prompt.yaml`, `prompt: ${name}\ndescription: A test prompt\ntemplate_format: f-string\ninput_variables: [topic]\nmessages:\n  - role: system\n    template: You are terse.\n  - role: human\n    template: Explain {topic}\n`);
    const host = await panelFor(uri);
    const s0 = await ready(host);
    assert.equal(s0.remote?.exists, false);
    assert.equal(s0.remote?.latest, null);
    const created = await push(host, { parent: null, description: 'first', create: { description: 'A test prompt', isPublic: false }, tags: ['production'] });
    assert.equal(created.status, 'pushed');
    assert.ok(created.status === 'pushed' && created.created);
    const [first] = await commits(name);
    assert.equal(first!.commit_hash, created.status === 'pushed' ? created.hash : '');
    assert.deepEqual((await tags(name)).map((t) => [t.tag_name, t.commit_hash]), [['production', first!.commit_hash]]);
    // The new prompt's row in the tree, which the next push must keep up to date.
    const row = await promptNode(name);
    const rowText = () => String(row.treeItem().description ?? '');
    assert.match(rowText(), /^1 commit( · |$)/);

    // Edit the file: the panel follows it and shows exactly what changes.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await edit(uri, 'Explain {topic}', 'Explain {topic} to a child');
    const changed = await pollState(host, (s) => s.changes.length > 0);
    assert.deepEqual(changed.changes.map((c) => c.section), ['Message 2 (human)']);
    assert.ok(changed.changes[0]!.lines.some((l) => l.type === 'add' && l.text.includes('to a child')));
    assert.ok(changed.local.dirty, 'unsaved edits are what gets pushed');
    const second = await push(host, { parent: first!.commit_hash, tags: ['production'] });
    assert.equal(second.status, 'pushed');
    const list = await commits(name);
    assert.equal(list.length, 2);
    await workbench.views.rowReload;
    for (const end = Date.now() + 10_000; !/^2 commits/.test(rowText()) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    assert.match(rowText(), /^2 commits( · |$)/, 'the push updates the row’s count');
    const listed = ((await workbench.views.prompts.provider.getChildren(row)) as AnyNode[]).filter((n) => n.id.includes('/commit/'));
    assert.equal(listed.length, 2, 'with the commits under it');
    assert.equal(list[0]!.parent_commit_hash, first!.commit_hash, 'the new commit sits on the one the panel showed');
    assert.deepEqual((await tags(name)).map((t) => [t.tag_name, t.commit_hash]), [['production', list[0]!.commit_hash]], 'production moved, no conflict');
    const pulled = await get<{ manifest: { kwargs: { messages: { kwargs: { prompt: { kwargs: { template: string } } } }[] } } }>(`/commits/-/${name}/latest`);
    assert.equal(pulled.manifest.kwargs.messages[1]!.kwargs.prompt.kwargs.template, 'Explain {topic} to a child');

    // A push on a parent that is no longer the latest writes nothing and says so.
    const stale = await push(host, { parent: first!.commit_hash });
    assert.equal(stale.status, 'stale');
    assert.equal(stale.state.remote?.latest?.hash, list[0]!.commit_hash);
    assert.equal((await commits(name)).length, 2);
  });

  it('pushes a raw manifest (*.prompt.json) as it is, named by its file', async () => {
    const name = `pf-json-${suffix}`;
    const manifest = chat('Be brief.', 'About {topic}');
    (manifest.kwargs as Record<string, unknown>)['metadata'] = { kept: true };
    const uri = write(`${name}.prompt.json`, JSON.stringify(manifest, null, 2));
    const host = await panelFor(uri);
    const state = await ready(host);
    assert.equal(state.local.identifier, name);
    assert.equal(state.remote?.exists, false);
    const result = await push(host, { parent: null, create: { description: '', isPublic: false } });
    assert.equal(result.status, 'pushed');
    const pulled = await get<{ manifest: unknown }>(`/commits/-/${name}/latest`);
    assert.deepEqual(pulled.manifest, manifest, 'the manifest is committed unchanged, fields the YAML form has no place for included');
  });

  it('refuses another workspace’s prompt with the spec’s message before anything is sent', async () => {
    const uri = write(`other-${suffix}.prompt.yaml`, 'prompt: other/translator\ntemplate_format: f-string\nmessages:\n  - role: human\n    template: Translate {text}\n');
    const host = await panelFor(uri);
    const state = await ready(host);
    assert.equal(state.remote?.refusal, 'Cannot create a commit for another tenant.\nCurrent tenant: local\nRequested tenant: other');
    const before = await commits('translator', 'other');
    const answer = await call(host, 'promptCommit/push', { parent: state.remote?.latest?.hash ?? null, description: '', tags: [], create: null });
    assert.ok(!answer.ok);
    assert.match(!answer.ok ? answer.error.message : '', /^Cannot create a commit for another tenant\./);
    assert.equal((await commits('translator', 'other')).length, before.length);
  });

  it('refuses to push a file with problems, naming the first one', async () => {
    const uri = write(`broken-${suffix}.prompt.yaml`, `prompt: broken-${suffix}\ntemplate_format: jinja2\nmessages:\n  - role: human\n    template: Hi {name\n`);
    const host = await panelFor(uri);
    const state = await ready(host);
    const messages = state.local.problems.map((p) => p.message);
    assert.ok(messages.includes('Invalid template format. Got `jinja2`; should be one of f-string,mustache'), messages.join(' | '));
    const answer = await call(host, 'promptCommit/push', { parent: null, description: '', tags: [], create: { description: '', isPublic: false } });
    assert.ok(!answer.ok);
    assert.match(!answer.ok ? answer.error.message : '', /Fix the problems in broken-.*: Invalid template format/);
    const missing = await raw('GET', `/repos/-/broken-${suffix}`);
    assert.equal(missing.status, 404, 'nothing was created');
  });

  it('tags commits from the tree: an existing tag moves, a tag is deleted, a commit is promoted', async () => {
    const name = `pf-tags-${suffix}`;
    await http('POST', '/repos/', { repo_handle: name, is_public: false });
    await http('POST', `/commits/-/${name}`, { manifest: chat('One.', '{topic}') });
    await http('POST', `/commits/-/${name}`, { manifest: chat('Two.', '{topic}') });
    let [newer, older] = await commitNodes(name);
    let run = await runScripted(workbench, 'langsmith.tagCommit', new ScriptedPrompter([{ input: 'latest' }]), older);
    assert.match(run.script.rejected[0] ?? '', /would be read as a commit reference/);
    run = await runScripted(workbench, 'langsmith.tagCommit', new ScriptedPrompter([{ input: 'qa' }]), older);
    assert.deepEqual(run.errors, []);
    run = await runScripted(workbench, 'langsmith.tagCommit', new ScriptedPrompter([{ input: 'qa' }]), newer);
    assert.deepEqual(run.errors, [], 'a second tag of the same name moves it');
    assert.deepEqual((await tags(name)).map((t) => [t.tag_name, t.commit_hash]), [['qa', newer!.commit.commit_hash]]);

    // Promote the older commit to production (not set yet), then the newer: the move shows a diff and asks.
    run = await runScripted(workbench, 'langsmith.promoteCommit', new ScriptedPrompter([{ pick: 'production' }, { confirm: true }]), older);
    assert.deepEqual(run.errors, []);
    [newer, older] = await commitNodes(name);
    assert.deepEqual(older!.tags, ['production'], 'the tree shows the commit’s tags');
    run = await runScripted(workbench, 'langsmith.promoteCommit', new ScriptedPrompter([{ pick: 'production' }, { confirm: true }]), newer);
    assert.match(run.script.asked[1] ?? '', /^Move production from [0-9a-f]{8} to [0-9a-f]{8}\?$/);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the change of production opens in the diff editor');
    const prod = (await tags(name)).find((t) => t.tag_name === 'production');
    assert.equal(prod?.commit_hash, newer!.commit.commit_hash);

    [newer] = await commitNodes(name);
    run = await runScripted(workbench, 'langsmith.deleteCommitTag', new ScriptedPrompter([{ pick: 'qa' }, { confirm: true }]), newer);
    assert.deepEqual(run.errors, []);
    assert.deepEqual((await tags(name)).map((t) => t.tag_name), ['production']);
  });

  it('compares a file with a commit, and two commits, in the diff editor as prompt files', async () => {
    const target = vscode.Uri.file(path.join(dir, `cmp-${suffix}.prompt.yaml`));
    await runScripted(workbench, 'langsmith.pullPrompt', new ScriptedPrompter([{ file: target }]), await promptNode('demo-summarizer'));
    await edit(target, 'Keep product names.', 'Keep product names and versions.');
    await runScripted(workbench, 'langsmith.compareWithRemote', new ScriptedPrompter([{ pick: 'production' }]), target);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor opened');
    const { original, modified } = tab.input;
    assert.equal(original.scheme, 'langsmith');
    assert.equal(modified.toString(), target.toString());
    const left = await eventuallyText(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === original.toString()), (t) => t.includes('messages:'));
    assert.match(left, /^prompt: demo-summarizer$/m);
    assert.ok(!left.includes('Keep product names.'), 'production is the commit before “keep product names”');
    assert.match(left, /in \{max_words\} words\.$/m);

    const [c1, c2] = await commitNodes('demo-summarizer');
    await runScripted(workbench, 'langsmith.compareCommits', new ScriptedPrompter([]), c1, [c1, c2]);
    const pair = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(pair instanceof vscode.TabInputTextDiff);
    assert.equal(pair.original.scheme, 'langsmith');
    assert.ok(decodeURIComponent(pair.original.query).includes(c2!.commit.commit_hash), 'the older commit is on the left');
  });

  it('imports a .prompty file as a prompt file next to it', async () => {
    const source = write(
      `triage-${suffix}.prompty`,
      ['---', 'name: Ticket Triage', 'description: Sorts tickets.', 'model:', '  api: chat', '  configuration:', '    type: openai', '    name: gpt-4o-mini', 'inputs:', '  ticket:', '    type: string', '---', 'system:', 'You sort tickets by urgency.', '', 'user:', '{{ticket}}', ''].join('\n'),
    );
    const target = vscode.Uri.file(path.join(dir, `triage-${suffix}.prompt.yaml`));
    const run = await runScripted(workbench, 'langsmith.importPrompty', new ScriptedPrompter([{ file: target }]), source);
    assert.deepEqual(run.errors, []);
    const text = await eventuallyText(() => vscode.workspace.textDocuments.find((d) => d.uri.fsPath === target.fsPath), (t) => t.includes('messages:'));
    assert.match(text, /^prompt: ticket-triage$/m);
    assert.match(text, /^template_format: mustache$/m);
    assert.match(text, /- role: human\n\s+template: "?\{\{ticket\}\}"?/);
    assert.match(text, /class: langchain\.chat_models\.openai\.ChatOpenAI/);
  });

  async function pollState(host: WebviewHost, check: (s: PromptCommitState) => boolean): Promise<PromptCommitState> {
    const end = Date.now() + 10_000;
    for (;;) {
      const s = await ready(host);
      if (check(s)) return s;
      if (Date.now() > end) assert.fail(`the panel state never matched: ${JSON.stringify(s).slice(0, 1000)}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
});
