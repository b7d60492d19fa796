// One definition per tool an agent may call: its name, a description written for a model, its input schema
// (zod; hosts derive the JSON schema from it), whether it reads or writes, its hints, and its work. Two fronts use
// the same definitions: the MCP server of the command line and the editor's language-model tools. Plain Node.
import type { z } from 'zod';
import type { LangSmithClient } from '../client';
import type { Change } from '../protocol/changes';

export interface ToolContext {
  client: LangSmithClient;
  /** The folder prompt files are read from (`push_prompt`'s `path`); absent: no file is read. */
  workspaceRoot?: string;
  signal?: AbortSignal;
  /** Texts never to appear in an answer (the API key the client was made with). */
  secrets?: readonly string[];
  /** Told what a write changed once it went through (the editor's change bus); absent in the command line. */
  changed?(change: Change): void;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface AgentTool<S extends z.ZodObject = z.ZodObject> {
  /** `{verb}_{noun}`. */
  name: string;
  title: string;
  /** For the model: what the tool does, when to use it, what it answers. */
  description: string;
  input: S;
  kind: 'read' | 'write';
  annotations: ToolAnnotations;
  /** Writes: the exact change the call would make, for the user to confirm before it happens. Sends no write. */
  prepare?(input: z.infer<S>, ctx: ToolContext): Promise<string>;
  /** The answer: compact text (paged by the caller). */
  run(input: z.infer<S>, ctx: ToolContext): Promise<string>;
}

export const READ_HINTS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

export function writeHints(o: { destructive?: boolean; idempotent?: boolean } = {}): ToolAnnotations {
  return { readOnlyHint: false, destructiveHint: o.destructive ?? false, idempotentHint: o.idempotent ?? false, openWorldHint: true };
}

/** A tool's definition with its input type kept (the table holds them as AgentTool). */
export function defineTool<S extends z.ZodObject>(t: AgentTool<S>): AgentTool {
  return t as unknown as AgentTool;
}

/** A refusal or bad input the model can act on: the message is the whole answer. */
export class ToolInputError extends Error {}
