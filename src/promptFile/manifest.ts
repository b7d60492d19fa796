// A prompt file to the LangChain manifest LangSmith stores, and back. Converting onto the manifest it came from
// (`base`) gives back that very manifest when nothing changed, so a pulled file pushed unchanged is "nothing to
// commit".
import { fstringVariables } from '../client/templates/fstring';
import {
  readManifest,
  writeManifest,
  type ChatMessage,
  type LcNode,
  type MessageTemplate,
  type OpaquePart,
  type PromptManifest,
  type PromptModel,
  type TextPart,
} from '../client/templates/manifest';
import type { TemplateFormat } from '../client/templates/format';
import { mustacheVariables } from '../client/templates/mustache';
import { promptNameOfFile } from './fileNames';
import { OWNER, PROMPT_NAME, ROLES, type FileMessage, type FilePart, type Problem, type PromptFile, type PromptMeta } from './model';

// ---------- file → manifest ----------

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function baseModel(base: unknown): PromptManifest | undefined {
  if (base === undefined || base === null) return undefined;
  try {
    return readManifest(base);
  } catch {
    return undefined;
  }
}

function toChatMessage(m: FileMessage, base: ChatMessage | undefined): ChatMessage {
  if (m.kind === 'placeholder') {
    return { kind: 'placeholder', variableName: m.name, optional: m.optional, ...(base?.kind === 'placeholder' && base.raw ? { raw: base.raw } : {}) };
  }
  const raw = base?.kind === 'message' ? base.raw : undefined;
  let template: MessageTemplate['template'];
  if (typeof m.template === 'string') template = m.template;
  else {
    const baseParts = base?.kind === 'message' && Array.isArray(base.template) ? base.template : [];
    template = m.template.map((p, i): TextPart | OpaquePart => {
      const b = baseParts[i];
      if (p.type === 'raw') return { type: 'opaque', raw: p.raw };
      return { type: 'text', template: p.text, templateFormat: m.templateFormat, ...(b?.type === 'text' && b.raw ? { raw: b.raw } : {}) };
    });
  }
  return { kind: 'message', role: m.role, template, templateFormat: m.templateFormat, ...(raw ? { raw } : {}) };
}

/** The inputs a raw content part (an image template…) lists in its `input_variables`. */
function rawVariables(raw: unknown): string[] {
  const vars = (raw as LcNode | undefined)?.kwargs?.['input_variables'];
  return Array.isArray(vars) ? vars.filter((v): v is string => typeof v === 'string') : [];
}

function fileVariables(file: PromptFile, rawOnly = false): string[] {
  const seen = new Set<string>();
  const add = (t: string, f: TemplateFormat) => {
    if (!rawOnly) for (const v of f === 'mustache' ? mustacheVariables(t) : fstringVariables(t)) seen.add(v);
  };
  if (file.body.kind === 'string') add(file.body.template, file.templateFormat);
  else
    for (const m of file.body.messages) {
      if (m.kind === 'placeholder') {
        if (!m.optional && !rawOnly) seen.add(m.name);
      } else if (typeof m.template === 'string') add(m.template, m.templateFormat);
      else
        for (const p of m.template) {
          if (p.type === 'text') add(p.text, m.templateFormat);
          else for (const v of rawVariables(p.raw)) seen.add(v);
        }
    }
  return [...seen];
}

/**
 * The manifest of a prompt file. With `base` (the manifest of the commit the file is pushed onto), every part
 * the file does not change keeps the base's JSON exactly, so an unchanged file gives back the base.
 */
export function toManifest(file: PromptFile, base?: unknown): LcNode {
  if (file.rawManifest !== undefined) return JSON.parse(JSON.stringify(file.rawManifest)) as LcNode;
  const b = baseModel(base);
  let prompt: PromptModel;
  const declared = file.inputVariables;
  const computed = fileVariables(file);
  // The declared order is kept when it names the same variables as the templates.
  const inputVariables = declared && same([...declared].sort(), [...computed].sort()) ? declared : computed;
  if (file.body.kind === 'string') {
    const raw = b?.prompt.kind === 'string' ? b.prompt.raw : undefined;
    prompt = { kind: 'string', template: file.body.template, templateFormat: file.templateFormat, inputVariables, ...(raw ? { raw } : {}) };
  } else {
    const bp = b?.prompt.kind === 'chat' ? b.prompt : undefined;
    const messages = file.body.messages.map((m, i) => toChatMessage(m, bp?.messages[i]));
    const hasTopFormat = bp?.raw ? bp.raw.kwargs?.['template_format'] !== undefined : false;
    prompt = { kind: 'chat', messages, inputVariables, ...(hasTopFormat ? { templateFormat: file.templateFormat } : {}), ...(bp?.raw ? { raw: bp.raw } : {}) };
  }
  let manifest: PromptManifest = { prompt };
  if (file.model) {
    const baseModelNode = b?.model as LcNode | undefined;
    const node: LcNode =
      baseModelNode && same(baseModelNode.id, file.model.id) && same(baseModelNode.kwargs ?? {}, file.model.settings)
        ? baseModelNode
        : { ...(baseModelNode && same(baseModelNode.id, file.model.id) ? baseModelNode : { lc: 1, type: 'constructor' }), id: file.model.id, kwargs: file.model.settings } as LcNode;
    const wrapper: LcNode = b?.wrapper ?? { lc: 1, type: 'constructor', id: ['langchain_core', 'runnables', 'RunnableSequence'], kwargs: {} };
    manifest = { prompt, model: node, wrapper };
  }
  const out = writeManifest(manifest);
  // The written prompt lists the templates' variables (not those of raw parts); a file that declares the same set
  // keeps its order.
  const promptNode = manifest.wrapper ? (out.kwargs?.['first'] as LcNode) : out;
  const k = promptNode.kwargs ?? {};
  const written = [...new Set([...((k['input_variables'] as string[]) ?? []), ...fileVariables(file, true)])];
  if (!same(k['input_variables'], inputVariables) && same(written.sort(), [...inputVariables].sort())) {
    k['input_variables'] = [...inputVariables];
  }
  return out;
}

/** Reads a `*.prompt.json` file (a raw manifest) into a prompt file model; problems when it is not one. */
export function parseManifestFile(text: string, fileName?: string): { manifest?: unknown; file?: PromptFile; problem?: Problem } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec(String(e));
    return { problem: { severity: 'error', code: 'json', message: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`, offset: m ? Number(m[1]) : 0, length: 1 } };
  }
  try {
    // The prompt it belongs to: LangChain hub metadata when the manifest carries it, else the file's name.
    const k = (json as { kwargs?: { metadata?: Record<string, unknown> } } | null)?.kwargs;
    const hubRepo = typeof k?.metadata?.['lc_hub_repo'] === 'string' ? (k.metadata['lc_hub_repo'] as string) : undefined;
    const hubOwner = typeof k?.metadata?.['lc_hub_owner'] === 'string' ? (k.metadata['lc_hub_owner'] as string) : undefined;
    const fromName = fileName === undefined ? undefined : promptNameOfFile(fileName);
    const name = hubRepo ?? (fromName && PROMPT_NAME.test(fromName) ? fromName : undefined);
    const identifier = name ? (hubOwner && hubOwner !== '-' && OWNER.test(hubOwner) ? `${hubOwner}/${name}` : name) : undefined;
    const file = fromManifest(json, { identifier });
    // A raw manifest is pushed as it is.
    file.rawManifest = json;
    return { manifest: json, file };
  } catch (e) {
    return { problem: { severity: 'error', code: 'manifest', message: e instanceof Error ? e.message : String(e), offset: 0, length: 0 } };
  }
}

// ---------- manifest → file ----------

function fromMessage(m: ChatMessage, top: TemplateFormat): FileMessage {
  if (m.kind === 'placeholder') return { kind: 'placeholder', name: m.variableName, optional: m.optional };
  const template: string | FilePart[] =
    typeof m.template === 'string' ? m.template : m.template.map((p): FilePart => (p.type === 'text' ? { type: 'text', text: p.template } : { type: 'raw', raw: p.raw }));
  return { kind: 'message', role: m.role, chatRole: !(ROLES as readonly string[]).includes(m.role), template, templateFormat: m.templateFormat ?? top };
}

/** The prompt file model of a manifest (throws a clear error for what is not a prompt manifest). */
export function fromManifest(manifest: unknown, meta: PromptMeta = {}): PromptFile {
  const m = readManifest(manifest);
  const p = m.prompt;
  const top: TemplateFormat =
    p.kind === 'string' ? p.templateFormat : (p.templateFormat ?? p.messages.find((x): x is MessageTemplate => x.kind === 'message')?.templateFormat ?? 'f-string');
  const file: PromptFile = {
    ...(meta.identifier ? { identifier: meta.identifier } : {}),
    ...(meta.description ? { description: meta.description } : {}),
    ...(meta.readme ? { readme: meta.readme } : {}),
    ...(meta.tags?.length ? { tags: meta.tags } : {}),
    ...(meta.isPublic === true ? { visibility: 'public' as const } : meta.isPublic === false ? { visibility: 'private' as const } : {}),
    templateFormat: top,
    ...(p.inputVariables.length ? { inputVariables: [...p.inputVariables] } : {}),
    body: p.kind === 'string' ? { kind: 'string', template: p.template } : { kind: 'chat', messages: p.messages.map((x) => fromMessage(x, top)) },
  };
  const model = m.model as LcNode | undefined;
  if (model && typeof model === 'object' && Array.isArray(model.id)) file.model = { id: model.id.map(String), settings: { ...(model.kwargs ?? {}) } };
  return file;
}
