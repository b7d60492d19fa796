// What a new user sees first, in the real extension host against the demo data: rows that tell themselves apart
// (labels, descriptions, status icons), tooltips that show server text as text, context values that carry each
// row's state, and the menus package.json builds from them — every context-menu command checked against a table
// of the states it applies to, so no menu offers an action that does not apply.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/views/treeNode';
import { ScriptedPrompter } from './scriptedPrompter';
import { activateWorkbench, http, runScripted } from './support';

type AnyNode = TreeNode & Record<string, any>;
type ViewName = 'projects' | 'datasets' | 'prompts' | 'queues';

const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.nls.json'), 'utf8'));
/** The manifest with its %key% texts resolved from package.nls.json, as VS Code shows it. */
const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'), (_k, v: unknown) =>
  typeof v === 'string' && /^%[\w.]+%$/.test(v) ? (nls[v.slice(1, -1)] ?? v) : v,
) as {
  contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]>; walkthroughs: { id: string; steps: { description: string }[] }[] };
};

/** Evaluates the subset of `when` clauses package.json uses: `a && b`, `k == v`, `k != v`, `k =~ /re/`, `k`, `!k`. */
function evaluate(when: string | undefined, context: Record<string, string | boolean>): boolean {
  if (!when) return true;
  // Regular expressions may hold `|`, `(` and `)`: set them aside before splitting on || and &&.
  const regexes: string[] = [];
  const masked = when.replace(/=~\s*\/((?:[^/\\]|\\.)*)\//g, (_m, body: string) => `=~ @${regexes.push(body) - 1}`);
  return anyOf(masked, context, regexes);
}

/** Splits at the operator where no parenthesis is open. */
function splitTop(expr: string, op: '||' | '&&'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < expr.length; i++) {
    if (expr[i] === '(') depth++;
    else if (expr[i] === ')') depth--;
    else if (depth === 0 && expr.startsWith(op, i)) {
      parts.push(expr.slice(from, i));
      from = i + op.length;
      i += op.length - 1;
    }
  }
  return [...parts, expr.slice(from)];
}

function anyOf(expr: string, context: Record<string, string | boolean>, regexes: string[]): boolean {
  return splitTop(expr, '||').some((alt) => splitTop(alt, '&&').every((raw) => term(raw.trim(), context, regexes)));
}

function term(t: string, context: Record<string, string | boolean>, regexes: string[]): boolean {
  if (t.startsWith('(') && t.endsWith(')')) return anyOf(t.slice(1, -1), context, regexes);
  let m = /^([\w.]+)\s*(==|!=)\s*'?([\w.]+)'?$/.exec(t);
  if (m) return (context[m[1]!] === m[3]) === (m[2] === '==');
  m = /^([\w.]+)\s*=~\s*@(\d+)$/.exec(t);
  if (m) return typeof context[m[1]!] === 'string' && new RegExp(regexes[Number(m[2])]!).test(context[m[1]!] as string);
  m = /^(!?)([\w.]+)$/.exec(t);
  if (m) return m[1] ? !context[m[2]!] : !!context[m[2]!];
  if (t === 'false') return false;
  throw new Error(`unsupported when clause: ${t}`);
}

const VIEW_IDS: Record<ViewName, string> = { projects: 'langsmith.projects', datasets: 'langsmith.datasets', prompts: 'langsmith.prompts', queues: 'langsmith.annotationQueues' };

/** The context-menu commands (any group) a row with this context value offers. */
function offered(view: ViewName, contextValue: string): string[] {
  const ctx = { view: VIEW_IDS[view], viewItem: contextValue };
  return [...new Set(pkg.contributes.menus['view/item/context']!.filter((m) => evaluate(m.when, ctx)).map((m) => m.command.replace('langsmith.', '')))].sort();
}

describe('rows and menus a new user sees', function () {
  let workbench: WorkbenchApi;
  const children = async (view: ViewName, node?: TreeNode) => (await workbench.views[view].provider.getChildren(node)) as AnyNode[];
  const label = (node: TreeNode) => {
    const l = node.treeItem().label;
    return typeof l === 'string' ? l : (l?.label ?? '');
  };
  const description = (node: TreeNode) => String(node.treeItem().description ?? '');
  const tooltip = (node: TreeNode) => node.treeItem().tooltip as vscode.MarkdownString;

  before(async () => {
    workbench = await activateWorkbench();
  });

  it('offers exactly the actions that apply to each state (the menu table)', () => {
    const table: [ViewName, string, string[]][] = [
      ['projects', 'project', ['copyId', 'copyLink', 'deleteProject', 'monitorProject', 'openInLangSmith', 'openRuns', 'refreshItem', 'renameProject']],
      ['projects', 'project.experiment', ['compareExperiments', 'copyId', 'copyLink', 'deleteProject', 'monitorProject', 'openInLangSmith', 'openRuns', 'refreshItem', 'renameProject', 'saveComparison']],
      ['projects', 'run.unshared', ['addFeedback', 'addRunToDataset', 'addRunsToQueue', 'copyFeedbackLink', 'copyId', 'copyLink', 'openInLangSmith', 'openRun', 'openTrace', 'refreshItem', 'shareRun', 'showFeedback']],
      ['projects', 'run.shared', ['addFeedback', 'addRunToDataset', 'addRunsToQueue', 'copyFeedbackLink', 'copyId', 'copyLink', 'openInLangSmith', 'openRun', 'openTrace', 'refreshItem', 'showFeedback', 'unshareRun']],
      ['projects', 'thread', ['openThread']],
      ['datasets', 'dataset.unshared', ['compareDatasetExperiments', 'compareDatasetVersions', 'copyId', 'copyLink', 'createExample', 'deleteDataset', 'exportDatasetForFineTuning', 'openInLangSmith', 'refreshItem', 'renameDataset', 'searchSimilarExamples', 'shareDataset']],
      ['datasets', 'dataset.shared', ['compareDatasetExperiments', 'compareDatasetVersions', 'copyId', 'copyLink', 'createExample', 'deleteDataset', 'exportDatasetForFineTuning', 'openInLangSmith', 'refreshItem', 'renameDataset', 'searchSimilarExamples', 'unshareDataset']],
      ['datasets', 'example', ['addExamplesToSplit', 'copyId', 'deleteExamples', 'editExample', 'openExample', 'removeExamplesFromSplit']],
      ['datasets', 'versions', ['compareDatasetVersions', 'refreshItem']],
      ['datasets', 'datasetVersion', ['compareDatasetVersions', 'tagDatasetVersion']],
      ['datasets', 'split', ['createExample']],
      ['datasets', 'project.experiment', ['compareExperiments', 'copyId', 'openInLangSmith', 'openRuns']],
      ['prompts', 'prompt.own.private.active.unliked', ['archivePrompt', 'compareCommits', 'copyId', 'copyLink', 'deletePrompt', 'likePrompt', 'makePromptPublic', 'openInLangSmith', 'pullPrompt', 'refreshItem', 'runPrompt', 'runPromptOverDataset']],
      ['prompts', 'prompt.own.public.active.liked', ['archivePrompt', 'compareCommits', 'copyId', 'copyLink', 'deletePrompt', 'makePromptPrivate', 'openInLangSmith', 'pullPrompt', 'refreshItem', 'runPrompt', 'runPromptOverDataset', 'unlikePrompt']],
      ['prompts', 'prompt.own.private.archived.unliked', ['compareCommits', 'copyId', 'copyLink', 'deletePrompt', 'likePrompt', 'makePromptPublic', 'openInLangSmith', 'pullPrompt', 'refreshItem', 'runPrompt', 'runPromptOverDataset', 'unarchivePrompt']],
      ['prompts', 'prompt.other.public.active.unliked', ['compareCommits', 'copyId', 'copyLink', 'likePrompt', 'openInLangSmith', 'pullPrompt', 'refreshItem', 'runPrompt', 'runPromptOverDataset']],
      ['prompts', 'commit.own.tagged', ['compareCommits', 'copyId', 'copyLink', 'deleteCommitTag', 'openCommit', 'openCommitManifest', 'openInLangSmith', 'promoteCommit', 'pullPrompt', 'runPrompt', 'runPromptOverDataset', 'tagCommit']],
      ['prompts', 'commit.own.untagged', ['compareCommits', 'copyId', 'copyLink', 'openCommit', 'openCommitManifest', 'openInLangSmith', 'promoteCommit', 'pullPrompt', 'runPrompt', 'runPromptOverDataset', 'tagCommit']],
      ['prompts', 'commit.other.untagged', ['compareCommits', 'copyId', 'copyLink', 'openCommit', 'openCommitManifest', 'openInLangSmith', 'pullPrompt', 'runPrompt', 'runPromptOverDataset']],
      ['prompts', 'publicPrompts', ['refreshItem', 'searchPublicPrompts']],
      ['queues', 'queue', ['copyId', 'deleteQueue', 'editQueue', 'refreshItem', 'reviewQueue']],
      ['queues', 'queueSection', []],
      ['queues', 'queueRun', ['addFeedback', 'copyFeedbackLink', 'copyId', 'openInLangSmith', 'openRun', 'openTrace', 'removeRunFromQueue', 'reviewQueue', 'showFeedback']],
      ['queues', 'feedbackConfigs', ['createFeedbackConfig', 'refreshItem']],
      ['queues', 'feedbackConfig', ['deleteFeedbackConfig', 'editFeedbackConfig']],
      // A list that failed to load: its error row retries.
      ...(['projects', 'datasets', 'prompts', 'queues'] as const).map((view): [ViewName, string, string[]] => [view, 'loadError', ['refreshItem']]),
    ];
    for (const [view, value, expected] of table) assert.deepEqual(offered(view, value), expected, `${view} ${value}`);
    // Every context-menu entry applies to at least one state of the table: none is dead.
    const used = new Set(table.flatMap(([view, value]) => offered(view, value)));
    for (const m of pkg.contributes.menus['view/item/context']!) assert.ok(used.has(m.command.replace('langsmith.', '')), `${m.command} (${m.when}) applies to no row`);
  });

  it('offers Run Prompt over Dataset on prompt files in the explorer, the editor and the palette, not on other files', () => {
    const where = (menu: string, file: string, scheme = 'file') =>
      pkg.contributes.menus[menu]!.filter((m) => m.command === 'langsmith.runPromptOverDataset' && evaluate(m.when, { resourceFilename: file, resourceScheme: scheme })).length;
    for (const menu of ['explorer/context', 'editor/context', 'commandPalette']) {
      assert.equal(where(menu, 'support-answer.prompt.yaml'), 1, `${menu} offers it on a prompt file`);
      assert.equal(where(menu, 'demo.prompt.json'), 1, `${menu} offers it on a manifest file`);
      assert.equal(where(menu, 'notes.yaml'), 0, `${menu} does not offer it on another file`);
    }
    assert.equal(where('editor/context', 'x.prompt.yaml', 'langsmith'), 0, 'not on a commit shown from LangSmith');
    // The playground's title bar and the palette while a playground is the active panel.
    const inPlayground = (menu: string, panel: string) =>
      pkg.contributes.menus[menu]!.filter((m) => m.command === 'langsmith.runPromptOverDataset' && evaluate(m.when, { activeWebviewPanelId: panel })).length;
    assert.equal(inPlayground('editor/title', 'langsmith.playground'), 1, 'the playground offers it in its title bar');
    assert.equal(inPlayground('commandPalette', 'langsmith.playground'), 1, 'the palette offers it in the playground');
    assert.equal(inPlayground('editor/title', 'langsmith.trace'), 0, 'not in another panel');
  });

  it('offers Sign In only when signed out, Sign Out and Switch Endpoint only when signed in', () => {
    const palette = (signedIn: boolean) =>
      pkg.contributes.menus['commandPalette']!.filter((m) => ['langsmith.signIn', 'langsmith.signOut', 'langsmith.switchEndpoint'].includes(m.command) && evaluate(m.when, { 'langsmith.signedIn': signedIn, 'langsmith.signedOut': !signedIn })).map((m) => m.command).sort();
    assert.deepEqual(palette(false), ['langsmith.signIn']);
    assert.deepEqual(palette(true), ['langsmith.signOut', 'langsmith.switchEndpoint']);
  });

  it('gives runs their state: shared rows offer Stop Sharing, and it flips when shared or unshared', async () => {
    const project = (await children('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
    const run = (await children('projects', project)).find((n) => n.id.startsWith('run/'))!;
    assert.equal(run.treeItem().contextValue, 'run.unshared');
    const share = await runScripted(workbench, 'langsmith.shareRun', new ScriptedPrompter([]), run);
    assert.deepEqual(share.errors, []);
    assert.equal(run.treeItem().contextValue, 'run.shared');
    assert.ok(offered('projects', run.treeItem().contextValue!).includes('unshareRun'));
    assert.ok(!offered('projects', run.treeItem().contextValue!).includes('shareRun'));
    // A fresh listing knows it from the server (share_token on the run).
    workbench.views.projects.refresh(project);
    const again = (await children('projects', project)).find((n) => n.id === run.id)!;
    assert.equal(again.treeItem().contextValue, 'run.shared');
    await runScripted(workbench, 'langsmith.unshareRun', new ScriptedPrompter([]), again);
    assert.equal(again.treeItem().contextValue, 'run.unshared');
  });

  it('gives datasets their share state from one listing of what the workspace shares', async () => {
    const find = async () => (await children('datasets')).find((d) => label(d) === 'demo-support-qa')!;
    const dataset = await find();
    assert.equal(dataset.treeItem().contextValue, 'dataset.unshared');
    await runScripted(workbench, 'langsmith.shareDataset', new ScriptedPrompter([]), dataset);
    assert.equal(dataset.treeItem().contextValue, 'dataset.shared');
    workbench.views.datasets.refresh();
    assert.equal((await find()).treeItem().contextValue, 'dataset.shared', 'read back from /workspaces/current/shared');
    await runScripted(workbench, 'langsmith.unshareDataset', new ScriptedPrompter([]), await find());
    workbench.views.datasets.refresh();
    assert.equal((await find()).treeItem().contextValue, 'dataset.unshared');
  });

  it('gives prompts their ownership, visibility, archive and like state', async () => {
    const prompts = await children('prompts');
    const own = prompts.filter((p) => p.id.startsWith('prompt/'));
    const summarizer = own.find((p) => p.repo.repo_handle === 'demo-summarizer')!;
    assert.equal(summarizer.treeItem().contextValue, 'prompt.own.private.active.unliked');
    const classifier = own.find((p) => p.repo.repo_handle === 'demo-classifier')!;
    assert.equal(classifier.treeItem().contextValue, 'prompt.own.public.active.unliked');
    await runScripted(workbench, 'langsmith.likePrompt', new ScriptedPrompter([]), classifier);
    const liked = (await children('prompts')).find((p) => p.repo?.repo_handle === 'demo-classifier')!;
    assert.equal(liked.treeItem().contextValue, 'prompt.own.public.active.liked');
    await runScripted(workbench, 'langsmith.unlikePrompt', new ScriptedPrompter([]), liked);
    const archived = (await children('prompts', prompts.find((p) => p.id === 'prompts/archived')))[0]!;
    assert.match(archived.treeItem().contextValue!, /^prompt\.own\.private\.archived\./);
    const publicOnes = await children('prompts', prompts.find((p) => p.id === 'prompts/public'));
    assert.match(publicOnes.find((p) => p.repo?.repo_handle === 'translator')!.treeItem().contextValue!, /^prompt\.other\.public\.active\./);
  });

  it('labels rows so neighbours differ: runs by what they were asked, queue items by position and question, versions by tag', async () => {
    const project = (await children('projects')).find((p) => label(p) === 'demo-support-chatbot')!;
    const rows = (await children('projects', project)).filter((n) => n.id.startsWith('run/'));
    const runs = rows.slice(0, 8);
    for (const r of runs) {
      // A trace reads as its question, in quotes, cut to fit: “How do I reset my passwo…”.
      assert.match(label(r), /^“.{1,22}”$/, `a trace is labelled by what it was asked: ${label(r)}`);
      assert.ok(r.run.inputs.question.startsWith(label(r).slice(1, -1).replace(/…$/, '')), `${label(r)} is the start of the question`);
      // Then when it ran, compact (and, if it fits, how long it took), or first that it failed or is still running.
      assert.match(description(r), /^((error|running)( · (now|\d+[mhd]|\d{4}-\d\d-\d\d))?|(now|\d+[mhd]|\d{4}-\d\d-\d\d)( · [\d.]+ m?s)?)$/, `status, or when and duration: ${description(r)}`);
      assert.ok(label(r).length + 1 + description(r).length <= 30, `“${label(r)} ${description(r)}” fits a 300 px sidebar`);
      const icon = r.treeItem().iconPath as vscode.ThemeIcon;
      assert.ok(icon instanceof vscode.ThemeIcon && icon.color, 'the status icon has a theme colour');
      assert.match(tooltip(r).value, /SupportPipeline/, 'the name is in the tooltip');
      assert.match(r.treeItem().accessibilityInformation!.label, /^SupportPipeline, “/, 'a screen reader hears the name, then the question');
    }
    assert.ok(new Set(runs.map(label)).size > 4, `neighbouring traces differ: ${runs.map(label).join(' | ')}`);
    const failed = rows.find((n) => n.run.error);
    assert.ok(failed, 'the demo has a failed trace among the first page');
    assert.equal((failed.treeItem().iconPath as vscode.ThemeIcon).id, 'error', 'a failed trace has the error icon (a shape, not only a colour)');
    assert.match(description(failed), /^error\b/, 'and says so in words');
    assert.match(tooltip(failed).value, /failed/, 'its tooltip too, with when it ran');
    const done = rows.find((n) => !n.run.error && n.run.end_time)!;
    assert.notEqual((done.treeItem().iconPath as vscode.ThemeIcon).id, 'error');
    assert.doesNotMatch(description(done), /error|running/);
    // A child run is named by what it is, with how long it took.
    const kids = (await children('projects', done)).filter((n) => n.id.startsWith('run/'));
    assert.deepEqual(kids.map(label), ['VectorStoreRetriever', 'ChatOpenAI', 'StrOutputParser']);
    assert.match(description(kids[1]!), /^[\d.]+ m?s( · [\d,.k]+ tok)?$/, `a model call: duration, tokens: ${description(kids[1]!)}`);

    const queue = (await children('queues')).find((q) => label(q) === 'demo-review')!;
    const [mine] = await children('queues', queue);
    const items = await children('queues', mine);
    assert.match(label(items[0]!), /^1\. /, 'queue items count from 1');
    assert.match(label(items[1]!), /^2\. /);
    assert.match(description(items[0]!), /^“.+” · added /, `what was asked, then when it was added: ${description(items[0]!)}`);
    const descriptions = items.map(description);
    assert.ok(new Set(descriptions).size > 1, 'queue items differ by what they asked');

    const dataset = (await children('datasets')).find((d) => label(d) === 'demo-support-qa')!;
    const versionsNode = (await children('datasets', dataset)).find((n) => n.id.endsWith('/versions'))!;
    const versions = await children('datasets', versionsNode);
    assert.deepEqual(versions.map(label).filter((l) => /^[a-z]/.test(l) && !/ago$|^just now$/.test(l)), ['prod', 'v1'], 'tagged versions are named by their tags');

    // Each version reads as its tag or its time to the second, then when: neighbours differ within the width.
    for (const v of versions) assert.ok(label(v).length + 1 + description(v).length <= 28, `version “${label(v)} ${description(v)}” fits`);
    assert.equal(new Set(versions.map(label)).size, versions.length, `versions differ by their labels: ${versions.map(label).join(' | ')}`);
    // Then what each version changed (+added ~modified −removed), read a few at a time once the rows show: the
    // counts are those of the diff from the moment before the version to it.
    const first = versions[0]!;
    const firstDiff = await http<{ examples_added: string[]; examples_modified: string[]; examples_removed: string[] }>(
      'GET',
      `/api/v1/datasets/${dataset.dataset.id}/versions/diff?from_version=${encodeURIComponent(new Date(new Date(first.version.as_of).getTime() - 1).toISOString())}&to_version=${encodeURIComponent(first.version.as_of)}`,
    );
    const expected = [firstDiff.examples_added.length && `+${firstDiff.examples_added.length}`, firstDiff.examples_modified.length && `~${firstDiff.examples_modified.length}`, firstDiff.examples_removed.length && `−${firstDiff.examples_removed.length}`].filter(Boolean).join(' ') || 'no change';
    for (let i = 0; i < 100 && !description(first).startsWith(expected); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(description(first).startsWith(expected), `the newest version says what it changed (${expected}): ${description(first)}`);
    assert.match(String(tooltip(first).value), new RegExp(`${firstDiff.examples_added.length} added, ${firstDiff.examples_modified.length} modified, ${firstDiff.examples_removed.length} removed`));
    for (const v of versions) assert.ok(label(v).length + 1 + description(v).length <= 28, `version “${label(v)} ${description(v)}” fits with its counts`);
    const untagged = versions.find((v) => !v.version.tags?.length);
    if (untagged) assert.match(label(untagged), /^(\d+\/\d+ )?\d\d:\d\d:\d\d$/, `an untagged version is named by its time: ${label(untagged)}`);

    const example = (await children('datasets', dataset)).find((n) => n.id.startsWith('example/'))!;
    assert.ok(label(example).length > 0 && !/^[0-9a-f-]{36}$/.test(label(example)), 'an example reads as its inputs');
  });

  it('fits each row at the default sidebar width, what matters first and the rest in the tooltip', async () => {
    const fits = (n: TreeNode, chars: number) => assert.ok(label(n).length + 1 + description(n).length <= chars || !description(n).includes(' · '), `“${label(n)} ${description(n)}” fits ${chars} characters`);
    const datasets = await children('datasets');
    const transcripts = datasets.find((d) => label(d) === 'demo-chat-transcripts')!;
    assert.match(description(transcripts), /^\d+ ex\.$/, `a long name keeps its count, shortened: ${description(transcripts)}`);
    assert.match(tooltip(transcripts).value, /\d+ examples · type chat/, 'the full count and the type are in the tooltip');
    const qa = datasets.find((d) => label(d) === 'demo-support-qa')!;
    assert.match(description(qa), /^\d+ examples$/, `a short name has the words: ${description(qa)}`);
    for (const d of datasets.filter((n) => n.id.startsWith('dataset/'))) assert.ok(label(d).length + 1 + description(d).length <= 30 || label(d).length > 24, `“${label(d)} ${description(d)}” fits`);

    const prompts = await children('prompts');
    const rag = prompts.find((p) => label(p) === 'demo-rag-answer')!;
    assert.match(description(rag), /^\d+ commits?$/, `the count first, the rest in the tooltip: ${description(rag)}`);
    assert.match(tooltip(rag).value, /public · \d+ commits?/);
    assert.match(tooltip(rag).value, /Updated /);
    for (const p of prompts.filter((n) => n.id.startsWith('prompt/-'))) fits(p, 30);
    const publicPrompts = prompts.find((p) => label(p) === 'Public prompts')!;
    assert.equal(description(publicPrompts), '', 'no hint cut in the row');
    assert.match(String(publicPrompts.treeItem().tooltip), /search button/, 'the hint is the tooltip');
  });

  it('shows server text in tooltips as text, never as markup or command links', async () => {
    const name = `**bold** [x](command:langsmith.signOut) <img src=x> ${Date.now()}`;
    await http('POST', '/sessions', { name, description: '[click](command:langsmith.signOut) _it_' });
    workbench.views.projects.refresh();
    const node = (await children('projects')).find((p) => label(p) === name)!;
    assert.ok(node, 'the project is listed under its name, as written');
    const md = tooltip(node);
    assert.ok(!md.isTrusted, 'tooltips are not trusted: no command links run');
    assert.ok(!md.supportHtml, 'no HTML in tooltips');
    assert.ok(md.value.includes('\\*\\*bold\\*\\*'), md.value);
    assert.ok(md.value.includes('\\[click\\]\\(command:langsmith'), md.value);
    assert.ok(!/\]\(command:/.test(md.value), 'no live Markdown link to a command');
  });

  it('has a walkthrough whose steps run the extension’s commands', async () => {
    const [walkthrough] = pkg.contributes.walkthroughs;
    assert.equal(walkthrough!.id, 'getStarted');
    const commands = new Set(await vscode.commands.getCommands(true));
    const linked = walkthrough!.steps.flatMap((s) => [...s.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]!));
    assert.equal(linked.length, walkthrough!.steps.length, 'one button per step');
    for (const c of linked) assert.ok(commands.has(c), `${c} is a command`);
    for (const step of walkthrough!.steps) assert.ok(step.description.length > 20);
  });
});
