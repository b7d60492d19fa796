// The project's lint: typescript-eslint's recommended rules, the one-way doors of ARCHITECTURE.md as
// no-restricted-imports rules (so a wrong import is underlined while it is written, and `npm test` fails on it),
// and the habits the team keeps: no floating promises in the extension host, no `any` in product code, no HTML
// from strings in the webviews.
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Host rooms of src/ that the client and the protocol never reach. */
const HOST_ROOMS = 'auth|views|commands|webviews|prompts|common|extension|constants';

const door = (regex, message) => ({ regex, message });

/** The server's own door, repeated where a narrower block of server/ adds one (a later block replaces the rule). */
const SERVER_IS_ITS_OWN = {
  paths: [{ name: 'vscode', message: 'The server is a program of its own.' }],
  patterns: [door('^(\\.\\./)+src(/|$)', 'server/ never imports src/: sharing code with the client would hide where it differs from LangSmith.')],
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

  // Doors. The client and the protocol run without VS Code and know nothing of the host's rooms.
  {
    files: ['src/client/**/*.ts', 'src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/client and src/protocol run without VS Code: no vscode import here.' }],
        patterns: [door(`^(\\.\\./)+(${HOST_ROOMS})(/|$)`, 'src/client and src/protocol never import the extension host’s rooms.')],
      }],
    },
  },
  // The prompt-file engine runs without VS Code too (the extension loads it apart; a command-line tool and a server
  // use it as it is): it imports src/client and packages, never vscode nor the host's rooms (src/prompts/ among them).
  {
    files: ['src/promptFile/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/promptFile runs without VS Code: no vscode import here.' }],
        patterns: [
          door(`^(\\.\\./)+(${HOST_ROOMS})(/|$)`, 'src/promptFile never imports the extension host’s rooms (src/client and packages only).'),
        ],
      }],
    },
  },
  // The experiments engine and the finder and lookup of prompt references run without VS Code as well (the command
  // line and agent tools use them).
  {
    files: ['src/experiments/**/*.ts', 'src/promptReferences/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'This module runs without VS Code: no vscode import here.' }],
        patterns: [
          door('^(\\.\\./)+(auth|views|commands|webviews|common|extension|constants)(/|$)', 'This module never imports the extension host’s rooms (src/client, the engines and packages only).'),
          door('^(\\.\\./)+prompts/(?!engine/)', 'Of src/prompts/ this module imports only the prompt-file engine.'),
        ],
      }],
    },
  },
  // Constants are the ground floor: they import nothing of the project.
  {
    files: ['src/constants.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [door('^\\.', 'src/constants.ts is the ground floor: it imports nothing of the project.')] }] },
  },
  // Nothing reaches up into commands/ from the rooms below it: commands open panels and call views, never the
  // other way round (a panel that needs a picker takes it from common/).
  {
    files: ['src/auth/**/*.ts', 'src/views/**/*.ts', 'src/common/**/*.ts', 'src/webviews/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [door('^(\\.\\./)+commands(/|$)', 'auth/, views/, common/ and webviews/ sit below commands/: take ids from src/constants.ts and shared pieces from common/.')] }] },
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
        paths: [{ name: 'vscode', message: 'Webviews talk to the host through src/protocol messages only.' }],
        patterns: [
          door('^(\\.\\./)+src/(?!protocol/)', 'webview-ui imports only src/protocol from the host side.'),
          door('^@vscode/webview-ui-toolkit', 'The toolkit is deprecated upstream: use it through webview-ui/src/common/components only.'),
        ],
      }],
      'no-restricted-syntax': ['error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Server text is rendered as text, never as HTML.' },
        { selector: "AssignmentExpression[left.property.name=/^(innerHTML|outerHTML)$/]", message: 'Server text is rendered as text, never as HTML.' },
        { selector: "CallExpression[callee.name='acquireVsCodeApi']", message: 'Only webview-ui/src/common/vscode.ts calls acquireVsCodeApi (tests fake it there).' },
      ],
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
