// The extension host's user-facing text goes through vscode.l10n.t, so a translation is a bundle file, not a code
// change (the manifest's text is in package.nls.json, see manifest.test.ts). This reads the host's source with the
// TypeScript parser (no vscode needed): in every place where the extension shows text — notifications and their
// buttons, input boxes, pickers and their items, progress titles, errors meant for the user, tree rows and their
// tooltips, hovers, CodeLenses, status bar texts, panel and diff titles — a string with words in it must be the
// message of a vscode.l10n.t call. Values passed to vscode.l10n.t (names from the server, ids, escaped markdown)
// are arguments, never part of the message.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../..');

/** Host folders whose every file is scanned. */
const FOLDERS = ['src/auth', 'src/commands', 'src/views', 'src/webviews'];
/** Single host files scanned too (src/common's files join when they import vscode). */
const FILES = [
  'src/extension.ts', 'src/prompts/promptFiles.ts', 'src/common/validation.ts', 'src/prompts/evaluatorsDiagnostics.ts',
  'src/prompts/references/referenceSupport.ts', 'src/prompts/references/watch.ts', 'src/text/format.ts', 'src/experiments/reads.ts',
];
/** Files of the prompt-file bundle (and the parser it shares with the host): they run without VS Code. */
const NO_VSCODE = ['model', 'yamlPositions', 'parse', 'manifest', 'write', 'fileNames', 'sync', 'prompty', 'index'].map((m) => `src/promptFile/${m}.ts`);

/** Files not scanned yet, each with its reason. */
const EXCLUDED: Record<string, string> = {
};

/**
 * Strings with words that are not for translation, each with its reason. `literal` is the literal's exact source
 * text; every entry must still match something (a stale entry fails the test).
 */
const ALLOWED: { file: string; literal: string; reason: string }[] = [
  { file: 'src/auth/signIn.ts', literal: `'https://langsmith.example.com/api/v1'`, reason: 'an example URL in the endpoint box: data, the same in every language' },
  { file: 'src/auth/signIn.ts', literal: `'lsv2_…'`, reason: 'the prefix of a LangSmith API key, as the key box’s placeholder' },
  { file: 'src/commands/playgroundCommands.ts', literal: `'https://api.openai.com/v1'`, reason: 'an example URL in the model endpoint box' },
  { file: 'src/commands/datasetCommands.ts', literal: `'{"question": "How do I reset my password?"}'`, reason: 'example JSON inputs in the search box: a translator must not touch its syntax' },
  { file: 'src/auth/statusBar.ts', literal: "`${icon} LangSmith${health === 'signedOut' ? '' : `: ${host}`}`", reason: 'the status bar text is the product name and the host' },
  { file: 'src/auth/network.ts', literal: `'VS Code network settings (no proxy or CA file set)'`, reason: 'NetworkFetch.description is written to the log only' },
  { file: 'src/views/projectsView.ts', literal: `'note'`, reason: 'a codicon name in RUN_ICONS (the key `prompt` is a run type, not an input box’s prompt)' },
  { file: 'src/views/queuesView.ts', literal: `'run'`, reason: 'the run type shown when the server gives none: a LangSmith run type, like the ones it names' },
];

/** Calls whose arguments are all shown (messages and their buttons, questions, pickers). */
const ALL_ARGS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'showInputBox', 'showQuickPick', 'confirm']);
/** Calls (and constructors) whose arguments at these positions are shown. */
const SHOWN_ARGS = new Map<string, number[]>([
  ['withProgress', [0]],
  ['setStatusBarMessage', [0]],
  ['appendMarkdown', [0]],
  ['appendText', [0]],
  ['groupItem', [1, 4]],
]);
const SHOWN_NEW_ARGS = new Map<string, number[]>([
  ['Error', [0]],
  ['ConnectionSettingError', [0]],
  ['RequestError', [1]],
  ['TreeItem', [0]],
  ['MessageNode', [2]],
]);
/** Properties (in object literals or assigned) whose value is shown. */
const SHOWN_PROPERTIES = new Set(['title', 'prompt', 'placeHolder', 'placeholder', 'busyPlaceholder', 'openLabel', 'saveLabel', 'label', 'description', 'detail', 'tooltip', 'validationMessage']);
const SHOWN_ASSIGNED = new Set([...SHOWN_PROPERTIES, 'text']);

function importsVscode(text: string): boolean {
  return /from\s+'vscode'|require\('vscode'\)/.test(text);
}

function scannedFiles(): string[] {
  const inFolders = FOLDERS.flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `${dir}/${f.split(path.sep).join('/')}`),
  );
  const common = fs
    .readdirSync(path.join(root, 'src/common'))
    .filter((f) => f.endsWith('.ts') && importsVscode(fs.readFileSync(path.join(root, 'src/common', f), 'utf8')))
    .map((f) => `src/common/${f}`);
  return [...inFolders, ...FILES, ...common].filter((f) => !(f in EXCLUDED)).sort();
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function isL10nCall(node: ts.Node): node is ts.CallExpression {
  return ts.isCallExpression(node) && /^(vscode\.)?l10n\.t$/.test(node.expression.getText());
}

/** The name a call or `new` goes by: `f(…)`, `a.b.f(…)`. */
function calleeName(expr: ts.Expression): string | undefined {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  return undefined;
}

/** The static text of a string or template literal (its `${…}` parts left out), or undefined for other nodes. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => s.literal.text).join('');
  return undefined;
}

/** Words, not only punctuation, codicons ($(name)) or interpolations. */
function hasWords(text: string): boolean {
  return /[A-Za-z]/.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

/** A literal compared with data, used as a key or as a case: a value of the code, not text for people. */
function isCodeValue(node: ts.Node): boolean {
  const p = node.parent;
  if (ts.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    if (op === ts.SyntaxKind.InKeyword && p.left === node) return true;
    return [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(op);
  }
  return (ts.isElementAccessExpression(p) && p.argumentExpression === node) || ts.isCaseClause(p);
}

interface Slot {
  node: ts.Node;
  where: string;
}

/** The expressions whose text is shown to people. */
function shownSlots(sf: ts.SourceFile): Slot[] {
  const slots: Slot[] = [];
  // A shown value may be kept in a constant first (a button label compared with the choice, a title asked twice):
  // a shown identifier brings the initializers of the variables of its name in the file.
  const declared = new Map<string, ts.Expression[]>();
  const collect = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) declared.set(n.name.text, [...(declared.get(n.name.text) ?? []), n.initializer]);
    ts.forEachChild(n, collect);
  };
  collect(sf);
  const add = (node: ts.Node | undefined, where: string) => {
    if (!node) return;
    slots.push({ node, where });
    if (ts.isIdentifier(node)) for (const init of declared.get(node.text) ?? []) slots.push({ node: init, where: `${where} (const ${node.text})` });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      if (name && ALL_ARGS.has(name)) node.arguments.forEach((a, i) => add(a, `${name} argument ${i + 1}`));
      for (const i of SHOWN_ARGS.get(name ?? '') ?? []) add(node.arguments[i], `${name} argument ${i + 1}`);
      // vscode.diff's title.
      const first = node.arguments[0];
      if (name === 'executeCommand' && first && ts.isStringLiteral(first) && first.text === 'vscode.diff') add(node.arguments[3], 'vscode.diff title');
    } else if (ts.isNewExpression(node)) {
      const name = calleeName(node.expression);
      for (const i of SHOWN_NEW_ARGS.get(name ?? '') ?? []) add(node.arguments?.[i], `new ${name} argument ${i + 1}`);
    } else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && SHOWN_PROPERTIES.has(node.name.text)) {
      add(node.initializer, `${node.name.text}:`);
    } else if (ts.isShorthandPropertyAssignment(node) && SHOWN_PROPERTIES.has(node.name.text)) {
      add(node.name, `${node.name.text}:`);
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      SHOWN_ASSIGNED.has(node.left.name.text)
    ) {
      add(node.right, `.${node.left.name.text} =`);
    } else if (ts.isMethodDeclaration(node) && node.name.getText() === 'emptyLabel' && node.body) {
      const returns = (n: ts.Node): void => {
        if (ts.isReturnStatement(n)) add(n.expression, 'emptyLabel()');
        else if (!ts.isFunctionLike(n)) ts.forEachChild(n, returns);
      };
      ts.forEachChild(node.body, returns);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return slots;
}

/** Literals with words in a shown expression that are not a vscode.l10n.t message. */
function unwrappedIn(slot: ts.Node): ts.Node[] {
  const found: ts.Node[] = [];
  const walk = (n: ts.Node): void => {
    // A message is checked on its own (below); the other arguments are values.
    if (isL10nCall(n)) return;
    const text = literalText(n);
    if (text !== undefined && hasWords(text) && !isCodeValue(n)) found.push(n);
    ts.forEachChild(n, walk);
  };
  walk(slot);
  return found;
}

function l10nCalls(sf: ts.SourceFile): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (isL10nCall(n)) calls.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return calls;
}

function where(sf: ts.SourceFile, node: ts.Node): string {
  return `${sf.fileName}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
}

describe('localization of the extension host', () => {
  const files = scannedFiles();
  const sources = files.map(parse);

  it('scans the host’s folders', () => {
    for (const f of ['src/commands/datasetCommands.ts', 'src/views/treeNode.ts', 'src/auth/signIn.ts', 'src/webviews/exampleEditor/exampleEditorPanel.ts', 'src/prompts/promptFiles.ts', 'src/common/config.ts']) {
      assert.ok(files.includes(f), `${f} is not scanned`);
    }
    for (const f of Object.keys(EXCLUDED)) assert.ok(fs.existsSync(path.join(root, f)), `${f} is excluded but does not exist: drop the entry`);
    const total = sources.reduce((n, sf) => n + l10nCalls(sf).length, 0);
    assert.ok(total >= 300, `only ${total} vscode.l10n.t calls found: is the scan looking in the right place?`);
  });

  it('wraps every user-facing string in vscode.l10n.t', () => {
    const problems: string[] = [];
    const allowedUsed = new Set<number>();
    for (const sf of sources) {
      const seen = new Set<ts.Node>();
      for (const slot of shownSlots(sf)) {
        for (const lit of unwrappedIn(slot.node)) {
          if (seen.has(lit)) continue;
          seen.add(lit);
          const allowed = ALLOWED.findIndex((a) => a.file === sf.fileName && a.literal === lit.getText());
          if (allowed >= 0) allowedUsed.add(allowed);
          else problems.push(`${where(sf, lit)} (${slot.where}): ${lit.getText()}`);
        }
      }
    }
    assert.deepEqual(problems, [], `user-facing text outside vscode.l10n.t:\n  ${problems.join('\n  ')}\n`);
    const stale = ALLOWED.filter((_, i) => !allowedUsed.has(i));
    assert.deepEqual(stale, [], 'allowlist entries that match nothing any more: remove them');
  });

  it('gives every vscode.l10n.t a plain string message with one argument per placeholder', () => {
    const problems: string[] = [];
    for (const sf of sources) {
      for (const call of l10nCalls(sf)) {
        const [message, ...args] = call.arguments;
        if (!message || !ts.isStringLiteral(message)) {
          problems.push(`${where(sf, call)}: the message must be a string literal (the l10n tooling extracts it), not ${message?.getText() ?? 'nothing'}`);
          continue;
        }
        if (args.length === 1 && ts.isObjectLiteralExpression(args[0]!)) continue; // named placeholders
        const indices = [...message.text.matchAll(/\{(\d+)\}/g)].map((m) => Number(m[1]));
        const expected = indices.length ? Math.max(...indices) + 1 : 0;
        if (args.length !== expected) problems.push(`${where(sf, call)}: ${message.getText()} has ${expected} placeholder(s) but ${args.length} argument(s)`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('keeps vscode out of the prompt-file bundle', () => {
    for (const f of NO_VSCODE) assert.ok(!importsVscode(fs.readFileSync(path.join(root, f), 'utf8')), `${f} imports vscode`);
  });
});
