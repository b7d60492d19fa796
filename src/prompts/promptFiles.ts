// Prompt files in the editor: problems in the Problems panel while typing, hover on a variable (where it is
// used), completion of variables inside templates, and CodeLens actions at the top (push, compare, run). The
// format itself (YAML, manifests) is a bundle of its own, loaded when the first prompt file is seen.
import * as vscode from 'vscode';
import { KeyedDebounce } from '../common/keyedDebounce';
import { Commands } from '../constants';
import type { ParsedPromptFile, Problem } from '../promptFile';
import { isPromptFile } from '../promptFile/fileNames';
import { lazy } from '../common/lazy';

type Format = typeof import('../promptFile');
/** The prompt-file bundle, loaded once. */
export function promptFormat(): Promise<Format> {
  return lazy.promptFile();
}

export const PROMPT_FILE_GLOB = '**/*.prompt.{yaml,yml,json}';
const SELECTOR: vscode.DocumentSelector = [
  { pattern: '**/*.prompt.yaml' },
  { pattern: '**/*.prompt.yml' },
  { pattern: '**/*.prompt.json' },
];

export function isPromptDocument(doc: vscode.TextDocument): boolean {
  return isPromptFile(doc.uri.path);
}

/**
 * A prompt file the user edits, from a URI string a webview sent back: parsed strictly, and only schemes of
 * editable documents (never our read-only `langsmith:` commits, never command links).
 */
export function editablePromptFileUri(raw: string): vscode.Uri | undefined {
  try {
    const uri = vscode.Uri.parse(raw, true);
    if (!['file', 'untitled', 'vscode-remote', 'vscode-userdata', 'vscode-vfs'].includes(uri.scheme)) return undefined;
    return isPromptFile(uri.path) ? uri : undefined;
  } catch {
    return undefined;
  }
}

const SEVERITY: Record<Problem['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** Reads a prompt document (YAML or a raw manifest) into the parsed form the features share. */
export async function parsePromptDocument(doc: vscode.TextDocument): Promise<ParsedPromptFile> {
  return (await promptFormat()).parsePromptText(doc.getText(), doc.uri.path);
}

/**
 * Starts the prompt-file features when the first prompt file is open (now or later): a window without prompt
 * files registers nothing but this one listener at activation.
 */
export function watchPromptFiles(): vscode.Disposable {
  let support: PromptFileSupport | undefined;
  const start = () => (support ??= new PromptFileSupport());
  const opened = vscode.workspace.onDidOpenTextDocument((doc) => {
    if (isPromptDocument(doc)) start();
  });
  if (vscode.workspace.textDocuments.some(isPromptDocument)) start();
  return {
    dispose() {
      opened.dispose();
      support?.dispose();
    },
  };
}

export class PromptFileSupport implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('langsmith-prompts');
  private readonly disposables: vscode.Disposable[] = [this.diagnostics];
  private readonly timers = new KeyedDebounce();
  private readonly parsed = new Map<string, { version: number; result: Promise<ParsedPromptFile> }>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();

  constructor() {
    this.disposables.push(
      this.lensesChanged,
      vscode.workspace.onDidOpenTextDocument((doc) => this.check(doc, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.check(e.document, 200)),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.diagnostics.delete(doc.uri);
        this.parsed.delete(doc.uri.toString());
      }),
      vscode.languages.registerHoverProvider(SELECTOR, { provideHover: (doc, pos) => this.hover(doc, pos) }),
      vscode.languages.registerCompletionItemProvider(SELECTOR, { provideCompletionItems: (doc, pos) => this.complete(doc, pos) }, '{'),
      vscode.languages.registerCodeLensProvider(SELECTOR, { onDidChangeCodeLenses: this.lensesChanged.event, provideCodeLenses: (doc) => this.lenses(doc) }),
    );
    for (const doc of vscode.workspace.textDocuments) this.check(doc, 0);
  }

  /** The parse of a document at its current version (shared by the features, parsed once per version). */
  parse(doc: vscode.TextDocument): Promise<ParsedPromptFile> {
    const key = doc.uri.toString();
    const cached = this.parsed.get(key);
    if (cached && cached.version === doc.version) return cached.result;
    const result = parsePromptDocument(doc);
    this.parsed.set(key, { version: doc.version, result });
    return result;
  }

  private check(doc: vscode.TextDocument, delay: number): void {
    // Commits shown from LangSmith are read-only copies: their problems are not the user's to fix.
    if (!isPromptDocument(doc) || doc.uri.scheme === 'langsmith') return;
    const key = doc.uri.toString();
    this.timers.schedule(key, delay, () => void this.publish(doc));
  }

  private async publish(doc: vscode.TextDocument): Promise<void> {
    if (doc.isClosed) return;
    const parsed = await this.parse(doc);
    const text = doc.getText();
    const diagnostics = parsed.problems.map((p) => {
      const start = doc.positionAt(Math.min(p.offset, text.length));
      const end = doc.positionAt(Math.min(p.offset + Math.max(p.length, 0), text.length));
      const range = p.length > 0 ? new vscode.Range(start, end) : doc.lineAt(start.line).range;
      const d = new vscode.Diagnostic(range, p.message, SEVERITY[p.severity]);
      d.source = 'LangSmith';
      d.code = p.code;
      if (p.code === 'unused') d.tags = [vscode.DiagnosticTag.Unnecessary];
      return d;
    });
    this.diagnostics.set(doc.uri, diagnostics);
    this.lensesChanged.fire();
  }

  private async hover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
    const parsed = await this.parse(doc);
    const offset = doc.offsetAt(pos);
    const here = parsed.variables.find((v) => offset >= v.offset && offset <= v.offset + v.length);
    if (!here) return undefined;
    const uses = parsed.variables.filter((v) => v.name === here.name);
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`${vscode.l10n.t('**Variable**')} `);
    md.appendText(here.name);
    md.appendMarkdown('\n\n');
    const inTemplates = uses.filter((u) => u.where === 'template');
    if (!inTemplates.length) md.appendText(vscode.l10n.t('Declared in input_variables; no template uses it.'));
    for (const u of inTemplates) md.appendText(`${vscode.l10n.t('Used in {0}, line {1}', u.label, doc.positionAt(u.offset).line + 1)}\n`);
    if (!uses.some((u) => u.where === 'declaration') && parsed.file?.inputVariables) md.appendText(vscode.l10n.t('Not declared in input_variables.'));
    const range = new vscode.Range(doc.positionAt(here.offset), doc.positionAt(here.offset + here.length));
    return new vscode.Hover(md, range);
  }

  private async complete(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.CompletionItem[] | undefined> {
    const parsed = await this.parse(doc);
    const offset = doc.offsetAt(pos);
    const span = parsed.templates.find((t) => offset >= t.offset && offset <= t.end);
    if (!span) return undefined;
    const before = doc.getText(new vscode.Range(doc.positionAt(span.offset), pos));
    const opening = span.format === 'mustache' ? /\{\{[#^/&]?\s*([\w.]*)$/.exec(before) : /(?<!\{)\{(\w*)$/.exec(before);
    if (!opening) return undefined;
    const names = new Set([...(parsed.file?.inputVariables ?? []), ...parsed.variables.map((v) => v.name)]);
    const typed = opening[1] ?? '';
    const range = new vscode.Range(pos.translate(0, -typed.length), pos);
    const close = span.format === 'mustache' ? '}}' : '}';
    const after = doc.getText(new vscode.Range(pos, pos.translate(0, close.length)));
    return [...names].map((name) => {
      const item = new vscode.CompletionItem(name, vscode.CompletionItemKind.Variable);
      item.range = range;
      item.insertText = after === close ? name : `${name}${close}`;
      item.detail = parsed.file?.inputVariables?.includes(name) ? vscode.l10n.t('input variable') : vscode.l10n.t('used in a template');
      return item;
    });
  }

  private async lenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (doc.uri.scheme === 'langsmith') return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const parsed = await this.parse(doc);
    const errors = parsed.problems.filter((p) => p.severity === 'error').length;
    const pushTitle = !errors
      ? vscode.l10n.t('$(cloud-upload) Push as Commit…')
      : errors === 1
        ? vscode.l10n.t('$(error) Push as Commit… (1 problem to fix)')
        : vscode.l10n.t('$(error) Push as Commit… ({0} problems to fix)', errors);
    const lenses = [new vscode.CodeLens(top, { title: pushTitle, command: Commands.pushPromptFile, arguments: [doc.uri] })];
    if (parsed.file?.identifier) lenses.push(new vscode.CodeLens(top, { title: vscode.l10n.t('$(diff) Compare with Remote…'), command: Commands.compareWithRemote, arguments: [doc.uri] }));
    if (parsed.file?.identifier) lenses.push(new vscode.CodeLens(top, { title: vscode.l10n.t('$(cloud-download) Pull…'), command: Commands.pullPrompt, arguments: [doc.uri] }));
    lenses.unshift(new vscode.CodeLens(top, { title: vscode.l10n.t('$(play) Run'), command: Commands.runPrompt, arguments: [doc.uri] }));
    return lenses;
  }

  dispose(): void {
    this.timers.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
