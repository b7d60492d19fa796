// Positioned YAML reading: a reader that reports each problem at its place in the text, the offset of every
// character of a scalar's value, and how deeply a text nests (measured before the document is composed).
import { isScalar, isSeq, Parser, type CST, type Document, type Node, type Scalar } from 'yaml';
import type { Problem, Severity, TemplateSpan, VariableUse } from './model';

export class Reader {
  readonly problems: Problem[] = [];
  readonly variables: VariableUse[] = [];
  readonly templates: TemplateSpan[] = [];
  /** The parsed document, for resolving aliases. */
  doc?: Document;

  constructor(readonly text: string) {}

  /** The node as plain data with its aliases resolved (without the document an alias reads as `{source}`). */
  plain(node: unknown): unknown {
    if (!node || typeof node !== 'object' || !('toJSON' in node)) return node;
    try {
      return this.doc ? (node as Node).toJS(this.doc) : (node as Node).toJSON();
    } catch (e) {
      this.add('error', 'yaml', e instanceof Error ? e.message : String(e), this.at(node as Node));
      return undefined;
    }
  }

  at(node: Node | null | undefined, fallback = 0): { offset: number; length: number } {
    const r = node?.range;
    if (!r) return { offset: fallback, length: 0 };
    return { offset: r[0], length: Math.max(0, r[1] - r[0]) };
  }

  add(severity: Severity, code: string, message: string, where: { offset: number; length: number }): void {
    this.problems.push({ severity, code, message, offset: where.offset, length: where.length });
  }

  string(node: unknown, what: string): string | undefined {
    if (isScalar(node) && typeof node.value === 'string') return node.value;
    if (isScalar(node) && (typeof node.value === 'number' || typeof node.value === 'boolean')) return String(node.value);
    this.add('error', 'type', `${what} must be text.`, this.at(node as Node));
    return undefined;
  }

  strings(node: unknown, what: string): string[] | undefined {
    if (!isSeq(node)) {
      this.add('error', 'type', `${what} must be a list of text.`, this.at(node as Node));
      return undefined;
    }
    const out: string[] = [];
    for (const item of node.items) {
      const s = this.string(item, `Each entry of ${what}`);
      if (s !== undefined) out.push(s);
    }
    return out;
  }
}

/** Maps each character of a scalar's value to its offset in the source (escapes, quotes and indentation skipped). */
export function valueOffsets(text: string, node: Scalar, value: string): number[] {
  const [start, end] = node.range ?? [0, 0];
  const out: number[] = new Array<number>(value.length + 1);
  let i = start;
  const type = node.type;
  // Skip the block header (`|-`, `>+2`) and the opening quote.
  if (type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') {
    while (i < end && text[i] !== '\n') i++;
    i++;
  } else if (type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE') i++;
  for (let j = 0; j < value.length; j++) {
    const ch = value[j]!;
    while (i < end) {
      const s = text[i]!;
      if (type === 'QUOTE_DOUBLE' && s === '\\') {
        const next = text[i + 1];
        const width = next === 'x' ? 4 : next === 'u' ? 6 : next === 'U' ? 10 : 2;
        if (next === '\n') {
          i += 2;
          continue;
        }
        out[j] = i;
        i += width;
        break;
      }
      if (type === 'QUOTE_SINGLE' && s === "'" && text[i + 1] === "'" && ch === "'") {
        out[j] = i;
        i += 2;
        break;
      }
      if (s === ch || (/\s/.test(ch) && /\s/.test(s))) {
        out[j] = i;
        i++;
        break;
      }
      i++;
    }
    if (out[j] === undefined) out[j] = Math.min(i, end);
  }
  out[value.length] = Math.min(i, end);
  return out;
}

/**
 * Deeper than this, a file is refused before it is composed: composing recurses per level (near the stack's end a
 * regular expression compiled by V8 can abort the process) and slows down badly on nested complex keys. A prompt
 * file needs a few levels.
 */
export const MAX_DEPTH = 64;

/** The deepest nesting of lists and mappings in the text, and where, from yaml's CST (parsed without recursion). */
export function deepest(text: string): { depth: number; offset: number } {
  let best = { depth: 0, offset: 0 };
  const stack: [CST.Token, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([token, 0]);
  while (stack.length) {
    const [t, d] = stack.pop()!;
    if (t.type === 'document' && t.value) stack.push([t.value, d]);
    else if (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection') {
      if (d + 1 > best.depth) best = { depth: d + 1, offset: t.offset };
      for (const item of t.items) {
        if (item.key) stack.push([item.key, d + 1]);
        if (item.value) stack.push([item.value, d + 1]);
      }
    }
  }
  return best;
}
