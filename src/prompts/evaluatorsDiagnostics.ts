// Evaluators files (`*.evaluators.yaml`) in the editor: each is checked as it opens, changes and is saved, and
// its problems go to the Problems view at their place; when signed in, a `dataset:` that names no dataset of the
// workspace is a warning (what the server said is kept a few minutes per name). The run command reads the
// files through the same parse, so a file that shows no problem here is one it accepts.
import * as vscode from 'vscode';
import { KeyedDebounce } from '../common/keyedDebounce';
import type { ClientService } from '../auth/clientService';
import type { EvaluatorsFile, EvaluatorsProblem } from '../experiments/types';
import { isSignedIn } from '../auth/connection';
import { lazy } from '../common/lazy';

export const EVALUATORS_GLOB = '**/*.evaluators.{yaml,yml}';
const DEBOUNCE_MS = 300;
/** How long a dataset's existence is taken as known. */
const EXISTS_TTL_MS = 5 * 60_000;

export function isEvaluatorsFile(path: string): boolean {
  return /\.evaluators\.ya?ml$/i.test(path);
}

type Engine = typeof import('../experiments');
/** The experiments engine (its YAML parser), loaded with the first evaluators file. */
function engine(): Promise<Engine> {
  return lazy.experiments();
}

export interface ParsedEvaluators {
  file: EvaluatorsFile | null;
  problems: EvaluatorsProblem[];
}

export async function parseEvaluatorsText(text: string): Promise<ParsedEvaluators> {
  return (await engine()).parseEvaluators(text);
}

/** "name.evaluators.yaml:3:5: message" — a problem where a person finds it (1-based, as editors count). */
export function problemPlace(uri: vscode.Uri, p: EvaluatorsProblem): string {
  return `${vscode.workspace.asRelativePath(uri, false)}:${p.line + 1}:${p.column + 1}: ${p.message}`;
}

/** The `dataset:` a file names, read from its text even when the rest has problems (to tell which file is for which dataset). */
export function namedDataset(text: string): string | undefined {
  const m = /^dataset:[ \t]*(['"]?)(.*?)\1[ \t]*(?:#.*)?$/m.exec(text);
  return m?.[2]?.trim() || undefined;
}

export type EvaluatorsFor =
  | { kind: 'none' }
  | { kind: 'found'; uri: vscode.Uri; file: EvaluatorsFile }
  | { kind: 'problem'; uri: vscode.Uri; message: string };

/** Where evaluators files are looked for: the workspace, the open documents, and the folder of `near` (the prompt file). */
async function candidates(near: vscode.Uri | undefined): Promise<vscode.Uri[]> {
  const found = new Map<string, vscode.Uri>();
  const add = (uri: vscode.Uri) => found.set(uri.toString(), uri);
  for (const uri of await vscode.workspace.findFiles(EVALUATORS_GLOB, '**/node_modules/**', 200)) add(uri);
  for (const doc of vscode.workspace.textDocuments) if (isEvaluatorsFile(doc.uri.path) && doc.uri.scheme !== 'langsmith') add(doc.uri);
  if (near) {
    const folder = vscode.Uri.joinPath(near, '..');
    const entries = await vscode.workspace.fs.readDirectory(folder).then(
      (e) => e,
      () => [] as [string, vscode.FileType][],
    );
    for (const [name, type] of entries) if (type === vscode.FileType.File && isEvaluatorsFile(name)) add(vscode.Uri.joinPath(folder, name));
  }
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** The evaluators file for a dataset (by name): the first without problems, or the first one's problem. */
export async function evaluatorsFor(datasetName: string, near?: vscode.Uri): Promise<EvaluatorsFor> {
  let problem: EvaluatorsFor | undefined;
  for (const uri of await candidates(near)) {
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    if (namedDataset(text) !== datasetName) continue;
    const parsed = await parseEvaluatorsText(text);
    if (parsed.file && !parsed.problems.length) return { kind: 'found', uri, file: parsed.file };
    const first = parsed.problems[0];
    problem ??= { kind: 'problem', uri, message: first ? problemPlace(uri, first) : vscode.l10n.t('{0} cannot be read.', vscode.workspace.asRelativePath(uri, false)) };
  }
  return problem ?? { kind: 'none' };
}

/** Starts checking evaluators files when the first one is open (now or later). */
export function watchEvaluatorsFiles(clients: ClientService): vscode.Disposable {
  let support: EvaluatorsDiagnostics | undefined;
  const start = () => (support ??= new EvaluatorsDiagnostics(clients));
  const isOne = (doc: vscode.TextDocument) => isEvaluatorsFile(doc.uri.path);
  const opened = vscode.workspace.onDidOpenTextDocument((doc) => {
    if (isOne(doc)) start().check(doc);
  });
  for (const doc of vscode.workspace.textDocuments) if (isOne(doc)) start().check(doc);
  return {
    dispose() {
      opened.dispose();
      support?.dispose();
    },
  };
}

export class EvaluatorsDiagnostics implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('langsmith-evaluators');
  private readonly timers = new KeyedDebounce();
  private readonly exists = new Map<string, { at: number; found: Promise<boolean | undefined> }>();
  private readonly disposables: vscode.Disposable[] = [this.diagnostics];

  constructor(private readonly clients: ClientService) {
    const mine = (doc: vscode.TextDocument) => isEvaluatorsFile(doc.uri.path);
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (mine(e.document)) this.later(e.document);
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (mine(doc)) this.check(doc);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (mine(doc) && doc.uri.scheme !== 'file') this.diagnostics.delete(doc.uri);
      }),
      clients.connection.onDidChange(() => {
        this.exists.clear();
        for (const doc of vscode.workspace.textDocuments) if (mine(doc)) this.check(doc);
      }),
    );
  }

  private later(doc: vscode.TextDocument): void {
    this.timers.schedule(doc.uri.toString(), DEBOUNCE_MS, () => this.check(doc));
  }

  check(doc: vscode.TextDocument): void {
    const version = doc.version;
    void this.diagnose(doc.getText())
      .then((list) => {
        if (doc.version === version) this.diagnostics.set(doc.uri, list);
      })
      .catch(() => undefined);
  }

  private async diagnose(text: string): Promise<vscode.Diagnostic[]> {
    const parsed = await parseEvaluatorsText(text);
    const list = parsed.problems.map((p) => {
      const d = new vscode.Diagnostic(new vscode.Range(p.line, p.column, p.endLine, Math.max(p.endColumn, p.endLine === p.line ? p.column + 1 : p.endColumn)), p.message, vscode.DiagnosticSeverity.Error);
      d.source = 'LangSmith';
      return d;
    });
    if (parsed.file && !parsed.problems.length) {
      const found = await this.datasetExists(parsed.file.dataset);
      if (found === false) {
        const line = text.split(/\r?\n/).findIndex((l) => /^dataset:/.test(l));
        const at = Math.max(0, line);
        const d = new vscode.Diagnostic(
          new vscode.Range(at, 0, at, (text.split(/\r?\n/)[at] ?? '').length),
          vscode.l10n.t('No dataset named “{0}” in this workspace: create it, or name a dataset that exists.', parsed.file.dataset),
          vscode.DiagnosticSeverity.Warning,
        );
        d.source = 'LangSmith';
        list.push(d);
      }
    }
    return list;
  }

  /** Whether the dataset exists; undefined when signed out or the server could not say. */
  private async datasetExists(name: string): Promise<boolean | undefined> {
    const connection = await this.clients.connection.current();
    if (!isSignedIn(connection)) return undefined;
    const id = `${connection.endpoint}\n${name}`;
    const known = this.exists.get(id);
    if (known && Date.now() - known.at < EXISTS_TTL_MS) return known.found;
    const found = this.clients.call((c) => c.datasets.exists({ datasetName: name })).catch(() => {
      // Not known: asked again next time rather than remembered.
      this.exists.delete(id);
      return undefined;
    });
    this.exists.set(id, { at: Date.now(), found });
    return found;
  }

  dispose(): void {
    this.timers.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
