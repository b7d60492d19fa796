// Prompt references in JavaScript, TypeScript and Python documents: a hover with the version a reference pulls
// (its messages, commit, tags and time), Go to Definition to the workspace's prompt file for that prompt or else
// to the remote version as a read-only prompt file, a warning when the prompt, tag or commit does not exist on
// the connected LangSmith (nothing when signed out, offline or on any other failure), and completion of prompt
// names and tags inside the literal. References are found once per document version; diagnostics are computed
// after typing pauses; lookups go through one cached, batched PromptLookup per connection.
import * as vscode from 'vscode';
import { KeyedDebounce } from '../../common/keyedDebounce';
import { NotSignedInError, type ClientService } from '../../auth/clientService';
import { promptCommitUri } from '../../views/documents';
import { fenced, formatWhen } from '../../text/format';
import type { FileMessage, PromptFile } from '../../promptFile';
import { isPromptDocument, PROMPT_FILE_GLOB, promptFormat } from '../promptFiles';
import type * as Engine from '../../promptReferences/engine';
import type { PromptIdentifierParts, PromptLookup, PromptReference, PromptVersion, ReferenceProblem } from '../../promptReferences/engine';

/** How long typing must pause before a document's references are checked against LangSmith. */
const CHECK_DELAY_MS = 500;
/** The most characters of one template a hover shows, and of all of them. */
const TEMPLATE_CHARS = 1500;
const HOVER_CHARS = 6000;

export class PromptReferenceSupport implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('langsmith-prompt-references');
  private readonly disposables: vscode.Disposable[] = [this.diagnostics];
  private readonly found = new Map<string, { version: number; refs: PromptReference[] }>();
  private readonly timers = new KeyedDebounce();
  private readonly localFiles = new LocalPromptFiles();
  private lookup: PromptLookup;

  constructor(
    private readonly clients: ClientService,
    /** The finder and the lookups (a bundle loaded apart). */
    private readonly engine: typeof Engine,
  ) {
    this.lookup = this.newLookup();
    this.disposables.push(
      this.localFiles,
      clients.connection.onDidChange(() => {
        // Another endpoint, key or workspace: nothing known holds any more.
        this.lookup = this.newLookup();
        this.checkAll();
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) this.schedule(e.document, CHECK_DELAY_MS);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const key = doc.uri.toString();
        this.diagnostics.delete(doc.uri);
        this.found.delete(key);
        this.timers.cancel(key);
      }),
    );
    this.checkAll();
  }

  private newLookup(): PromptLookup {
    return new this.engine.PromptLookup((work) => this.clients.call(work));
  }

  promptChanged(name: string): void {
    this.lookup.invalidate(name);
    this.checkAll();
  }

  private checkAll(): void {
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc, 0);
  }

  /** The references of a document at its current version (found once per version). */
  references(doc: vscode.TextDocument): PromptReference[] {
    const language = this.engine.sourceLanguageOf(doc.languageId);
    if (!language) return [];
    const key = doc.uri.toString();
    const hit = this.found.get(key);
    if (hit && hit.version === doc.version) return hit.refs;
    const refs = this.engine.findPromptReferences(doc.getText(), language);
    this.found.set(key, { version: doc.version, refs });
    return refs;
  }

  private referenceAt(doc: vscode.TextDocument, pos: vscode.Position): PromptReference | undefined {
    return this.engine.referenceAt(this.references(doc), doc.offsetAt(pos));
  }

  // ---------- diagnostics ----------

  private schedule(doc: vscode.TextDocument, delay: number): void {
    if (!this.engine.sourceLanguageOf(doc.languageId) || doc.uri.scheme === 'langsmith' || doc.uri.scheme === 'output') return;
    this.timers.schedule(doc.uri.toString(), delay, () => void this.publish(doc));
  }

  private async publish(doc: vscode.TextDocument): Promise<void> {
    if (doc.isClosed) return;
    const version = doc.version;
    const refs = this.references(doc).filter((r) => r.closed);
    if (!refs.length) {
      this.diagnostics.delete(doc.uri);
      return;
    }
    const lookup = this.lookup;
    const diagnostics: vscode.Diagnostic[] = [];
    const valid = refs.filter((r): r is PromptReference & { parts: PromptIdentifierParts } => r.parts !== undefined);
    for (const r of refs) {
      // An empty literal is one being typed (`pullPrompt("")` as the editor closes the quote): no warning yet.
      if (!r.parts && r.value.trim()) diagnostics.push(this.diagnostic(doc, r, vscode.l10n.t('“{0}” is not a prompt identifier: use name, owner/name, name:tag or name:commit.', r.value), 'promptIdentifier'));
    }
    let problems: (ReferenceProblem | null)[];
    try {
      problems = valid.length ? await lookup.check(valid.map((r) => r.parts)) : [];
    } catch {
      // Signed out, offline, refused or failing: LangSmith said nothing about these prompts, so nothing is shown.
      problems = [];
    }
    if (doc.isClosed || doc.version !== version || lookup !== this.lookup) return; // a newer check is on its way
    problems.forEach((p, i) => {
      if (p) diagnostics.push(this.diagnostic(doc, valid[i]!, problemText(p), p.kind));
    });
    this.diagnostics.set(doc.uri, diagnostics);
  }

  private diagnostic(doc: vscode.TextDocument, r: PromptReference, message: string, code: string): vscode.Diagnostic {
    const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(r.valueStart), doc.positionAt(r.valueEnd)), message, vscode.DiagnosticSeverity.Warning);
    d.source = 'LangSmith';
    d.code = code;
    return d;
  }

  // ---------- hover ----------

  async hover(doc: vscode.TextDocument, pos: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    const r = this.referenceAt(doc, pos);
    if (!r?.parts || !r.closed) return undefined;
    const range = new vscode.Range(doc.positionAt(r.start), doc.positionAt(r.end));
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${vscode.l10n.t('LangSmith prompt')}** `);
    md.appendText(r.value);
    md.appendMarkdown('\n\n');
    let answer: Awaited<ReturnType<PromptLookup['version']>>;
    try {
      answer = await this.lookup.version(r.parts);
    } catch (err) {
      if (token.isCancellationRequested) return undefined;
      md.appendText(err instanceof NotSignedInError ? vscode.l10n.t('Sign in to LangSmith to see this prompt.') : vscode.l10n.t('LangSmith could not be asked about this prompt.'));
      return new vscode.Hover(md, range);
    }
    if (token.isCancellationRequested) return undefined;
    if ('problem' in answer) {
      md.appendText(problemText(answer.problem));
      return new vscode.Hover(md, range);
    }
    const v = answer.version;
    const file = await promptFormat()
      .then((f) => f.fromManifest(v.manifest, { identifier: v.key }))
      .catch(() => undefined);
    appendVersionLine(md, v);
    if (v.description) {
      md.appendMarkdown('\n\n');
      md.appendText(v.description);
    }
    md.appendMarkdown('\n\n---\n\n');
    if (file) appendMessages(md, file);
    else md.appendText(vscode.l10n.t('This commit’s manifest is not a prompt the editor can show.'));
    return new vscode.Hover(md, range);
  }

  // ---------- Go to Definition ----------

  async definition(doc: vscode.TextDocument, pos: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Location | undefined> {
    const r = this.referenceAt(doc, pos);
    if (!r?.parts || !r.closed) return undefined;
    const key = this.engine.promptKey(r.parts);
    const local = await this.localFiles.find(key);
    if (local || token.isCancellationRequested) return local;
    const answer = await this.lookup.version(r.parts).catch(() => undefined);
    if (!answer || !('version' in answer) || token.isCancellationRequested) return undefined;
    const v = answer.version;
    const label = `${r.parts.name}-${r.parts.ref && r.parts.kind === 'tag' ? r.parts.ref : v.commitHash.slice(0, 8)}`;
    return new vscode.Location(promptCommitUri({ identifier: key, commit: v.commitHash }, label), new vscode.Position(0, 0));
  }

  // ---------- completion ----------

  async complete(doc: vscode.TextDocument, pos: vscode.Position, token: vscode.CancellationToken): Promise<vscode.CompletionItem[] | undefined> {
    const r = this.referenceAt(doc, pos);
    if (!r) return undefined;
    const offset = doc.offsetAt(pos);
    const typed = r.value.slice(0, offset - r.valueStart);
    const colon = typed.indexOf(':');
    try {
      if (colon >= 0) {
        // After the colon: the prompt's tags (and `latest`).
        const path = typed.slice(0, colon);
        const key = path.replace(/^-\//, '');
        if (!key || key.split('/').length > 2) return undefined;
        const tags = await this.lookup.tags(key);
        if (!tags || token.isCancellationRequested) return undefined;
        const refEnd = r.valueStart + r.value.length;
        const range = new vscode.Range(doc.positionAt(r.valueStart + colon + 1), doc.positionAt(refEnd));
        const items = tags.map((t) => {
          const item = new vscode.CompletionItem(t.tag_name, vscode.CompletionItemKind.Reference);
          item.range = range;
          item.detail = t.commit_hash ? vscode.l10n.t('tag on commit {0}', t.commit_hash.slice(0, 8)) : vscode.l10n.t('tag');
          return item;
        });
        const latest = new vscode.CompletionItem('latest', vscode.CompletionItemKind.Constant);
        latest.range = range;
        latest.detail = vscode.l10n.t('the latest commit');
        return [...items, latest];
      }
      // The name: the own prompts (a reference to another workspace's prompt names its owner and is typed).
      if (typed.includes('/') && !typed.startsWith('-/')) return undefined;
      const own = await this.lookup.ownPrompts();
      if (token.isCancellationRequested) return undefined;
      const nameStart = r.valueStart + (typed.startsWith('-/') ? 2 : 0);
      const nameEnd = r.valueStart + (r.value.includes(':') ? r.value.indexOf(':') : r.value.length);
      const range = new vscode.Range(doc.positionAt(nameStart), doc.positionAt(Math.max(nameEnd, offset)));
      return [...own.repos.values()].map((repo) => {
        const item = new vscode.CompletionItem(repo.repo_handle, vscode.CompletionItemKind.Reference);
        item.range = range;
        item.detail = vscode.l10n.t('LangSmith prompt');
        if (repo.description) item.documentation = new vscode.MarkdownString().appendText(repo.description);
        return item;
      });
    } catch {
      return undefined; // signed out or offline: nothing to offer
    }
  }

  dispose(): void {
    this.timers.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function problemText(p: ReferenceProblem): string {
  switch (p.kind) {
    case 'missingPrompt':
      return vscode.l10n.t('LangSmith has no prompt “{0}”.', p.key);
    case 'missingTag':
      return p.tags.length
        ? vscode.l10n.t('Prompt “{0}” has no tag “{1}” (its tags: {2}).', p.key, p.tag, p.tags.join(', '))
        : vscode.l10n.t('Prompt “{0}” has no tag “{1}” (it has no tags).', p.key, p.tag);
    case 'missingCommit':
      return vscode.l10n.t('Prompt “{0}” has no commit {1}.', p.key, p.commit);
    case 'noCommits':
      return vscode.l10n.t('Prompt “{0}” has no commits yet.', p.key);
  }
}

/** Commit, tags and time on one line: server text appended as text, never as markdown. */
function appendVersionLine(md: vscode.MarkdownString, v: PromptVersion): void {
  md.appendMarkdown(`${vscode.l10n.t('Commit')} `);
  md.appendMarkdown(`\`${v.commitHash.slice(0, 8).replace(/[^0-9a-zA-Z]/g, '')}\``);
  const parts: string[] = [];
  if (v.latest) parts.push(vscode.l10n.t('latest'));
  if (v.tags.length) parts.push(vscode.l10n.t('tags: {0}', v.tags.join(', ')));
  const when = formatWhen(v.createdAt);
  if (when) parts.push(when);
  if (parts.length) md.appendText(` · ${parts.join(' · ')}`);
}

/** The prompt's messages, each template in a fence longer than any run of backticks in it (so none ends it early). */
function appendMessages(md: vscode.MarkdownString, file: PromptFile): void {
  let budget = HOVER_CHARS;
  const block = (label: string, text: string) => {
    md.appendMarkdown('**');
    md.appendText(label);
    md.appendMarkdown('**\n');
    const shown = text.length > Math.min(TEMPLATE_CHARS, budget) ? `${text.slice(0, Math.max(0, Math.min(TEMPLATE_CHARS, budget)))}…` : text;
    budget -= shown.length;
    md.appendMarkdown(`\n${fenced(shown)}\n\n`);
  };
  if (file.body.kind === 'string') {
    block(vscode.l10n.t('template'), file.body.template);
    return;
  }
  for (const m of file.body.messages) {
    if (budget <= 0) {
      md.appendText(vscode.l10n.t('… more messages'));
      return;
    }
    if (m.kind === 'placeholder') {
      md.appendMarkdown('*');
      md.appendText(vscode.l10n.t('placeholder {0}', m.name));
      md.appendMarkdown('*\n\n');
    } else block(m.role, templateText(m));
  }
}

function templateText(m: Extract<FileMessage, { kind: 'message' }>): string {
  if (typeof m.template === 'string') return m.template;
  return m.template.map((p) => (p.type === 'text' ? p.text : JSON.stringify(p.raw))).join('\n');
}

/**
 * The workspace's prompt files by the prompt they name, read when first asked and again after any prompt file
 * changes on disk; open prompt documents are read as they are now.
 */
class LocalPromptFiles implements vscode.Disposable {
  private index: Promise<Map<string, vscode.Uri>> | undefined;
  private watcher: vscode.FileSystemWatcher | undefined;

  async find(key: string): Promise<vscode.Location | undefined> {
    const wanted = normalize(key);
    const format = await promptFormat();
    const locate = (uri: vscode.Uri, text: string) => {
      const line = text.split('\n').findIndex((l) => /^prompt:/.test(l));
      return new vscode.Location(uri, new vscode.Position(Math.max(0, line), 0));
    };
    for (const doc of vscode.workspace.textDocuments) {
      if (!isPromptDocument(doc) || doc.uri.scheme === 'langsmith') continue;
      const text = doc.getText();
      const named = format.promptNamedBy(format.parsePromptText(text, doc.uri.path), text);
      if (named && normalize(named) === wanted) return locate(doc.uri, text);
    }
    const uri = (await this.files()).get(wanted);
    if (!uri) return undefined;
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    return locate(uri, text);
  }

  private files(): Promise<Map<string, vscode.Uri>> {
    if (!this.watcher) {
      this.watcher = vscode.workspace.createFileSystemWatcher(PROMPT_FILE_GLOB);
      const drop = () => (this.index = undefined);
      this.watcher.onDidCreate(drop);
      this.watcher.onDidChange(drop);
      this.watcher.onDidDelete(drop);
    }
    return (this.index ??= (async () => {
      const format = await promptFormat();
      const out = new Map<string, vscode.Uri>();
      const uris = await vscode.workspace.findFiles(PROMPT_FILE_GLOB, '**/node_modules/**', 1000);
      for (const uri of uris.sort((a, b) => a.path.localeCompare(b.path))) {
        try {
          const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
          const named = format.promptNamedBy(format.parsePromptText(text, uri.path), text);
          if (named && !out.has(normalize(named))) out.set(normalize(named), uri);
        } catch {
          // An unreadable file names no prompt.
        }
      }
      return out;
    })().catch((err: unknown) => {
      this.index = undefined;
      throw err;
    }));
  }

  dispose(): void {
    this.watcher?.dispose();
  }
}

/** A prompt's name as files and references write it: `-/name` and `name` are the same own prompt. */
function normalize(identifier: string): string {
  return identifier.replace(/^-\//, '');
}
