// The extension manifest and the code agree: ids, views, menus and when-clauses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import '../harness/vscodeStub';
import { Commands, ContextKeys } from '../../src/constants';
import { Panels } from '../../src/webviews/descriptors';

const root = path.resolve(__dirname, '../..');
const rawPkg = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
/** The manifest as VS Code shows it: every %key% replaced by its English text from package.nls.json. */
const pkg = JSON.parse(rawPkg, (_k, v: unknown) => (typeof v === 'string' && /^%[\w.]+%$/.test(v) ? (nls[v.slice(1, -1)] ?? v) : v));
const contributes = pkg.contributes;

describe('package.json', () => {
  it('keeps its user-facing text in package.nls.json: every %key% is defined there, and every entry is used', () => {
    const used = new Set([...rawPkg.matchAll(/"%([\w.]+)%"/g)].map((m) => m[1]!));
    for (const key of used) assert.ok(key in nls, `package.json uses %${key}% but package.nls.json has no such entry`);
    for (const key of Object.keys(nls)) assert.ok(used.has(key), `package.nls.json has ${key}, which package.json does not use`);
    // No command title, view name or walkthrough text is left hard-coded.
    const raw = JSON.parse(rawPkg);
    for (const c of raw.contributes.commands) assert.match(c.title, /^%command\.\w+\.title%$/, c.command);
    for (const step of raw.contributes.walkthroughs[0].steps) assert.match(step.description, /^%walkthrough\./);
  });

  it('is the langsmith-workbench extension with an engine floor that matches @types/vscode', () => {
    assert.equal(pkg.name, 'langsmith-workbench');
    assert.equal(pkg.displayName, 'LangSmith Workbench');
    const floor = /^\^(\d+\.\d+)\.\d+$/.exec(pkg.engines.vscode)?.[1];
    assert.ok(floor, `engines.vscode ${pkg.engines.vscode} is not a ^x.y.z floor`);
    assert.ok(pkg.devDependencies['@types/vscode'].startsWith(`${floor}.`), '@types/vscode must be pinned to the engines.vscode floor');
    const [major, minor] = floor.split('.').map(Number);
    assert.ok(major === 1 && minor <= 139, 'the floor must not be newer than the VS Code the tests run (1.139)');
  });

  it('contributes exactly the commands the code defines', () => {
    const contributed = contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(contributed, Object.values(Commands).sort());
  });

  it('names every command langsmith.<verb><Noun> with the LangSmith category', () => {
    for (const c of contributes.commands) {
      assert.match(c.command, /^langsmith\.[a-z]+[A-Z][A-Za-z]*$/, c.command);
      assert.equal(c.category, 'LangSmith', c.command);
      assert.ok(c.title && !c.title.startsWith('LangSmith'), `${c.command}: the category already says LangSmith`);
    }
  });

  it('only references contributed commands from menus and welcome content', () => {
    const known = new Set(contributes.commands.map((c: { command: string }) => c.command));
    for (const [menu, items] of Object.entries(contributes.menus as Record<string, { command: string }[]>)) {
      for (const item of items) assert.ok(known.has(item.command), `${menu} references ${item.command}`);
    }
    for (const w of contributes.viewsWelcome) {
      for (const [, id] of w.contents.matchAll(/\(command:([^)?]+)/g)) assert.ok(known.has(id), `welcome of ${w.view} links ${id}`);
    }
  });

  it('has the LangSmith container with the four views, each with a sign-in welcome', () => {
    assert.deepEqual(contributes.viewsContainers.activitybar.map((c: { id: string }) => c.id), ['langsmith']);
    const views = contributes.views.langsmith.map((v: { id: string }) => v.id);
    assert.deepEqual(views, ['langsmith.projects', 'langsmith.datasets', 'langsmith.prompts', 'langsmith.annotationQueues']);
    for (const view of views) {
      const welcome = contributes.viewsWelcome.find((w: { view: string }) => w.view === view);
      assert.ok(welcome, `${view} has no welcome content`);
      assert.match(welcome.contents, /\[Sign In\]\(command:langsmith\.signIn\)/);
      assert.equal(welcome.when, `!${ContextKeys.signedIn}`);
    }
  });

  it('declares support for untrusted workspaces and keeps settings under langsmith.*', () => {
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, true);
    for (const key of Object.keys(contributes.configuration.properties)) assert.match(key, /^langsmith\./);
    const keys = Object.keys(contributes.configuration.properties).join(' ');
    assert.doesNotMatch(keys, /apiKey|secret|token/i, 'the API key never goes in settings');
  });

  it('never activates on "*": after startup at the earliest (for the status bar), or when a contribution is used', () => {
    const events: string[] = pkg.activationEvents ?? [];
    assert.ok(!events.includes('*'), 'activation must never hold up the window opening');
    // The connection's status bar item and sign-in state are there from startup; activation makes no network call.
    assert.ok(events.includes('onStartupFinished'));
    for (const e of events) assert.match(e, /^(onStartupFinished|onWebviewPanel:langsmith\.\w+|onLanguage:yaml|workspaceContains:\*\*\/\*\.prompt\.(yaml|json))$/, e);
  });

  it('activates on onWebviewPanel:<view type> for every webview app that restores, and on no other panel', () => {
    const events: string[] = pkg.activationEvents ?? [];
    const restoring = Object.values(Panels).filter((d) => d.restores);
    // Without the event a panel left open is not restored after a reload until something else activates us.
    for (const d of restoring) assert.ok(events.includes(`onWebviewPanel:${d.viewType}`), `package.json activationEvents lacks "onWebviewPanel:${d.viewType}" (the ${d.app} app)`);
    const wanted = new Set(restoring.map((d) => `onWebviewPanel:${d.viewType}`));
    for (const e of events.filter((x) => x.startsWith('onWebviewPanel:'))) assert.ok(wanted.has(e), `package.json activates on ${e}, which no restoring webview app has`);
  });
});
