// Prompt references in source code, in the real extension host against the local server (demo data): in
// JavaScript, TypeScript and Python files, a hover shows the version a `pullPrompt("…")` string pulls, Go to
// Definition opens the workspace's prompt file or else the remote version, a missing prompt or tag is a warning
// that goes away once fixed, and completion offers the prompts and their tags inside the quotes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateWorkbench, get } from './support';

type Sample = { language: string; file: string; text: string };

const SAMPLES: Sample[] = [
  {
    language: 'typescript',
    file: 'app.ts',
    text: [
      "import { Client } from 'langsmith';",
      'const client = new Client();',
      'export async function main(): Promise<void> {',
      '  // client.pullPromptCommit("in-a-comment")',
      "  const a = await client.pullPromptCommit('demo-summarizer:production');",
      "  const b = await client.pullPromptCommit('demo-classifier');",
      "  const c = await client.pullPromptCommit('no-such-prompt-ts');",
      "  const d = await client.pullPromptCommit('demo-summarizer:no-such-tag');",
      '  console.log(a, b, c, d);',
      '}',
      '',
    ].join('\n'),
  },
  {
    language: 'javascript',
    file: 'app.js',
    text: [
      "const hub = require('langchain/hub');",
      'async function pullPrompt(name) { return hub.pull(name); }',
      'exports.main = async () => [',
      "  await pullPrompt('demo-summarizer:production'),",
      '  await hub.pull(`demo-classifier`),',
      '  await pullPrompt("no-such-prompt-js"),',
      '  await hub.pull("demo-summarizer:no-such-tag"),',
      '];',
      '',
    ].join('\n'),
  },
  {
    language: 'python',
    file: 'app.py',
    text: [
      'from langsmith import Client',
      '',
      'client = Client()',
      '# client.pull_prompt("in-a-comment")',
      'a = client.pull_prompt("demo-summarizer:production")',
      'b = client.pull_prompt(prompt_identifier="demo-classifier")',
      'c = client.pull_prompt("no-such-prompt-py")',
      'd = client.pull_prompt("demo-summarizer:no-such-tag")',
      '',
    ].join('\n'),
  },
];

describe('prompt references in source code', function () {
  this.timeout(60_000);
  let dir: string;

  /** The sample written to disk and opened in an editor. */
  const open = async (sample: Sample, text = sample.text): Promise<vscode.TextDocument> => {
    const file = path.join(dir, sample.file);
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.languageId, sample.language);
    return doc;
  };
  /** The position inside the quotes of the first literal whose text is `value` (after `skip` characters of it). */
  const inside = (doc: vscode.TextDocument, value: string, skip = 3) => {
    const text = doc.getText();
    const at = [`'${value}'`, `"${value}"`, `\`${value}\``].map((q) => text.indexOf(q)).find((i) => i >= 0);
    assert.ok(at !== undefined, `“${value}” is not quoted in the sample`);
    return doc.positionAt(at + 1 + skip);
  };
  const hoverText = async (doc: vscode.TextDocument, pos: vscode.Position) => {
    const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)) ?? [];
    const ours = hovers.filter((h) => h.contents.some((c) => typeof c === 'object' && 'value' in c && c.value.includes('LangSmith prompt')));
    // As read: MarkdownString.appendText escapes markdown's characters and writes spaces as &nbsp;.
    const markdown = ours.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
    return markdown.replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!:|<>~])/g, '$1');
  };
  const definitions = async (doc: vscode.TextDocument, pos: vscode.Position) => {
    const found = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, pos)) ?? [];
    return found.map((l) => ('uri' in l ? l.uri : l.targetUri));
  };
  const warnings = async (doc: vscode.TextDocument, check: (d: readonly vscode.Diagnostic[]) => boolean) => {
    const end = Date.now() + 15_000;
    for (;;) {
      const d = vscode.languages.getDiagnostics(doc.uri).filter((x) => x.source === 'LangSmith');
      if (check(d)) return d;
      if (Date.now() > end) assert.fail(`diagnostics never matched: ${JSON.stringify(d.map((x) => x.message))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const completions = async (doc: vscode.TextDocument, pos: vscode.Position) => {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, pos);
    return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  };

  before(async () => {
    await activateWorkbench();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-refs-'));
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  for (const sample of SAMPLES) {
    describe(sample.language, () => {
      it('hovers a reference with the version it pulls: messages, commit, tags and time', async () => {
        const doc = await open(sample);
        const text = await hoverText(doc, inside(doc, 'demo-summarizer:production'));
        // What production is on the server now (other suites may have moved it).
        const production = await get<{ commit_hash: string; manifest: any }>('/commits/-/demo-summarizer/production');
        const tags = (await get<{ tag_name: string; commit_hash: string }[]>('/repos/-/demo-summarizer/tags')).filter((t) => t.commit_hash === production.commit_hash).map((t) => t.tag_name);
        const [system, human] = production.manifest.kwargs.messages.map((m: any) => m.kwargs.prompt.kwargs.template as string);
        assert.ok(text.includes(system), `the production commit’s system message in:\n${text}`);
        assert.ok(text.includes(human), 'its human message');
        assert.ok(text.includes(`tags: ${tags.join(', ')}`), 'its tags');
        assert.ok(text.includes(`Commit \`${production.commit_hash.slice(0, 8)}\``), 'its commit');
        assert.match(text, /just now|min ago|h ago|d ago|\d{4}-\d\d-\d\d/, 'when the commit was made');
        assert.doesNotMatch(text, /command:/, 'no command links');
        assert.equal(await hoverText(doc, new vscode.Position(0, 1)), '', 'nothing outside a reference');
      });

      it('warns about a missing prompt and a missing tag, and nothing else', async () => {
        const doc = await open(sample);
        const found = await warnings(doc, (d) => d.length === 2);
        const messages = found.map((d) => d.message).sort();
        assert.match(messages[0]!, /^LangSmith has no prompt “no-such-prompt-(ts|js|py)”\.$/);
        assert.match(messages[1]!, /^Prompt “demo-summarizer” has no tag “no-such-tag” \(its tags: [^)]*\bproduction\b[^)]*\)\.$/);
        for (const d of found) assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
        const missing = found.find((d) => d.code === 'missingPrompt')!;
        assert.match(doc.getText(missing.range), /^no-such-prompt-(ts|js|py)$/, 'the warning is on the name');
        // Fixed in the editor: the warning goes once typing pauses.
        const edit = new vscode.WorkspaceEdit();
        edit.replace(doc.uri, missing.range, 'demo-rag-answer');
        assert.ok(await vscode.workspace.applyEdit(edit));
        await warnings(doc, (d) => d.length === 1 && d[0]!.code === 'missingTag');
      });

      it('completes prompt names, and tags after the colon', async () => {
        const doc = await open(sample);
        const names = await completions(doc, inside(doc, 'demo-classifier', 4));
        for (const n of ['demo-summarizer', 'demo-classifier', 'demo-rag-answer']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
        const tags = await completions(doc, inside(doc, 'demo-summarizer:production', 'demo-summarizer:'.length));
        for (const t of ['production', 'staging', 'latest']) assert.ok(tags.includes(t), `${t} in ${tags.join(', ')}`);
        assert.ok(!tags.includes('demo-classifier'), 'after the colon, tags only');
      });

      it('goes to the remote version as a read-only prompt file when the workspace has no file for it', async () => {
        const doc = await open(sample);
        const [uri] = await definitions(doc, inside(doc, 'demo-classifier'));
        assert.ok(uri, 'a definition');
        assert.equal(uri.scheme, 'langsmith');
        assert.match(uri.path, /\.prompt\.yaml$/);
        const remote = await vscode.workspace.openTextDocument(uri);
        assert.match(remote.getText(), /^prompt: demo-classifier$/m);
        assert.match(remote.getText(), /Classify into \{\{#teams\}\}/, 'the latest commit');
      });
    });
  }

  it('hovers pullPrompt("demo-summarizer") in the demo workspace’s sample files with the prompt', async () => {
    const root = vscode.extensions.getExtension('langsmith-workbench.langsmith-workbench')!.extensionPath;
    const latest = (await get<{ commits: { manifest: any }[] }>('/commits/-/demo-summarizer/?limit=1')).commits[0]!;
    const system = latest.manifest.kwargs.messages[0].kwargs.prompt.kwargs.template as string;
    for (const [file, value] of [
      ['app.ts', 'demo-summarizer'],
      ['app.py', 'demo-summarizer:staging'],
    ] as const) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, 'scripts/demo', file)));
      await vscode.window.showTextDocument(doc);
      const text = await hoverText(doc, inside(doc, value));
      assert.ok(text.includes('demo-summarizer'), `${file}: the prompt's name`);
      if (value === 'demo-summarizer') assert.ok(text.includes(system), `${file}: the latest system message in:\n${text}`);
      else assert.match(text, /You summarize support tickets/, `${file}: the staging version`);
    }
  });

  it('goes to the workspace’s prompt file for the prompt when there is one', async () => {
    // A prompt only this file names (LangSmith need not have it: the file is what the definition is).
    const name = `refs-local-${Math.random().toString(36).slice(2, 8)}`;
    const promptFile = path.join(dir, `${name}.prompt.yaml`);
    fs.writeFileSync(promptFile, `# a local prompt\nprompt: ${name}\ntemplate_format: f-string\nmessages:\n  - role: system\n    template: Local.\n`);
    await vscode.workspace.openTextDocument(vscode.Uri.file(promptFile));
    const calls: Record<string, string> = { typescript: `client.pullPromptCommit('${name}:production');\n`, javascript: `hub.pull("${name}");\n`, python: `client.pull_prompt("${name}")\n` };
    for (const sample of SAMPLES) {
      const doc = await open(sample, `${sample.text}${calls[sample.language]}`);
      const found = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, inside(doc, `${name}${sample.language === 'typescript' ? ':production' : ''}`))) ?? [];
      const [first] = found;
      assert.ok(first && 'uri' in first, `${sample.language}: a definition`);
      assert.equal(first.uri.fsPath, promptFile, `${sample.language}: the local prompt file`);
      assert.equal(first.range.start.line, 1, 'at its prompt: line');
    }
  });
});
