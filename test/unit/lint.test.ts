// The one-way doors of ARCHITECTURE.md are ESLint rules (eslint.config.mjs): these tests put a forbidden import
// in each room, through ESLint's own API with the project's config, and see it refused — and the allowed
// imports pass. (`npm test`'s lint layer runs the same config over the whole tree.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

/**
 * The errors ESLint reports for `code` as if it were the file at `file`. Files under src/ are linted with type
 * information, so the tests there stand in for files that exist (their text replaced, not their place).
 */
async function errors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const refused = async (file: string, code: string, why: RegExp) => {
  const found = await errors(file, code);
  assert.ok(found.some((e) => why.test(e)), `${file} should refuse:\n${code}\nbut ESLint said: ${found.join(' | ') || 'nothing'}`);
};
const allowed = async (file: string, code: string) => assert.deepEqual(await errors(file, code), [], `${file} should allow:\n${code}`);

describe('lint: the doors of the architecture', function () {
  this.timeout(60_000);

  // One file of each room of the plain-Node floor (an existing file: type information needs one), an editor room it
  // must not reach, a room of the floor above it, and one below it that it may import.
  const PLAIN: { file: string; editor: string; above?: string; below?: string }[] = [
    { file: 'src/client/resources/datasets.ts', editor: '../../auth/clientService', above: '../../promptFile', below: '../messages' },
    { file: 'src/protocol/hello.ts', editor: '../webviews/descriptors', above: '../client' },
    { file: 'src/text/format.ts', editor: '../views/markdown', above: '../client' },
    { file: 'src/promptFile/sync.ts', editor: '../prompts/promptFiles', above: '../experiments', below: '../client/messages' },
    { file: 'src/promptReferences/lookup.ts', editor: '../common/keyedDebounce', above: '../agent', below: '../promptFile' },
    { file: 'src/experiments/run.ts', editor: '../webviews/descriptors', above: '../agent', below: '../promptFile' },
    { file: 'src/agent/reads.ts', editor: '../agentHost/toolNames', above: '../cli/io', below: '../experiments' },
    { file: 'src/cli/main.ts', editor: '../constants', below: '../agent' },
  ];

  for (const { file, editor, above, below } of PLAIN) {
    const room = file.split('/')[1];
    it(`src/${room} (plain-Node floor) never imports vscode or an editor room${above ? ', nor a room above it' : ''}`, async () => {
      await refused(file, "import * as vscode from 'vscode';\nexport const x = vscode;\n", new RegExp(`no-restricted-imports.*src/${room} runs in plain Node`));
      await refused(file, `import * as m from '${editor}';\nexport const x = m;\n`, new RegExp(`src/${room} is on the plain-Node floor: it never imports an editor room`));
      if (above) await refused(file, `import * as m from '${above}';\nexport const x = m;\n`, new RegExp(`src/${room} imports only .* of the plain-Node floor`));
      if (below) await allowed(file, `import * as m from '${below}';\nexport const x = m;\n`);
    });
  }

  it('auth/, views/, common/, prompts/, agentHost/ and webviews/ never reach up into commands/', async () => {
    await refused('src/views/treeNode.ts', "import { prompter } from '../commands/prompter';\nexport const x = prompter;\n", /sits below src\/commands/);
    await refused('src/agentHost/mcpServer.ts', "import * as m from '../commands/promptCommands';\nexport const x = m;\n", /sits below src\/commands/);
    await refused('src/webviews/trace/tracePanel.ts', "import * as m from '../../commands/traceCommands';\nexport const x = m;\n", /sits below src\/commands/);
    await allowed('src/views/treeNode.ts', "import { Commands } from '../constants';\nexport const x = Commands;\n");
  });

  it('a panel never imports another panel’s folder, and commands never reach into one', async () => {
    await refused('src/webviews/review/reviewPanel.ts', "import { traceApp } from '../trace/tracePanel';\nexport const x = traceApp;\n", /never imports another panel’s folder/);
    await allowed('src/webviews/review/reviewPanel.ts', "import { TraceSession } from '../run/traceSession';\nimport { reported } from '../reported';\nexport const x = [TraceSession, reported];\n");
    await allowed('src/webviews/panels.ts', "import { ClientService } from '../auth/clientService';\nexport const x = ClientService;\n");
    await refused('src/commands/experimentCommands.ts', "import { CompareSession } from '../webviews/compare/comparePanel';\nexport const x = CompareSession;\n", /never by importing a panel’s folder/);
    await allowed('src/commands/experimentCommands.ts', "import { Panels } from '../webviews/descriptors';\nexport const x = Panels;\n");
    await refused('webview-ui/src/apps/review/door.tsx', "import * as m from '../trace/App';\nexport const x = m;\n", /never imports another app’s folder/);
    await allowed('webview-ui/src/apps/review/door.tsx', "import * as m from '../../common/app';\nimport * as n from './door2';\nexport const x = [m, n];\n");
  });

  it('the constants import nothing of the project', async () => {
    await refused('src/constants.ts', "import { SCHEME } from './views/documents';\nexport const x = SCHEME;\n", /ground floor/);
  });

  it('webview-ui imports only src/protocol, never vscode, and the toolkit only inside common/components', async () => {
    await refused('webview-ui/src/apps/door/App.tsx', "import { LangSmithClient } from '../../../../src/client';\nexport const x = LangSmithClient;\n", /only src\/protocol/);
    await refused('webview-ui/src/apps/door/App.tsx', "import * as vscode from 'vscode';\nexport const x = vscode;\n", /through src\/protocol messages/);
    await refused('webview-ui/src/apps/door/App.tsx', "import { vsCodeButton } from '@vscode/webview-ui-toolkit';\nexport const x = vsCodeButton;\n", /deprecated upstream/);
    await allowed('webview-ui/src/common/components/door.ts', "import { vsCodeButton } from '@vscode/webview-ui-toolkit';\nexport const x = vsCodeButton;\n");
    await allowed('webview-ui/src/apps/door/App.tsx', "import { PushPrompt } from '../../../../src/protocol/promptCommit';\nexport const x = PushPrompt;\n");
  });

  it('webviews never render strings as HTML and only common/vscode.ts acquires the VS Code API', async () => {
    await refused('webview-ui/src/apps/door/App.tsx', 'export const A = (p: { t: string }) => <div dangerouslySetInnerHTML={{ __html: p.t }} />;\n', /rendered as text/);
    await refused('webview-ui/src/apps/door/page.ts', 'export function put(el: { innerHTML: string }, t: string) {\n  el.innerHTML = t;\n}\n', /rendered as text/);
    await refused('webview-ui/src/apps/door/page.ts', 'declare function acquireVsCodeApi(): unknown;\nexport const api = acquireVsCodeApi();\n', /Only webview-ui\/src\/common\/vscode\.ts/);
  });

  it('server/ never imports src/', async () => {
    await refused('server/door.ts', "import { MSG } from '../src/client/messages';\nexport const x = MSG;\n", /never imports src/);
    await refused('server/routes/door.ts', "import { MSG } from '../../src/client/messages';\nexport const x = MSG;\n", /never imports src/);
  });

  it('server/store never imports server/routes', async () => {
    await refused('server/store/door.ts', "import { datasetOut } from '../routes/datasets';\nexport const x = datasetOut;\n", /store never imports server\/routes/);
    await refused('server/store/door.ts', "import { MSG } from '../../src/client/messages';\nexport const x = MSG;\n", /never imports src/);
    await allowed('server/store/door.ts', "import { getDataset } from './datasets';\nexport const x = getDataset;\n");
  });

  it('product code has no `any`', async () => {
    await refused('webview-ui/src/apps/door/page.ts', 'export const x: any = 1;\n', /no-explicit-any/);
  });

  it('webviews/ never reaches up into commands/', async () => {
    await refused('src/webviews/html.ts', "import { registerCommand } from '../commands/registerCommand';\nexport const x = registerCommand;\n", /sits below src\/commands/);
    await allowed('src/webviews/html.ts', "import { Commands } from '../constants';\nexport const x = Commands;\n");
  });

  describe('import cycles', () => {
    /** Writes `files` into a scratch folder of `room` (a cycle needs real files on both ends), lints them, removes them. */
    async function cycleErrors(room: string, files: Record<string, string>): Promise<string[]> {
      const dir = fs.mkdtempSync(path.join(root, room, 'cycle-door-'));
      try {
        for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
        const results = await eslint.lintFiles([dir]);
        return results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => `${path.basename(r.filePath)}: ${m.message}`));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }

    it('refuses a cycle in the host, through a static or a lazy import', async () => {
      const found = await cycleErrors('src/common', {
        'a.ts': "import { b } from './b';\nexport const a = (): number => b() + 1;\n",
        'b.ts': "export const b = (): number => 1;\nexport const later = () => import('./c');\n",
        'c.ts': "import { a } from './a';\nexport const c = a;\n",
      });
      assert.ok(found.some((e) => /^a\.ts: Dependency cycle/.test(e)), `a → b → c → a should be refused; ESLint said: ${found.join(' | ') || 'nothing'}`);
      assert.ok(found.some((e) => /^c\.ts: Dependency cycle/.test(e)), `the lazy import closing the cycle should be refused too; ESLint said: ${found.join(' | ')}`);
    });

    it('refuses a cycle between two webview components and the server’s modules', async () => {
      const ui = await cycleErrors('webview-ui/src/common', {
        'List.tsx': "import { Row } from './Row';\nexport const List = () => <Row />;\nexport const gap = 2;\n",
        'Row.tsx': "import { gap } from './List';\nexport const Row = () => <div>{gap}</div>;\n",
      });
      assert.equal(ui.length, 2, `both ends of List ↔ Row should be refused; ESLint said: ${ui.join(' | ') || 'nothing'}`);
      const server = await cycleErrors('server', {
        'a.ts': "import { b } from './b';\nexport const a = 1 + b;\n",
        'b.ts': "import { a } from './a';\nexport const b = 1;\nexport const c = () => a;\n",
      });
      assert.equal(server.length, 2, `server a ↔ b should be refused; ESLint said: ${server.join(' | ') || 'nothing'}`);
    });

    it('allows the same modules once the shared piece has a home of its own', async () => {
      const found = await cycleErrors('webview-ui/src/common', {
        'gap.ts': 'export const gap = 2;\n',
        'List.tsx': "import { Row } from './Row';\nexport const List = () => <Row />;\n",
        'Row.tsx': "import { gap } from './gap';\nexport const Row = () => <div>{gap}</div>;\n",
      });
      assert.deepEqual(found, []);
    });
  });
});
