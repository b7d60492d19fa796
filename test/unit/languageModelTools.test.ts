// The editor's language-model tools and the MCP server offer the same tools: package.json's contribution is
// generated from the agent tools' table and must match it exactly; the MCP provider is contributed under its id.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { findTool, TOOLS } from '../../src/agent';
import { contributedToolNames, TOOL_PREFIX } from '../../src/agentHost/toolNames';
import { contributions, updatedManifests } from '../../scripts/languageModelTools';

const root = path.resolve(__dirname, '../..');
const pkgText = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
const nlsText = fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8');
const pkg = JSON.parse(pkgText);

describe('language-model tools in package.json', () => {
  it('are exactly what scripts/languageModelTools.ts generates from src/agent (run it with --write after a change)', () => {
    const after = updatedManifests(pkgText, nlsText);
    assert.equal(after.pkg, pkgText, 'package.json languageModelTools differ from the agent tools');
    assert.equal(after.nls, nlsText, 'package.nls.json tool texts differ from the agent tools');
  });

  it('name every agent tool once, under the langsmith_ prefix, with its schema and a read/write tag', () => {
    const names = contributedToolNames(pkg);
    assert.equal(names.length, TOOLS.length);
    assert.equal(new Set(names).size, names.length);
    for (const c of pkg.contributes.languageModelTools) {
      const tool = findTool(c.name.slice(TOOL_PREFIX.length));
      assert.ok(tool, `${c.name} is no agent tool`);
      assert.match(c.name, /^langsmith_[a-z]+(_[a-z]+)+$/);
      assert.equal(c.toolReferenceName, c.name);
      assert.equal(c.canBeReferencedInPrompt, true);
      assert.ok(c.tags.includes(tool.kind === 'read' ? 'langsmith-read' : 'langsmith-write'), c.name);
      assert.equal(c.inputSchema.type, 'object');
      assert.ok(!('$schema' in c.inputSchema), `${c.name}: VS Code takes the schema without $schema`);
      // Every field of the tool's own schema is offered (with page, and dryRun for writes).
      const fields = Object.keys(tool.input.shape).concat('page', ...(tool.kind === 'write' ? ['dryRun'] : []));
      assert.deepEqual(Object.keys(c.inputSchema.properties).sort(), fields.sort(), c.name);
      if (tool.kind === 'write') assert.match(c.modelDescription, /confirms it before the change is made/);
    }
  });

  it('keep the API key out of every description and schema', () => {
    const text = JSON.stringify(contributions());
    assert.doesNotMatch(text, /api[_-]?key/i);
  });

  it('contribute the MCP server definition provider the extension registers', async () => {
    assert.deepEqual(pkg.contributes.mcpServerDefinitionProviders.map((p: { id: string }) => p.id), ['langsmith-workbench.mcp']);
    const source = fs.readFileSync(path.join(root, 'src/agentHost/mcpServer.ts'), 'utf8');
    assert.match(source, /MCP_PROVIDER_ID = 'langsmith-workbench\.mcp'/);
  });
});
