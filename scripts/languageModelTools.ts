// The `languageModelTools` contribution of package.json, generated from the agent tools' table (src/agent), so the
// editor's tools and the MCP server offer the same names, descriptions and input schemas.
//   node --import=tsx scripts/languageModelTools.ts           says whether package.json is up to date (exit 1 if not)
//   node --import=tsx scripts/languageModelTools.ts --write   writes the contribution and its texts
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { inputSchemaOf, TOOLS, type AgentTool } from '../src/agent';
import { TOOL_PREFIX } from '../src/agentHost/toolNames';

export interface ToolContribution {
  name: string;
  toolReferenceName: string;
  displayName: string;
  userDescription: string;
  modelDescription: string;
  canBeReferencedInPrompt: true;
  icon: string;
  tags: string[];
  inputSchema: object;
}

const root = path.resolve(__dirname, '..');

/** The JSON schema VS Code checks a call's input against: the one the MCP server offers. */
export function jsonSchemaOf(tool: AgentTool): object {
  const { $schema: _drop, ...schema } = z.toJSONSchema(inputSchemaOf(tool), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

function firstSentence(text: string): string {
  const m = /^.*?[.!?](?=\s|$)/s.exec(text);
  return (m ? m[0] : text).trim();
}

/** package.json's contribution (texts the user reads as %keys% of package.nls.json) and those texts. */
export function contributions(): { tools: ToolContribution[]; nls: Record<string, string> } {
  const nls: Record<string, string> = {};
  const tools = TOOLS.map((t) => {
    const key = `languageModelTools.${t.name}`;
    nls[`${key}.displayName`] = t.title;
    nls[`${key}.userDescription`] = firstSentence(t.description);
    const modelDescription = t.kind === 'write' ? `${t.description} The user sees exactly what will change and confirms it before the change is made.` : t.description;
    return {
      name: `${TOOL_PREFIX}${t.name}`,
      toolReferenceName: `${TOOL_PREFIX}${t.name}`,
      displayName: `%${key}.displayName%`,
      userDescription: `%${key}.userDescription%`,
      modelDescription,
      canBeReferencedInPrompt: true as const,
      icon: t.kind === 'read' ? '$(search)' : '$(edit)',
      tags: ['langsmith', t.kind === 'read' ? 'langsmith-read' : 'langsmith-write'],
      inputSchema: jsonSchemaOf(t),
    };
  });
  return { tools, nls };
}

/** package.json and package.nls.json with the generated contribution (other entries kept, in order). */
export function updatedManifests(pkgText: string, nlsText: string): { pkg: string; nls: string } {
  const pkg = JSON.parse(pkgText) as { contributes: Record<string, unknown> };
  const nls = JSON.parse(nlsText) as Record<string, string>;
  const generated = contributions();
  pkg.contributes.languageModelTools = generated.tools;
  // The tools' texts replace the old ones where those stood (at the end the first time); other entries keep their place.
  const out: Record<string, string> = {};
  let placed = false;
  for (const [k, v] of Object.entries(nls)) {
    if (!k.startsWith('languageModelTools.')) out[k] = v;
    else if (!placed) {
      Object.assign(out, generated.nls);
      placed = true;
    }
  }
  if (!placed) Object.assign(out, generated.nls);
  return { pkg: `${JSON.stringify(pkg, null, 2)}\n`, nls: `${JSON.stringify(out, null, 2)}\n` };
}

if (require.main === module) {
  const pkgFile = path.join(root, 'package.json');
  const nlsFile = path.join(root, 'package.nls.json');
  const before = { pkg: fs.readFileSync(pkgFile, 'utf8'), nls: fs.readFileSync(nlsFile, 'utf8') };
  const after = updatedManifests(before.pkg, before.nls);
  const current = after.pkg === before.pkg && after.nls === before.nls;
  if (process.argv.includes('--write')) {
    fs.writeFileSync(pkgFile, after.pkg);
    fs.writeFileSync(nlsFile, after.nls);
    console.log(current ? 'package.json: the language-model tools were up to date.' : `package.json: wrote ${TOOLS.length} language-model tools.`);
  } else {
    console.log(current ? 'package.json: the language-model tools are up to date.' : 'package.json: the language-model tools differ from src/agent; run with --write.');
    process.exitCode = current ? 0 : 1;
  }
}
