// Prompt files and commits: push a file (the commit panel), pull a prompt into a file, compare a file with any
// commit or tag, compare two commits, tag a commit (a tag that exists moves), delete a tag, promote a commit to
// production or staging, import a .prompty file.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { LangSmithClient, PromptTag } from '../client';
import { asPromptYamlPath, isPromptFile, promptNamedBy } from '../promptFile/fileNames';
import { PROMPT_FILE_GLOB, promptFormat } from '../prompts/promptFiles';
import { documentUri, promptCommitUri, showDocument } from '../views/documents';
import { formatWhen } from '../text/format';
import { CommitNode, PromptNode } from '../views/promptsView';
import type { LangSmithViews } from '../views/views';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import { Commands } from '../constants';
import { prompter } from '../common/prompter';
import type { CommandRegistrar } from './registerCommand';
import { UserCancelled } from './registerCommand';
import { choose, selection } from './ui';

interface RefPick extends vscode.QuickPickItem {
  ref: string;
  hash: string;
}

const short = (hash: string) => hash.slice(0, 8);

/** Latest, the tags and the commits of a prompt, as one pick list. */
async function refPicks(client: LangSmithClient, identifier: string, exclude?: string): Promise<RefPick[]> {
  const [tags, commits] = await Promise.all([client.prompts.listTags(identifier).catch((): PromptTag[] => []), collect(client.prompts.listCommits(identifier, { limit: 100 }))]);
  if (!commits.length) throw new Error(vscode.l10n.t('{0} has no commits yet.', identifier));
  const tagsOf = (hash: string) => tags.filter((t) => t.commit_hash === hash).map((t) => t.tag_name);
  const latest = commits[0]!;
  const items: RefPick[] = [
    { label: `$(arrow-up) ${vscode.l10n.t('latest')}`, description: `${short(latest.commit_hash)} · ${formatWhen(latest.created_at)}`, ref: 'latest', hash: latest.commit_hash },
    ...tags.map((t) => ({ label: `$(tag) ${t.tag_name}`, description: t.commit_hash ? `${short(t.commit_hash)}` : '', ref: t.tag_name, hash: t.commit_hash ?? '' })),
    ...commits.map((c, i) => ({
      label: `$(git-commit) ${short(c.commit_hash)}`,
      description: [tagsOf(c.commit_hash).join(', '), i === 0 ? vscode.l10n.t('latest') : undefined, formatWhen(c.created_at)].filter(Boolean).join(' · '),
      detail: typeof c['description'] === 'string' && c['description'] ? String(c['description']) : undefined,
      ref: c.commit_hash,
      hash: c.commit_hash,
    })),
  ];
  return items.filter((i) => i.hash !== exclude || i.ref === 'latest');
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The prompt file a command is about: the given URI, else the active editor's document. */
function promptFileUri(arg: unknown): vscode.Uri {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri || !isPromptFile(uri.path)) throw new Error(vscode.l10n.t('Open a prompt file (*.prompt.yaml or *.prompt.json) first.'));
  if (uri.scheme === 'langsmith') throw new Error(vscode.l10n.t('This is a commit from LangSmith, read-only. Pull it into a file to change it.'));
  return uri;
}

async function identifierOf(uri: vscode.Uri): Promise<string> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const format = await promptFormat();
  const text = doc.getText();
  const id = promptNamedBy(format.parsePromptText(text, uri.path), text);
  if (!id) throw new Error(vscode.l10n.t('{0} names no prompt: add `prompt: <name>` at the top.', path.posix.basename(uri.path)));
  return id;
}

/** Writes text into a file: through the editor when it is open (so undo works), else to disk. */
async function writeFile(uri: vscode.Uri, text: string): Promise<void> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), text);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t('Could not write {0}.', path.posix.basename(uri.path)));
    await open.save();
    return;
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

async function readIfExists(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

export function registerPromptFileCommands(register: CommandRegistrar, clients: ClientService, views: LangSmithViews, panels: PanelFrame): void {
  const pickRef = async (identifier: string, title: string, exclude?: string): Promise<RefPick> =>
    choose(clients.call((c) => refPicks(c, identifier, exclude)), { title, placeholder: vscode.l10n.t('latest, a tag or a commit'), busyPlaceholder: vscode.l10n.t('Loading commits and tags…') });

  register(Commands.pushPromptFile, async (arg) => {
    const uri = promptFileUri(arg);
    await panels.show(Panels.promptCommit, { uri: uri.toString() }, vscode.ViewColumn.Beside);
  });

  register(Commands.pullPrompt, async (arg, refArg) => {
    let identifier: string;
    let target: vscode.Uri | undefined;
    let ref: string;
    if (arg instanceof CommitNode) {
      identifier = arg.promptNode.identifier;
      ref = arg.commit.commit_hash;
    } else if (arg instanceof PromptNode) {
      identifier = arg.identifier;
      ref = 'latest';
    } else if (arg instanceof vscode.Uri) {
      target = promptFileUri(arg);
      identifier = await identifierOf(target);
      ref = typeof refArg === 'string' ? refArg : (await pickRef(identifier, vscode.l10n.t('Pull {0} into {1}', identifier, path.posix.basename(target.path)))).ref;
    } else {
      const repos = clients.call(async (c) => {
        const out: (vscode.QuickPickItem & { identifier: string })[] = [];
        for await (const r of c.prompts.list({ limit: 500 })) {
          out.push({ label: r.repo_handle, description: [r.owner, r.is_public ? vscode.l10n.t('public') : vscode.l10n.t('private'), formatWhen(r.updated_at)].filter(Boolean).join(' · '), detail: r.description ?? undefined, identifier: r.owner && r.owner !== (await c.settings()).tenant_handle ? `${r.owner}/${r.repo_handle}` : r.repo_handle });
        }
        return out;
      });
      identifier = (await choose(repos, { title: vscode.l10n.t('Pull Prompt (1/2)'), placeholder: vscode.l10n.t('The prompt to pull'), busyPlaceholder: vscode.l10n.t('Loading prompts…') })).identifier;
      ref = (await pickRef(identifier, vscode.l10n.t('Pull Prompt (2/2): {0}', identifier))).ref;
    }
    const format = await promptFormat();
    const { manifest, repo, handle } = await clients.call(async (c) => {
      const [pulled, repo, settings] = await Promise.all([c.prompts.pull(`${identifier}:${ref}`, { includeModel: true }), c.prompts.get(identifier), c.settings()]);
      return { manifest: pulled.manifest, repo, handle: settings.tenant_handle ?? null };
    });
    const name = identifier.split('/').pop()!;
    const own = !identifier.includes('/') || identifier.startsWith('-/') || identifier.split('/')[0] === handle;
    const file = format.fromManifest(manifest, {
      identifier: own ? name : identifier,
      description: repo?.description,
      readme: repo?.readme,
      tags: repo?.tags,
      isPublic: repo?.is_public,
    });
    // A file chosen in the save dialog was confirmed there if it exists: the pull asks no second time.
    let overwriteConfirmed = false;
    if (!target) {
      const fileName = format.promptFileName(name);
      const chosen = await prompter().saveFile({
        title: vscode.l10n.t('Pull {0} into a prompt file', identifier),
        saveLabel: vscode.l10n.t('Pull'),
        defaultUri: await proposedPromptFile(fileName),
        filters: { [vscode.l10n.t('Prompt files')]: ['yaml'] },
      });
      if (!chosen) throw new UserCancelled();
      target = chosen.with({ path: asPromptYamlPath(chosen.path) });
      overwriteConfirmed = target.path === chosen.path;
    }
    const existing = await readIfExists(target);
    let text: string;
    if (existing !== undefined && existing.trim()) {
      const parsed = format.parsePromptFile(existing);
      const sameContent = parsed.file && format.canonicalJson(format.toManifest(parsed.file, manifest)) === format.canonicalJson(manifest);
      if (!sameContent && !overwriteConfirmed) {
        const ok = await prompter().confirm(
          ref === 'latest'
            ? vscode.l10n.t('Replace the prompt in {0} with {1} at the latest commit?', path.posix.basename(target.path), identifier)
            : vscode.l10n.t('Replace the prompt in {0} with {1} at {2}?', path.posix.basename(target.path), identifier, short(ref)),
          vscode.l10n.t('The file’s own changes are replaced (undo in the editor brings them back while it is open). Its comments and layout are kept.'),
          vscode.l10n.t('Replace'),
        );
        if (!ok) throw new UserCancelled();
      }
      text = parsed.file || !parsed.problems.some((p) => p.code === 'yaml') ? format.rewritePromptFile(existing, file) : format.writePromptFile(file, { header: true });
    } else text = format.writePromptFile(file, { header: true });
    await writeFile(target, text);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target), { preview: false });
    vscode.window.setStatusBarMessage(vscode.l10n.t('Pulled {0} into {1}', ref === 'latest' ? identifier : `${identifier}:${short(ref)}`, path.posix.basename(target.path)), 5000);
  });

  register(Commands.compareWithRemote, async (arg, refArg) => {
    const uri = promptFileUri(arg);
    const identifier = await identifierOf(uri);
    const pick = typeof refArg === 'string' ? { ref: refArg, hash: refArg } : await pickRef(identifier, vscode.l10n.t('Compare {0} with…', path.posix.basename(uri.path)));
    const label = pick.ref === 'latest' ? 'latest' : pick.ref === pick.hash ? short(pick.hash) : pick.ref;
    const left = promptCommitUri({ identifier, commit: pick.ref, like: uri.toString() }, `${identifier.split('/').pop()}-${label}`);
    await vscode.commands.executeCommand('vscode.diff', left, uri, `${identifier} @ ${label} ↔ ${path.posix.basename(uri.path)}`, { preview: true });
  });

  register(Commands.compareCommits, async (clicked, selected) => {
    const commits = selection(clicked, selected, (n): n is CommitNode => n instanceof CommitNode);
    let identifier: string;
    let a: string;
    let b: string;
    if (commits.length >= 2) {
      const [x, y] = commits as [CommitNode, CommitNode];
      if (x.promptNode.identifier !== y.promptNode.identifier) throw new Error(vscode.l10n.t('Select two commits of the same prompt.'));
      identifier = x.promptNode.identifier;
      // Older on the left.
      [a, b] = (x.commit.created_at ?? '') <= (y.commit.created_at ?? '') ? [x.commit.commit_hash, y.commit.commit_hash] : [y.commit.commit_hash, x.commit.commit_hash];
    } else if (commits.length === 1) {
      identifier = commits[0]!.promptNode.identifier;
      b = commits[0]!.commit.commit_hash;
      a = (await pickRef(identifier, vscode.l10n.t('Compare {0} with…', short(b)), b)).ref;
    } else if (clicked instanceof PromptNode) {
      identifier = clicked.identifier;
      a = (await pickRef(identifier, vscode.l10n.t('Compare Commits of {0} (1/2): the older', identifier))).ref;
      b = (await pickRef(identifier, vscode.l10n.t('Compare Commits of {0} (2/2): the newer', identifier))).ref;
    } else throw new Error(vscode.l10n.t('Select one or two commits in the Prompts view.'));
    const label = (r: string) => (/^[0-9a-f]{12,}$/i.test(r) ? short(r) : r);
    await vscode.commands.executeCommand('vscode.diff', promptCommitUri({ identifier, commit: a }), promptCommitUri({ identifier, commit: b }), `${identifier}: ${label(a)} ↔ ${label(b)}`, { preview: true });
  });

  const commitNode = (node: unknown): CommitNode => {
    if (!(node instanceof CommitNode)) throw new Error(vscode.l10n.t('Select a commit in the Prompts view first.'));
    if (!node.promptNode.own) throw new Error(vscode.l10n.t('Only prompts of your own workspace can be tagged.'));
    if (!node.commit.id) throw new Error(vscode.l10n.t('This commit has no id to tag.'));
    return node;
  };

  register(Commands.tagCommit, async (node) => {
    const c = commitNode(node);
    const format = await promptFormat();
    const name = await prompter().input({
      title: vscode.l10n.t('Tag commit {0} of {1}', short(c.commit.commit_hash), c.promptNode.identifier),
      prompt: vscode.l10n.t('Tag name (an existing tag moves to this commit)'),
      validateInput: (v) => format.tagNameProblem(v.trim()),
    });
    if (name === undefined) throw new UserCancelled();
    const tag = name.trim();
    const problem = format.tagNameProblem(tag);
    if (problem) throw new Error(problem);
    await clients.call((client) => format.setCommitTag(client, c.promptNode.identifier, tag, c.commit.id!));
    views.refreshNode(c.promptNode);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Tagged {0} as {1}', short(c.commit.commit_hash), tag), 4000);
  });

  register(Commands.deleteCommitTag, async (node) => {
    const c = commitNode(node);
    if (!c.tags.length) throw new Error(vscode.l10n.t('This commit has no tags.'));
    const tag =
      c.tags.length === 1
        ? c.tags[0]!
        : (await choose(c.tags.map((t) => ({ label: t })), { title: vscode.l10n.t('Delete a tag'), placeholder: vscode.l10n.t('The tag to delete') })).label;
    const ok = await prompter().confirm(
      vscode.l10n.t('Delete the tag “{0}” of {1}?', tag, c.promptNode.identifier),
      vscode.l10n.t('Code that pulls the prompt by this tag will fail until it is set again.'),
      vscode.l10n.t('Delete Tag'),
    );
    if (!ok) throw new UserCancelled();
    await clients.call((client) => client.prompts.deleteTag(c.promptNode.identifier, tag));
    views.refreshNode(c.promptNode);
  });

  register(Commands.promoteCommit, async (node) => {
    const c = commitNode(node);
    const identifier = c.promptNode.identifier;
    const tags = await clients.call((client) => client.prompts.listTags(identifier));
    const envs = ['production', 'staging'].map((env) => {
      const now = tags.find((t) => t.tag_name === env);
      const here = now?.commit_hash === c.commit.commit_hash;
      return {
        label: env,
        env,
        now,
        description: !now ? vscode.l10n.t('not set yet') : here ? vscode.l10n.t('already this commit') : vscode.l10n.t('now at {0}', short(now.commit_hash ?? '')),
      };
    });
    const pick = await choose(envs, {
      title: vscode.l10n.t('Promote {0} of {1} to…', short(c.commit.commit_hash), identifier),
      placeholder: vscode.l10n.t('The environment tag to point at this commit'),
    });
    if (pick.now?.commit_hash === c.commit.commit_hash) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} already points at {1}.', pick.env, short(c.commit.commit_hash)));
      return;
    }
    if (pick.now?.commit_hash) {
      // Show what changes for whoever pulls the environment, then ask.
      await vscode.commands.executeCommand('vscode.diff', promptCommitUri({ identifier, commit: pick.now.commit_hash }), promptCommitUri({ identifier, commit: c.commit.commit_hash }), `${pick.env}: ${short(pick.now.commit_hash)} → ${short(c.commit.commit_hash)}`, { preview: true });
    }
    const ok = await prompter().confirm(
      pick.now?.commit_hash
        ? vscode.l10n.t('Move {0} from {1} to {2}?', pick.env, short(pick.now.commit_hash), short(c.commit.commit_hash))
        : vscode.l10n.t('Point {0} at {1}?', pick.env, short(c.commit.commit_hash)),
      vscode.l10n.t('Whoever pulls {0} gets this commit from now on.', `${identifier}:${pick.env}`),
      vscode.l10n.t('Promote to {0}', pick.env),
    );
    if (!ok) throw new UserCancelled();
    const format = await promptFormat();
    await clients.call((client) => format.setCommitTag(client, identifier, pick.env, c.commit.id!));
    views.refreshNode(c.promptNode);
    vscode.window.setStatusBarMessage(`${pick.env} → ${short(c.commit.commit_hash)}`, 4000);
  });

  register(Commands.openCommitManifest, async (node) => {
    if (!(node instanceof CommitNode)) throw new Error(vscode.l10n.t('Select a prompt commit first.'));
    const id = `${node.promptNode.identifier}:${node.commit.commit_hash}`;
    await showDocument(documentUri('commit', id, `${node.promptNode.repo.repo_handle}-${short(node.commit.commit_hash)}`));
  });

  register(Commands.importPrompty, async (arg) => {
    const source = arg instanceof vscode.Uri ? arg : await prompter().openFile({ title: vscode.l10n.t('Import a .prompty file'), openLabel: vscode.l10n.t('Import'), filters: { Prompty: ['prompty'] } });
    if (!source) throw new UserCancelled();
    const format = await promptFormat();
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(source));
    const base = path.posix.basename(source.path).replace(/\.prompty$/i, '');
    const file = format.promptyToPromptFile(text, base);
    const defaultUri = source.with({ path: path.posix.join(path.posix.dirname(source.path), format.promptFileName(file.identifier ?? base)) });
    const target = await prompter().saveFile({
      title: vscode.l10n.t('Save the prompt file'),
      saveLabel: vscode.l10n.t('Save'),
      defaultUri,
      filters: { [vscode.l10n.t('Prompt files')]: ['yaml'] },
    });
    if (!target) throw new UserCancelled();
    const existing = await readIfExists(target);
    if (existing?.trim()) {
      const ok = await prompter().confirm(vscode.l10n.t('Replace {0}?', path.posix.basename(target.path)), vscode.l10n.t('The file exists; its content is replaced.'), vscode.l10n.t('Replace'));
      if (!ok) throw new UserCancelled();
    }
    await writeFile(target, format.writePromptFile(file, { header: true }));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target), { preview: false });
  });
}

/**
 * Where Pull Prompt proposes to write: the prompt's own file if the workspace has one by that name, else that name
 * in the folder holding most of the workspace's prompt files (the shallower on a tie), else the first workspace
 * folder.
 */
export async function proposedPromptFile(fileName: string): Promise<vscode.Uri | undefined> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) return undefined;
  return promptFileLocation(await vscode.workspace.findFiles(PROMPT_FILE_GLOB, '**/node_modules/**', 500), root, fileName);
}

/** The choice of proposedPromptFile among the workspace's prompt files. */
export function promptFileLocation(files: readonly vscode.Uri[], root: vscode.Uri, fileName: string): vscode.Uri {
  const same = files.filter((f) => path.posix.basename(f.path) === fileName).sort((a, b) => a.path.length - b.path.length)[0];
  if (same) return same;
  const perFolder = new Map<string, { folder: vscode.Uri; count: number }>();
  for (const f of files) {
    const folder = vscode.Uri.joinPath(f, '..');
    const entry = perFolder.get(folder.toString()) ?? { folder, count: 0 };
    entry.count++;
    perFolder.set(folder.toString(), entry);
  }
  const depth = (u: vscode.Uri) => u.path.split('/').length;
  const best = [...perFolder.values()].sort((a, b) => b.count - a.count || depth(a.folder) - depth(b.folder))[0];
  return vscode.Uri.joinPath(best?.folder ?? root, fileName);
}
