// Writing prompt files: a new file from the model, or an existing file rewritten in place so that its comments,
// the order of its keys and the styles of what stays are kept.
import { isMap, isScalar, isSeq, parseDocument, Scalar, type Document, type Node } from 'yaml';
import { fromManifest } from './manifest';
import type { PromptFile, PromptMeta } from './model';

/** The plain object a prompt file is written from, keys in the file's order. */
function fileObject(file: PromptFile): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (file.identifier) o['prompt'] = file.identifier;
  if (file.description !== undefined) o['description'] = file.description;
  if (file.visibility) o['visibility'] = file.visibility;
  if (file.tags) o['tags'] = file.tags;
  o['template_format'] = file.templateFormat;
  if (file.inputVariables) o['input_variables'] = file.inputVariables;
  if (file.body.kind === 'string') o['template'] = file.body.template;
  else
    o['messages'] = file.body.messages.map((m) => {
      if (m.kind === 'placeholder') return m.optional ? { placeholder: m.name, optional: true } : { placeholder: m.name };
      const template = typeof m.template === 'string' ? m.template : m.template.map((p) => (p.type === 'text' ? { text: p.text } : { raw: p.raw }));
      return {
        [m.chatRole ? 'chat_role' : 'role']: m.role,
        ...(m.templateFormat !== file.templateFormat ? { template_format: m.templateFormat } : {}),
        template,
      };
    });
  if (file.model) o['model'] = { class: file.model.id.join('.'), ...file.model.settings };
  if (file.readme !== undefined) o['readme'] = file.readme;
  return o;
}

// Double-quoted text stays on one line: yaml's multi-line double quoting garbles a line of one space ("a \n \nb").
const WRITE_OPTIONS = { lineWidth: 0, minContentWidth: 0, blockQuote: 'literal', doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER } as const;

const HEADER = ' A LangSmith prompt file: “LangSmith: Push Prompt File as Commit…” pushes it, the Prompts view pulls it.';

function styleStrings(node: unknown): void {
  // Multi-line text as literal blocks, so a template reads as it is written. Text of blanks and line breaks
  // alone is double-quoted: a block scalar would read its blank-only lines back as empty lines.
  if (isScalar(node) && typeof node.value === 'string' && node.value.includes('\n')) {
    node.type = /[^ \t\n]/.test(node.value) ? Scalar.BLOCK_LITERAL : Scalar.QUOTE_DOUBLE;
  }
  if (isMap(node)) for (const pair of node.items) styleStrings(pair.value);
  if (isSeq(node)) for (const item of node.items) styleStrings(item);
}

/** The text of a prompt file. `header` adds the comment that says what the file is. */
export function writePromptFile(file: PromptFile, o: { header?: boolean } = {}): string {
  const doc = parseDocument('{}');
  doc.contents = doc.createNode(fileObject(file)) as unknown as typeof doc.contents;
  styleStrings(doc.contents);
  if (o.header) doc.commentBefore = HEADER;
  return doc.toString(WRITE_OPTIONS);
}

/** Writes the value into the YAML node in place: comments, key order and styles of what stays are kept. */
function merge(doc: Document, node: Node | null | undefined, value: unknown): Node {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && isMap(node)) {
    const obj = value as Record<string, unknown>;
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined || !(key in obj)) node.delete(pair.key);
    }
    for (const [k, v] of Object.entries(obj)) {
      const existing = node.get(k, true) as Node | undefined;
      node.set(k, merge(doc, existing, v));
    }
    return node;
  }
  if (Array.isArray(value) && isSeq(node)) {
    node.items = value.map((v, i) => merge(doc, node.items[i] as Node | undefined, v)) as typeof node.items;
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object') && node.value === value) return node;
  const fresh = doc.createNode(value) as Node;
  styleStrings(fresh);
  if (isScalar(node) && isScalar(fresh)) {
    fresh.commentBefore = node.commentBefore;
    fresh.comment = node.comment;
  }
  return fresh;
}

/** Rewrites an existing prompt file with new content, keeping its comments and the order of its keys. */
export function rewritePromptFile(text: string, file: PromptFile): string {
  const doc = parseDocument(text);
  if (doc.errors.length || !isMap(doc.contents)) return writePromptFile(file, { header: true });
  merge(doc, doc.contents, fileObject(file));
  return doc.toString(WRITE_OPTIONS);
}

/** A manifest as the readable prompt file text (what the diff editor and commit documents show). */
export function manifestAsPromptFile(manifest: unknown, meta: PromptMeta = {}): string {
  return writePromptFile(fromManifest(manifest, meta));
}
