// The prompt commit panel's host side: reads the prompt file as the editor has it (saved or not) and the prompt
// on LangSmith, tells the webview what a push would change, follows the file while it is edited, and pushes
// (never on a parent other than the one the user saw).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../constants';
import type { ParsedPromptFile, RemotePrompt } from '../../promptFile';
import { promptNamedBy } from '../../promptFile/fileNames';
import { editablePromptFileUri, parsePromptDocument, promptFormat } from '../../prompts/promptFiles';
import {
  OpenCommit,
  PromptCommitChanged,
  PromptCommitKey,
  PromptCommitReady,
  PushPrompt,
  RevealFile,
  ShowDiff,
  type LocalInfo,
  type PromptCommitState,
  type RemoteInfo,
} from '../../protocol/promptCommit';
import { RequestError } from '../../protocol/router';
import { promptCommitUri, showDocument } from '../../views/documents';
import type { ParamsOf, ResultOf } from '../../protocol/messages';
import type { PanelApp, PanelContext, PanelController, PanelServices } from '../panels';
import type { WebviewHost } from '../webviewHost';

function fileUri(key: PromptCommitKey): vscode.Uri | undefined {
  return editablePromptFileUri(key.uri);
}

/** The prompt a file names, even when the file has problems elsewhere (so the panel can still show the remote). */
function namedPrompt(parsed: ParsedPromptFile, text: string): string | null {
  return promptNamedBy(parsed, text) ?? null;
}

function localInfo(doc: vscode.TextDocument, parsed: ParsedPromptFile): LocalInfo {
  const text = doc.getText();
  const f = parsed.file;
  return {
    fileName: path.posix.basename(doc.uri.path),
    dirty: doc.isDirty,
    identifier: namedPrompt(parsed, text),
    templateFormat: f?.templateFormat ?? null,
    variables: [...new Set(parsed.variables.filter((v) => v.where === 'template').map((v) => v.name))],
    problems: parsed.problems
      .filter((p) => p.severity === 'error' || p.severity === 'warning')
      .slice(0, 100)
      .map((p) => {
        const pos = doc.positionAt(Math.min(p.offset, text.length));
        return { message: p.message.slice(0, 2000), severity: p.severity, line: pos.line + 1, column: pos.character + 1 };
      }),
    description: f?.description ?? null,
    visibility: f?.visibility ?? null,
  };
}

function remoteInfo(r: RemotePrompt): RemoteInfo {
  const t = r.target;
  const tagsOf = (hash: string) => r.tags.filter((x) => x.commit_hash === hash).map((x) => x.tag_name);
  const env = (name: string) => r.tags.find((x) => x.tag_name === name)?.commit_hash ?? null;
  return {
    displayName: t.own ? (t.handle ? `${t.handle}/${t.name}` : t.name) : `${t.owner}/${t.name}`,
    exists: r.repo !== null,
    own: t.own,
    refusal: t.refusal ?? null,
    isPublic: r.repo ? !!r.repo.is_public : null,
    description: r.repo?.description ?? null,
    latest: r.latest ? { hash: r.latest.commit_hash, createdAt: r.latest.created_at ?? null, tags: tagsOf(r.latest.commit_hash) } : null,
    environments: { production: env('production'), staging: env('staging') },
    tags: r.tags.map((x) => x.tag_name),
  };
}

export const promptCommitApp: PanelApp<PromptCommitKey, typeof PromptCommitReady.result.shape.state> = {
  ready: PromptCommitReady,
  parseKey(raw) {
    const key = PromptCommitKey.safeParse(raw);
    return key.success && fileUri(key.data) ? key.data : undefined;
  },
  keyId: (key) => key.uri,
  title: (key) => vscode.l10n.t('Push · {0}', path.posix.basename(fileUri(key)?.path ?? 'prompt')),

  open(context) {
    const panel = new PromptCommitPanel(context);
    const { router } = context.host;
    router.onRequest(PushPrompt, (params, { signal }) => panel.push(params, signal));
    router.onRequest(ShowDiff, () => panel.showDiff());
    router.onRequest(OpenCommit, ({ hash }) => panel.openCommit(hash));
    router.onRequest(RevealFile, ({ line, column }) => panel.revealFile(line, column));
    return panel;
  },
};

/** One prompt commit panel: the file it pushes, the prompt on LangSmith as last read, the file followed while edited. */
class PromptCommitPanel implements PanelController<PromptCommitState> {
  private readonly host: WebviewHost;
  private readonly services: PanelServices;
  private readonly uri: vscode.Uri;
  private remote: RemotePrompt | null = null;
  private remoteError: string | null = null;
  private remoteFor: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor({ host, key, services }: PanelContext<PromptCommitKey>) {
    this.host = host;
    this.services = services;
    this.uri = fileUri(key)!;
    // Follow the file while it is edited.
    const follow = (doc: vscode.TextDocument) => {
      if (doc.uri.toString() !== this.uri.toString()) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.read(this.host.signal, false).then(
          (s) => this.host.notify(PromptCommitChanged, s),
          (e: unknown) => this.services.log.warn(`Prompt commit panel: ${e instanceof Error ? e.message : String(e)}`),
        );
      }, 250);
    };
    this.subscriptions = [vscode.workspace.onDidChangeTextDocument((e) => follow(e.document)), vscode.workspace.onDidSaveTextDocument(follow)];
  }

  private async readRemote(identifier: string, signal: AbortSignal): Promise<void> {
    const format = await promptFormat();
    try {
      this.remote = await this.services.clients.call((c) => format.readRemote(c, identifier, signal));
      this.remoteError = null;
    } catch (e) {
      if (signal.aborted) throw e;
      this.remote = null;
      this.remoteError = e instanceof Error ? e.message : String(e);
    }
    this.remoteFor = identifier;
  }

  /** The whole state, the prompt on LangSmith read again (every ready request). */
  state(signal: AbortSignal): Promise<PromptCommitState> {
    return this.read(signal, true);
  }

  /** The state; the remote prompt is read again when asked or when the file now names another prompt. */
  private async read(signal: AbortSignal, refetch: boolean): Promise<PromptCommitState> {
    const doc = await vscode.workspace.openTextDocument(this.uri);
    const parsed = await parsePromptDocument(doc);
    const local = localInfo(doc, parsed);
    if (local.identifier && (refetch || this.remoteFor !== local.identifier)) await this.readRemote(local.identifier, signal);
    const current = local.identifier && this.remoteFor === local.identifier ? this.remote : null;
    const format = await promptFormat();
    const changes = parsed.file && current && !current.target.refusal ? format.changesBetween(current, parsed.file) : [];
    return { local, remote: current ? remoteInfo(current) : null, remoteError: local.identifier ? this.remoteError : null, changes };
  }

  async push({ parent, description, tags, create }: ParamsOf<typeof PushPrompt>, signal: AbortSignal): Promise<ResultOf<typeof PushPrompt>> {
    const uri = this.uri;
    const doc = await vscode.workspace.openTextDocument(uri);
    const parsed = await parsePromptDocument(doc);
    if (!parsed.file) {
      const first = parsed.problems.find((p) => p.severity === 'error');
      throw new RequestError(
        'invalidParams',
        first
          ? vscode.l10n.t('Fix the problems in {0} first: {1}. Nothing was pushed.', path.posix.basename(uri.path), first.message)
          : vscode.l10n.t('Fix the problems in {0} first. Nothing was pushed.', path.posix.basename(uri.path)),
      );
    }
    const file = parsed.file;
    const format = await promptFormat();
    const outcome = await this.services.clients.call((c) => format.pushPromptFile(c, file, { expectedParent: parent, description, commitTags: tags, create: create ?? undefined, signal }));
    const next = await this.read(signal, true);
    if (outcome.status === 'stale') return { status: 'stale' as const, state: next };
    const target = this.remote?.target;
    // The read after the push knows the prompt's commit count: the tree's row takes it without reading it again.
    if (target) this.services.changes.publish({ kind: 'prompt', name: target.name, handle: target.handle, commits: this.remote?.repo?.num_commits ?? undefined });
    if (outcome.status === 'nothingToCommit') {
      this.services.log.info(`Push of ${uri.fsPath || uri.path}: nothing to commit${outcome.updated.length ? `; updated ${outcome.updated.join(', ')}` : ''}.`);
      return { status: 'nothingToCommit' as const, hash: outcome.commitHash, updated: outcome.updated, tags: outcome.tags, state: next };
    }
    this.services.log.info(`Pushed ${uri.fsPath || uri.path} as commit ${outcome.commitHash} of ${file.identifier}${outcome.created ? ' (new prompt)' : ''}.`);
    return { status: 'pushed' as const, hash: outcome.commitHash, created: outcome.created, updated: outcome.updated, tags: outcome.tags, state: next };
  }

  async showDiff(): Promise<Record<string, never>> {
    await vscode.commands.executeCommand(Commands.compareWithRemote, this.uri, 'latest');
    return {};
  }

  async openCommit(hash: string): Promise<Record<string, never>> {
    if (!/^[0-9a-f]{6,64}$/i.test(hash) || !this.remote) throw new RequestError('invalidParams', vscode.l10n.t('Unknown commit.'));
    await showDocument(promptCommitUri({ identifier: this.remote.target.identifier, commit: hash }));
    return {};
  }

  async revealFile(line: number | null | undefined, column: number | null | undefined): Promise<Record<string, never>> {
    const doc = await vscode.workspace.openTextDocument(this.uri);
    const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), Math.max(0, (column ?? 1) - 1));
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(pos, pos) });
    return {};
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}
