// The project's lint: typescript-eslint's recommended rules, the one-way doors of ARCHITECTURE.md as
// no-restricted-imports rules (so a wrong import is underlined while it is written, and `npm test` fails on it),
// and the habits the team keeps: no floating promises in the extension host, no `any` in product code, no HTML
// from strings in the webviews.
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The plain-Node floor of src/, bottom up: each room with the rooms of the floor it may import. Everything here runs
 * without VS Code (the command line, the MCP server, CI, the tests without an editor); the editor rooms sit above.
 */
const PLAIN_FLOOR = {
  client: [],
  protocol: [],
  text: [],
  promptFile: ['client', 'text'],
  promptReferences: ['client', 'promptFile', 'text'],
  experiments: ['client', 'promptFile', 'text'],
  agent: ['client', 'protocol', 'promptFile', 'promptReferences', 'experiments', 'text'],
  cli: ['client', 'protocol', 'promptFile', 'promptReferences', 'experiments', 'agent', 'text'],
};
/** The editor floor of src/: rooms and top-level modules that may import vscode. */
const EDITOR_ROOMS = ['auth', 'commands', 'common', 'views', 'webviews', 'prompts', 'agentHost', 'extension', 'workbench', 'activationTime', 'constants'];

const door = (regex, message) => ({ regex, message });
const BELOW_COMMANDS = door('^(\\.\\./)+commands(/|$)', 'This room sits below src/commands/: take ids from src/constants.ts and shared pieces from common/.');

/** The server's own door, repeated where a narrower block of server/ adds one (a later block replaces the rule). */
const SERVER_IS_ITS_OWN = {
  paths: [{ name: 'vscode', message: 'The server is a program of its own.' }],
  patterns: [door('^(\\.\\./)+src(/|$)', 'server/ never imports src/: sharing code with the client would hide where it differs from LangSmith.')],
};

/** The webviews' own doors, repeated where a narrower block of webview-ui/ adds one (a later block replaces the rule). */
const WEBVIEW_UI_IS_APART = {
  paths: [{ name: 'vscode', message: 'Webviews talk to the host through src/protocol messages only.' }],
  patterns: [
    door('^(\\.\\./)+src/(?!protocol/)', 'webview-ui imports only src/protocol from the host side.'),
    door('^@vscode/webview-ui-toolkit', 'The toolkit is deprecated upstream: use it through webview-ui/src/common/components only.'),
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.test-output/**', '**/*.d.ts', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', fetch: 'readonly', AbortController: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', performance: 'readonly', Buffer: 'readonly', __dirname: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', AbortSignal: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly', FormData: 'readonly', Blob: 'readonly', URLSearchParams: 'readonly', globalThis: 'readonly', crypto: 'readonly' } },
    rules: {
      // TypeScript checks these better than the core rules.
      'no-undef': 'off',
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A deliberate empty catch says why in a comment.
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },

  // The extension host: promises are awaited, returned or marked `void` on purpose.
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
    },
  },

  // Product code has no `any`: the host, the webviews and the server (whose routes see only schema-parsed
  // input and whose row readers default to `unknown`). Tests poke at shapes and may use it.
  { files: ['src/**/*.ts', 'webview-ui/src/**/*.{ts,tsx}', 'server/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },

  // Doors, floor one: the plain-Node engines (see PLAIN_FLOOR). Each runs without VS Code, imports no editor room,
  // and of the floor only the rooms below it.
  ...Object.entries(PLAIN_FLOOR).map(([room, below]) => ({
    files: [`src/${room}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: `src/${room} runs in plain Node (the command line, the MCP server, CI): no vscode import here.` }],
        patterns: [
          door(`^(\\.\\./)+(${EDITOR_ROOMS.join('|')})(/|$)`, `src/${room} is on the plain-Node floor: it never imports an editor room (${EDITOR_ROOMS.join(', ')}).`),
          ...(Object.keys(PLAIN_FLOOR).filter((r) => r !== room && !below.includes(r)).length
            ? [door(`^(\\.\\./)+(${Object.keys(PLAIN_FLOOR).filter((r) => r !== room && !below.includes(r)).join('|')})(/|$)`, `src/${room} imports only ${below.length ? below.map((r) => `src/${r}`).join(', ') : 'packages'} of the plain-Node floor: the others sit above it.`)]
            : []),
        ],
      }],
    },
  })),
  // Constants are the ground floor of the editor: they import nothing of the project.
  {
    files: ['src/constants.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [door('^\\.', 'src/constants.ts is the ground floor: it imports nothing of the project.')] }] },
  },
  // Floor two, the editor. Nothing reaches up into commands/ from the rooms below it: commands open panels and call
  // views, never the other way round (a panel that needs a picker takes it from common/).
  {
    files: ['src/auth/**/*.ts', 'src/views/**/*.ts', 'src/common/**/*.ts', 'src/prompts/**/*.ts', 'src/agentHost/**/*.ts', 'src/webviews/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [BELOW_COMMANDS] }] },
  },
  // A panel's host side sees the frame (src/webviews/*.ts) and the pieces panels share (src/webviews/run/), never
  // another panel's folder (panel folders are flat, so `../x/` from one is another panel's).
  {
    files: ['src/webviews/*/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [BELOW_COMMANDS, door('^\\.\\./(?!run/)[^./][^/]*/', 'A panel never imports another panel’s folder: what two panels share goes in src/webviews/run/ (or a plain engine).')] }] },
  },
  // Commands open a panel through the frame (descriptors, PanelFrame), never by reaching into its folder.
  {
    files: ['src/commands/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [door('^(\\.\\./)+webviews/(?!run/)[^/]+/', 'Commands open panels through src/webviews/descriptors.ts and panels.ts, never by importing a panel’s folder.')] }] },
  },
  // The local server imitates LangSmith: it shares no code with the client.
  { files: ['server/**/*.ts'], rules: { 'no-restricted-imports': ['error', SERVER_IS_ITS_OWN] } },
  // Routes sit over the store: a store that reached up into routes/ would tie the SQL to one answer's shape
  // (and the seed, which writes through the stores, to the HTTP layer).
  {
    files: ['server/store/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        ...SERVER_IS_ITS_OWN,
        patterns: [
          ...SERVER_IS_ITS_OWN.patterns,
          door('^(\\.\\./)+routes(/|$)', 'server/store never imports server/routes: routes parse and shape over the store, not the other way round.'),
        ],
      }],
    },
  },
  // Webviews: only src/protocol from the host, never vscode; the deprecated toolkit behind one folder; no HTML from strings.
  {
    files: ['webview-ui/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', HTMLElement: 'readonly', requestAnimationFrame: 'readonly', cancelAnimationFrame: 'readonly', ResizeObserver: 'readonly', MessageEvent: 'readonly', KeyboardEvent: 'readonly', Event: 'readonly' } },
    rules: {
      'no-restricted-imports': ['error', {
        ...WEBVIEW_UI_IS_APART,
      }],
      'no-restricted-syntax': ['error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Server text is rendered as text, never as HTML.' },
        { selector: "AssignmentExpression[left.property.name=/^(innerHTML|outerHTML)$/]", message: 'Server text is rendered as text, never as HTML.' },
        { selector: "CallExpression[callee.name='acquireVsCodeApi']", message: 'Only webview-ui/src/common/vscode.ts calls acquireVsCodeApi (tests fake it there).' },
      ],
    },
  },
  // An app never imports another app's folder (app folders are flat, so `../x/` from one is another app): what two
  // apps share goes in webview-ui/src/common/.
  {
    files: ['webview-ui/src/apps/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        ...WEBVIEW_UI_IS_APART,
        patterns: [
          ...WEBVIEW_UI_IS_APART.patterns,
          door('^\\.\\./[^./][^/]*/', 'A webview app never imports another app’s folder: what two apps share goes in webview-ui/src/common/.'),
        ],
      }],
    },
  },
  {
    files: ['webview-ui/src/common/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'], patterns: [door('^(\\.\\./)+src/(?!protocol/)', 'webview-ui imports only src/protocol from the host side.')] }] },
  },
  {
    files: ['webview-ui/src/common/vscode.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },

  // No import cycles in product code: a module is loaded after everything it imports, so each room can be
  // understood, bundled lazily and tested from the bottom up. Static and dynamic `import()` both count; type-only
  // imports vanish at build time and are left to review.
  {
    files: ['src/**/*.ts', 'webview-ui/src/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },

  // Tests and scripts may use what the product may not (fakes, Node globals in pages).
  {
    files: ['test/**/*.{ts,mjs}', 'scripts/**/*.mjs', '*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
