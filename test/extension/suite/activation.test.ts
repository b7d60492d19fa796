import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../../src/constants';
import type { WorkbenchApi } from '../../../src/extension';
import { shownMessages } from './support';

const EXTENSION_ID = 'langsmith-workbench.langsmith-workbench';

interface Manifest {
  contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]>; menus: Record<string, { command: string; when?: string }[]> };
}

describe('activation', () => {
  let extension: vscode.Extension<unknown>;
  let manifest: Manifest;

  before(async () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is not loaded`);
    extension = found;
    manifest = JSON.parse(fs.readFileSync(path.join(extension.extensionPath, 'package.json'), 'utf8')) as Manifest;
    await extension.activate();
  });

  it('activates in the real extension host', () => {
    assert.equal(extension.isActive, true);
  });

  it('writes to its log how long its own part of activation took', async () => {
    const { storage } = extension.exports as WorkbenchApi;
    const logs = (dir: string): string[] =>
      fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? logs(path.join(dir, e.name)) : e.name.endsWith('LangSmith.log') ? [path.join(dir, e.name)] : [])) : [];
    let line: RegExpExecArray | null = null;
    for (const end = Date.now() + 10_000; !line && Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      for (const f of logs(storage.logUri.fsPath)) line ??= /Activated in ([\d.]+) ms \(code loaded in ([\d.]+) ms, first part ([\d.]+) ms\); views and commands ([\d.]+) ms later\./.exec(fs.readFileSync(f, 'utf8'));
    }
    assert.ok(line, `no activation line in the LangSmith log under ${storage.logUri.fsPath}`);
    const [total, code, first] = [Number(line[1]), Number(line[2]), Number(line[3])];
    assert.ok(code > 0 && first >= 0, line[0]);
    assert.ok(Math.abs(total - code - first) <= 0.2, line[0]);
  });

    it('registers every command contributed in package.json', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, []);
  });

  it('contributes every command it registers', async () => {
    const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
    const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('langsmith.'));
    // Our ids are `langsmith.<verb><Noun>`; VS Code adds `langsmith.<view>.<action>` ones for each view.
    const ours = registered.filter((id) => /^langsmith\.[A-Za-z]+$/.test(id));
    const unknown = ours.filter((id) => !contributed.has(id));
    assert.deepEqual(unknown, []);
    assert.ok(ours.length >= Object.keys(Commands).length, 'found fewer registered commands than the extension defines');
  });

  it('contributes the four LangSmith views', () => {
    assert.deepEqual(
      manifest.contributes.views.langsmith.map((v) => v.id),
      ['langsmith.projects', 'langsmith.datasets', 'langsmith.prompts', 'langsmith.annotationQueues'],
    );
  });

  it('offers neither Sign In nor Sign Out before the connection is known, then the one that applies', () => {
    // The palette's when clauses of the three connection commands, each a context key or its negation.
    const offered = (context: Record<string, boolean>) =>
      manifest.contributes.menus['commandPalette']!
        .filter((m) => [Commands.signIn, Commands.signOut, Commands.switchEndpoint].includes(m.command as never))
        .filter((m) => {
          const [, not, key] = /^(!?)([\w.]+)$/.exec(m.when ?? '') ?? [];
          assert.ok(key, `${m.command}: when clause ${m.when} is not a single context key`);
          return not ? !context[key] : !!context[key];
        })
        .map((m) => m.command)
        .sort();
    // Before activation no key is set: the palette must not offer Sign In to someone who is signed in.
    assert.deepEqual(offered({}), []);
    assert.deepEqual(offered({ 'langsmith.signedIn': false, 'langsmith.signedOut': true }), [Commands.signIn]);
    assert.deepEqual(offered({ 'langsmith.signedIn': true, 'langsmith.signedOut': false }), [Commands.signOut, Commands.switchEndpoint].sort());
  });

  it('opens the connection-check webview from its command', async () => {
    await vscode.commands.executeCommand(Commands.openHello);
    // The tab model is updated from the workbench side, shortly after the panel exists.
    const tab = await waitFor(() => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'LangSmith: Connection Check'));
    assert.ok(tab, 'no Connection Check tab after running the command');
    assert.ok(tab.input instanceof vscode.TabInputWebview);
    await vscode.window.tabGroups.close(tab);
  });

  it('asks for a reload, once, when a bundle cannot be loaded (an update replaced the files under the window)', async () => {
    const workbench = extension.exports as WorkbenchApi;
    const missing = path.join(extension.extensionPath, 'dist', 'missing.js');
    const before = shownMessages().length;
    const load = workbench.bundleLoader('missing.js', () => import(missing));
    await assert.rejects(load(), (err: Error) => err.name === 'BundleMissingError' && err.message.includes('dist/missing.js'));
    await assert.rejects(load(), (err: Error) => err.name === 'BundleMissingError', 'a later call tries again');
    const shown = shownMessages().slice(before);
    assert.deepEqual(shown.map((m) => [m.kind, m.message, m.items]), [['error', 'LangSmith Workbench was updated; reload the window.', ['Reload Window']]]);
  });
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 5000): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
