// Prompt references in source code, as activation sees them: three thin providers for the JavaScript, TypeScript
// and Python documents (hover, Go to Definition, completion) and a watch on opened and edited documents. The
// features themselves (the finder, the lookups, the diagnostics) are loaded when the first such document holds a
// prompt pull or a provider is first asked, so a window that never shows one pays for nothing but this file.
import * as vscode from 'vscode';
import type { ClientService } from '../../auth/clientService';
import type { PromptReferenceSupport } from './referenceSupport';
import { lazy } from '../../common/lazy';

export const REFERENCE_LANGUAGES = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact', 'python'] as const;
const LANGUAGES = new Set<string>(REFERENCE_LANGUAGES);
const SELECTOR: vscode.DocumentSelector = REFERENCE_LANGUAGES.map((language) => ({ language }));
/** A cheap look for a pull in a document: the finder decides what is one. */
const MAY_PULL = /pull_?prompt|\bhub\b/i;

export interface PromptReferencesHandle extends vscode.Disposable {
  /** A prompt was pushed or its tags changed: forget what is known of it and check the open documents again. */
  promptChanged(name: string): void;
}

export function watchPromptReferences(clients: ClientService): PromptReferencesHandle {
  let support: Promise<PromptReferenceSupport> | undefined;
  let disposed = false;
  const start = () =>
    (support ??= Promise.all([import('./referenceSupport'), lazy.promptReferences()]).then(([m, engine]) => {
      const s = new m.PromptReferenceSupport(clients, engine);
      if (disposed) s.dispose();
      return s;
    }));
  const relevant = (doc: vscode.TextDocument) => LANGUAGES.has(doc.languageId) && MAY_PULL.test(doc.getText());
  const pending = new Map<string, NodeJS.Timeout>();
  const disposables: vscode.Disposable[] = [
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (!support && relevant(doc)) void start();
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      // Until a pull is seen: a look at an edited document once typing pauses, never on the keystroke itself.
      if (support || !LANGUAGES.has(e.document.languageId) || !e.contentChanges.length) return;
      const key = e.document.uri.toString();
      clearTimeout(pending.get(key));
      pending.set(
        key,
        setTimeout(() => {
          pending.delete(key);
          if (!support && !e.document.isClosed && relevant(e.document)) void start();
        }, 1000),
      );
    }),
    vscode.languages.registerHoverProvider(SELECTOR, {
      provideHover: async (doc, pos, token) => (mayBeInLiteral(doc, pos) ? (await start()).hover(doc, pos, token) : undefined),
    }),
    vscode.languages.registerDefinitionProvider(SELECTOR, {
      provideDefinition: async (doc, pos, token) => (mayBeInLiteral(doc, pos) ? (await start()).definition(doc, pos, token) : undefined),
    }),
    vscode.languages.registerCompletionItemProvider(
      SELECTOR,
      {
        provideCompletionItems: async (doc, pos, token) => (mayBeInLiteral(doc, pos) && nearPull(doc, pos) ? (await start()).complete(doc, pos, token) : undefined),
      },
      '"',
      "'",
      '`',
      ':',
      '/',
    ),
  ];
  if (vscode.workspace.textDocuments.some(relevant)) void start();
  return {
    promptChanged(name) {
      void support?.then((s) => s.promptChanged(name));
    },
    dispose() {
      disposed = true;
      for (const t of pending.values()) clearTimeout(t);
      for (const d of disposables.splice(0)) d.dispose();
      void support?.then((s) => s.dispose());
    },
  };
}

/** A quote on the line: a literal may be under the cursor (else there is nothing to load or find). */
function mayBeInLiteral(doc: vscode.TextDocument, pos: vscode.Position): boolean {
  return /["'`]/.test(doc.lineAt(pos.line).text);
}

/** A pull is written on this line or the few before it (a call's arguments may be on lines of their own). */
function nearPull(doc: vscode.TextDocument, pos: vscode.Position): boolean {
  const from = Math.max(0, pos.line - 3);
  return /pull|prompt_identifier|owner_repo_commit/i.test(doc.getText(new vscode.Range(from, 0, pos.line, pos.character)));
}
