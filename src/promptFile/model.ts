// The prompt-file model: a readable YAML form of a LangSmith prompt (`*.prompt.yaml`) and a raw manifest
// (`*.prompt.json`), the problems a parse reports with their place in the text, and the names LangSmith accepts.
import type { TemplateFormat } from '../client/templates/format';

export const ROLES = ['system', 'human', 'ai'] as const;
/** The keys a prompt file may have at its top, in the order a written file has them. */
export const TOP_KEYS = ['prompt', 'description', 'visibility', 'tags', 'template_format', 'input_variables', 'messages', 'template', 'model', 'readme'] as const;
/** Prompt names as LangSmith accepts them. */
export const PROMPT_NAME = /^[a-z0-9][a-z0-9_.-]*$/i;
/** Owners (workspace handles) as LangSmith accepts them. */
export const OWNER = /^[a-z0-9][a-z0-9_-]*$/i;
/** A template variable or placeholder name. */
export const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export interface Problem {
  message: string;
  severity: Severity;
  /** Offsets into the file's text. */
  offset: number;
  length: number;
  code: string;
}

export type FilePart = { type: 'text'; text: string } | { type: 'raw'; raw: unknown };
export type FileMessage =
  | { kind: 'message'; role: string; chatRole: boolean; template: string | FilePart[]; templateFormat: TemplateFormat }
  | { kind: 'placeholder'; name: string; optional: boolean };

export interface PromptFile {
  /** `name` or `owner/name`, when the file names its prompt. */
  identifier?: string;
  description?: string;
  readme?: string;
  tags?: string[];
  visibility?: 'public' | 'private';
  templateFormat: TemplateFormat;
  inputVariables?: string[];
  body: { kind: 'chat'; messages: FileMessage[] } | { kind: 'string'; template: string };
  model?: { id: string[]; settings: Record<string, unknown> };
  /** A `*.prompt.json` file's manifest: what a push commits, unchanged. */
  rawManifest?: unknown;
}

/** Where a variable appears in the text: in a template, or in `input_variables`. */
export interface VariableUse {
  name: string;
  offset: number;
  length: number;
  where: 'template' | 'declaration';
  /** 'messages[1] (human)', 'template', 'input_variables'. */
  label: string;
  /** An optional placeholder: LangChain does not list it among the input variables. */
  optional?: boolean;
}

/** A template's place in the text (for completion inside templates). */
export interface TemplateSpan {
  offset: number;
  end: number;
  format: TemplateFormat;
}

export interface ParsedPromptFile {
  /** Undefined when the file cannot be read as a prompt at all. */
  file?: PromptFile;
  problems: Problem[];
  variables: VariableUse[];
  templates: TemplateSpan[];
}

export interface PromptMeta {
  identifier?: string;
  description?: string | null;
  readme?: string | null;
  tags?: string[] | null;
  isPublic?: boolean | null;
}
