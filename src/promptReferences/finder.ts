// Prompt references in source code: the string literals a program passes to LangSmith's prompt pulls
// (`client.pullPrompt("name")`, `hub.pull("owner/name:tag")`, `client.pull_prompt("name:1a2b3c4d")` …), found in
// JavaScript, TypeScript and Python text with their offsets. Plain Node, no vscode: one pass over the text that
// knows the languages' comments and strings (so a call inside a comment or a string is not one), linear in the
// length of the text. Never throws; every offset it reports is inside the text.

export type SourceLanguage = 'javascript' | 'python';

/** The scanner a VS Code language id is read with (TypeScript and JSX are JavaScript to it), or undefined. */
export function sourceLanguageOf(languageId: string): SourceLanguage | undefined {
  switch (languageId) {
    case 'javascript':
    case 'javascriptreact':
    case 'typescript':
    case 'typescriptreact':
      return 'javascript';
    case 'python':
      return 'python';
    default:
      return undefined;
  }
}

/**
 * Functions whose first argument names a prompt: the LangSmith clients (JS `pullPrompt`, `pullPromptCommit`,
 * `_pullPrompt`; Python `pull_prompt`, `pull_prompt_commit`, `_pull_prompt`, sync and async alike), called on
 * any object or bare (a wrapper of the same name). LangChain's hub `pull` counts when called as `hub.pull` or
 * imported by name from the hub module.
 */
export const PULL_FUNCTIONS: readonly string[] = ['pullPrompt', 'pullPromptCommit', '_pullPrompt', 'pull_prompt', 'pull_prompt_commit', '_pull_prompt'];
const PULLS = new Set(PULL_FUNCTIONS);
/** Python's keyword names of that argument (`pull_prompt(prompt_identifier=…)`, `hub.pull(owner_repo_commit=…)`). */
const KEYWORDS = new Set(['prompt_identifier', 'owner_repo_commit']);

export type RefKind = 'latest' | 'tag' | 'commit';

/** A prompt identifier split into its parts; offsets are relative to the identifier's text. */
export interface PromptIdentifierParts {
  /** The owner's handle when the identifier names one (`owner/name`); '-' is the caller's own. */
  owner?: string;
  name: string;
  nameOffset: number;
  /** What follows the colon; absent means the latest commit. */
  ref?: string;
  refOffset?: number;
  kind: RefKind;
}

export interface PromptReference {
  /** The function as written: `pullPrompt`, `client.pull_prompt`, `hub.pull`. */
  callee: string;
  /** The literal with its quotes (and prefix): [start, end). */
  start: number;
  end: number;
  /** The text between the quotes: [valueStart, valueEnd). */
  valueStart: number;
  valueEnd: number;
  value: string;
  /** False while the literal is being typed (no closing quote on its line). */
  closed: boolean;
  /** The parts, or undefined when the text is not a prompt identifier. */
  parts?: PromptIdentifierParts;
}

const SEGMENT = /^[A-Za-z0-9_][\w.-]*$/;
const REF = /^[^\s:/\\'"`]+$/;
const COMMIT = /^[0-9a-f]{8,64}$/i;

/** Reads `name`, `owner/name`, `name:tag`, `owner/name:commit`; undefined for anything else. */
export function parsePromptIdentifier(value: string): PromptIdentifierParts | undefined {
  if (value.length === 0 || value.length > 300) return undefined;
  const colon = value.indexOf(':');
  const path = colon < 0 ? value : value.slice(0, colon);
  const ref = colon < 0 ? undefined : value.slice(colon + 1);
  if (ref !== undefined && !REF.test(ref)) return undefined;
  const slash = path.indexOf('/');
  const owner = slash < 0 ? undefined : path.slice(0, slash);
  const name = slash < 0 ? path : path.slice(slash + 1);
  if (owner !== undefined && owner !== '-' && !SEGMENT.test(owner)) return undefined;
  if (!SEGMENT.test(name)) return undefined;
  const kind: RefKind = ref === undefined || ref === 'latest' ? 'latest' : COMMIT.test(ref) ? 'commit' : 'tag';
  return {
    ...(owner !== undefined ? { owner } : {}),
    name,
    nameOffset: slash + 1,
    ...(ref !== undefined ? { ref, refOffset: colon + 1 } : {}),
    kind,
  };
}

/** The identifier the API is asked with: `name` or `owner/name` (an own `-/` dropped), without the ref. */
export function promptKey(parts: PromptIdentifierParts): string {
  return parts.owner && parts.owner !== '-' ? `${parts.owner}/${parts.name}` : parts.name;
}

// Character codes the scanner compares against.
const NL = 10;
const CR = 13;
const SLASH = 47;
const STAR = 42;
const BACKSLASH = 92;
const HASH = 35;
const SQ = 39;
const DQ = 34;
const BT = 96;
const DOLLAR = 36;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const COMMA = 44;
const DOT = 46;
const EQUALS = 61;
const LT = 60;
const GT = 62;

const isIdentStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === DOLLAR || c > 127;
const isIdentPart = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);
const isSpace = (c: number) => c === 32 || c === 9 || c === NL || c === CR || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff;
const isLineSpace = (c: number) => c === 32 || c === 9 || c === 11 || c === 12;

/** Whether a word of this first character and length can be a pull function (all start with `p` or `_`). */
const mayBePull = (first: number, length: number) => (first === 112 || first === 95) && length >= 4 && length <= 18;
/** Keywords after which a `/` starts a regular expression, not a division. */
const REGEX_AFTER = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
/** Python string prefixes: `u` keeps a plain string; the others make it raw, bytes or formatted. */
const PY_PREFIX = /^(?:[rRuUbBfF]|[rR][bBfF]|[bBfF][rR])$/;

/** Where a file imports LangChain's hub `pull` by name, a bare `pull("…")` is a reference too. */
function importsHubPull(text: string, language: SourceLanguage): boolean {
  if (!text.includes('hub')) return false;
  return language === 'python'
    ? /\bfrom[ \t]+langchain(?:_classic)?\.hub[ \t]+import[^\n]*\bpull\b/.test(text)
    : /\bimport\s*\{[^}]*\bpull\b[^}]*\}\s*from\s*["']langchain\/hub(?:\/node)?["']/.test(text);
}

/** Every prompt reference in the text, in order. `limit` bounds the count (a hostile file cannot make thousands). */
export function findPromptReferences(text: string, language: SourceLanguage, limit = 2000): PromptReference[] {
  const out: PromptReference[] = [];
  if (typeof text !== 'string' || text.length === 0) return out;
  try {
    new Scanner(text, language, out, limit).run();
  } catch {
    // A scanner bug must never break the editor: what was found so far stands.
  }
  return out;
}

/** The reference whose quoted text holds the offset (its quotes' inner edges included), if any. */
export function referenceAt(refs: readonly PromptReference[], offset: number): PromptReference | undefined {
  for (const r of refs) if (offset >= r.valueStart && offset <= r.valueEnd) return r;
  return undefined;
}

class Scanner {
  private i = 0;
  /** JavaScript: whether a `/` here would start a regular expression. */
  private regexAllowed = true;
  /** JavaScript: brace depth, and the depths at which template substitutions `${` opened. */
  private depth = 0;
  private readonly templates: number[] = [];
  private readonly hubPull: boolean;

  constructor(
    private readonly text: string,
    private readonly language: SourceLanguage,
    private readonly out: PromptReference[],
    private readonly limit: number,
  ) {
    this.hubPull = importsHubPull(text, language);
  }

  run(): void {
    if (this.language === 'python') this.python();
    else this.javascript();
  }

  private javascript(): void {
    const t = this.text;
    const n = t.length;
    while (this.i < n && this.out.length < this.limit) {
      const c = t.charCodeAt(this.i);
      if (isSpace(c)) {
        this.i++;
      } else if (c === SLASH && t.charCodeAt(this.i + 1) === SLASH) {
        this.i = this.lineEnd(this.i);
      } else if (c === SLASH && t.charCodeAt(this.i + 1) === STAR) {
        const close = t.indexOf('*/', this.i + 2);
        this.i = close < 0 ? n : close + 2;
      } else if (c === SLASH && this.regexAllowed) {
        this.i = this.skipRegex(this.i);
        this.regexAllowed = false;
      } else if (c === SQ || c === DQ) {
        this.i = this.skipLine(this.i + 1, c);
        this.regexAllowed = false;
      } else if (c === BT) {
        this.i = this.templateEnd(this.i + 1);
        this.regexAllowed = false;
      } else if (isIdentStart(c)) {
        const start = this.i;
        let j = start + 1;
        while (j < n && isIdentPart(t.charCodeAt(j))) j++;
        this.i = j;
        // Words are only cut out of the text when they may matter (a keyword before a regex, a pull function).
        const length = j - start;
        this.regexAllowed = length >= 2 && length <= 10 && c >= 97 && c <= 121 && REGEX_AFTER.has(t.slice(start, j));
        if (mayBePull(c, length)) {
          const word = t.slice(start, j);
          if (PULLS.has(word) || word === 'pull') this.call(start, j, word);
        }
      } else if (c >= 48 && c <= 57) {
        let j = this.i + 1;
        while (j < n && (isIdentPart(t.charCodeAt(j)) || t.charCodeAt(j) === DOT)) j++;
        this.i = j;
        this.regexAllowed = false;
      } else if (c === OPEN_BRACE) {
        this.depth++;
        this.i++;
        this.regexAllowed = true;
      } else if (c === CLOSE_BRACE) {
        if (this.templates.length && this.templates[this.templates.length - 1] === this.depth) {
          // The end of a `${…}`: the template literal goes on.
          this.templates.pop();
          this.i = this.templateEnd(this.i + 1);
          this.regexAllowed = false;
        } else {
          this.depth = Math.max(0, this.depth - 1);
          this.i++;
          this.regexAllowed = true;
        }
      } else {
        this.i++;
        this.regexAllowed = !(c === CLOSE_PAREN || c === 93 /* ] */);
      }
    }
  }

  private python(): void {
    const t = this.text;
    const n = t.length;
    while (this.i < n && this.out.length < this.limit) {
      const c = t.charCodeAt(this.i);
      if (c === HASH) {
        this.i = this.lineEnd(this.i);
      } else if (c === SQ || c === DQ) {
        this.i = this.skipPyString(this.i);
      } else if (isIdentStart(c) && c !== DOLLAR) {
        const start = this.i;
        let j = start + 1;
        while (j < n && isIdentPart(t.charCodeAt(j))) j++;
        const q = t.charCodeAt(j);
        if ((q === SQ || q === DQ) && j - start <= 2 && PY_PREFIX.test(t.slice(start, j))) {
          this.i = this.skipPyString(j);
          continue;
        }
        this.i = j;
        if (mayBePull(c, j - start)) {
          const word = t.slice(start, j);
          if (PULLS.has(word) || word === 'pull') this.call(start, j, word);
        }
      } else if (c >= 48 && c <= 57) {
        let j = this.i + 1;
        while (j < n && isIdentPart(t.charCodeAt(j))) j++;
        this.i = j;
      } else {
        this.i++;
      }
    }
  }

  private lineEnd(from: number): number {
    const nl = this.text.indexOf('\n', from);
    return nl < 0 ? this.text.length : nl;
  }

  /**
   * The end of a one-line string whose opening quote is just before `from`: `next` is where scanning goes on,
   * `close` the closing quote's offset (-1 when the line or text ended first), `escaped` whether it holds a `\`.
   */
  private stringEnd(from: number, quote: number, multiline: boolean): { next: number; close: number; escaped: boolean } {
    const t = this.text;
    const n = t.length;
    let escaped = false;
    let j = from;
    while (j < n) {
      const c = t.charCodeAt(j);
      if (c === quote) return { next: j + 1, close: j, escaped };
      if (c === BACKSLASH) {
        escaped = true;
        j += 2;
        continue;
      }
      if ((c === NL || c === CR) && !multiline) return { next: j, close: -1, escaped };
      j++;
    }
    return { next: n, close: -1, escaped };
  }

  /** Where scanning goes on after a one-line string whose opening quote is just before `from`. */
  private skipLine(from: number, quote: number): number {
    const t = this.text;
    const n = t.length;
    for (let j = from; j < n; j++) {
      const c = t.charCodeAt(j);
      if (c === quote) return j + 1;
      if (c === BACKSLASH) j++;
      else if (c === NL || c === CR) return j;
    }
    return n;
  }

  /** Where scanning goes on after a Python string starting at its first quote. */
  private skipPyString(at: number): number {
    const t = this.text;
    const q = t.charCodeAt(at);
    return t.charCodeAt(at + 1) === q && t.charCodeAt(at + 2) === q ? this.pyStringEnd(at).next : this.skipLine(at + 1, q);
  }

  /** The end of a Python string starting at its first quote (one or three of them). */
  private pyStringEnd(at: number): { next: number; close: number; escaped: boolean; triple: boolean } {
    const t = this.text;
    const q = t.charCodeAt(at);
    if (t.charCodeAt(at + 1) === q && t.charCodeAt(at + 2) === q) {
      const quotes = q === SQ ? "'''" : '"""';
      let j = at + 3;
      let escaped = false;
      let close = t.indexOf(quotes, j);
      for (;;) {
        const slash = t.indexOf('\\', j);
        if (slash < 0 || (close >= 0 && slash > close)) break;
        // An escaped character: the string goes on after it (and a quote it escaped closes nothing).
        escaped = true;
        j = slash + 2;
        if (close >= 0 && close < j) close = t.indexOf(quotes, j);
        if (close < 0) break;
      }
      return close < 0 ? { next: t.length, close: -1, escaped, triple: true } : { next: close + 3, close, escaped, triple: true };
    }
    return { ...this.stringEnd(at + 1, q, false), triple: false };
  }

  /** The end of a template literal's text from `from` (just after a backtick or a substitution's `}`). */
  private templateEnd(from: number): number {
    const t = this.text;
    const n = t.length;
    let j = from;
    while (j < n) {
      const c = t.charCodeAt(j);
      if (c === BACKSLASH) {
        j += 2;
      } else if (c === BT) {
        return j + 1;
      } else if (c === DOLLAR && t.charCodeAt(j + 1) === OPEN_BRACE) {
        this.depth++;
        this.templates.push(this.depth);
        return j + 2;
      } else j++;
    }
    return n;
  }

  /** A regular expression literal from its `/`: to the closing `/` and its flags, or to the end of the line. */
  private skipRegex(at: number): number {
    const t = this.text;
    const n = t.length;
    let inClass = false;
    let j = at + 1;
    while (j < n) {
      const c = t.charCodeAt(j);
      if (c === NL || c === CR) return j;
      if (c === BACKSLASH) j += 2;
      else if (c === 91 /* [ */ || c === 93 /* ] */) {
        inClass = c === 91;
        j++;
      } else if (c === SLASH && !inClass) {
        j++;
        while (j < n && isIdentPart(t.charCodeAt(j))) j++;
        return j;
      } else j++;
    }
    return n;
  }

  private skipSpace(from: number): number {
    const t = this.text;
    let j = from;
    for (;;) {
      while (j < t.length && isSpace(t.charCodeAt(j))) j++;
      // Comments between the parenthesis and the literal (`pullPrompt(/* the summarizer */ "…")`).
      if (this.language === 'javascript' && t.charCodeAt(j) === SLASH && t.charCodeAt(j + 1) === STAR) {
        const close = t.indexOf('*/', j + 2);
        if (close < 0) return t.length;
        j = close + 2;
      } else if (this.language === 'python' && t.charCodeAt(j) === HASH) {
        j = this.lineEnd(j);
      } else return j;
    }
  }

  /** The identifier that ends just before `end` (skipping spaces backwards), or ''. */
  private wordBefore(end: number): { word: string; start: number } {
    const t = this.text;
    let j = end;
    while (j > 0 && isSpace(t.charCodeAt(j - 1))) j--;
    const stop = j;
    while (j > 0 && isIdentPart(t.charCodeAt(j - 1))) j--;
    return { word: t.slice(j, stop), start: j };
  }

  /** After a pull function's name at [start, end): its first argument, when that is a plain string literal. */
  private call(start: number, end: number, word: string): void {
    const t = this.text;
    // What the function is called on: `client.pullPrompt`, `hub.pull`, or nothing.
    let qualifier = '';
    let b = start;
    while (b > 0 && isSpace(t.charCodeAt(b - 1))) b--;
    if (t.charCodeAt(b - 1) === DOT) {
      if (t.charCodeAt(b - 2) === DOT) return; // `...pullPrompt` (a spread) is no call on an object
      qualifier = this.wordBefore(b - 1).word;
      if (t.charCodeAt(b - 2) === 63 /* ?. */) qualifier = this.wordBefore(b - 2).word;
    } else if (this.language === 'python' && this.wordBefore(start).word === 'def') return;
    else if (this.language === 'javascript' && ['function', 'async'].includes(this.wordBefore(start).word)) return;
    if (word === 'pull' && !(qualifier === 'hub' || (!qualifier && this.hubPull && t.charCodeAt(b - 1) !== DOT))) return;
    const callee = qualifier ? `${qualifier}.${word}` : word;

    let j = this.skipSpace(end);
    if (this.language === 'javascript' && t.charCodeAt(j) === LT) {
      // TypeScript type arguments: `pullPrompt<ChatPromptTemplate>("…")`.
      let level = 0;
      const stop = Math.min(t.length, j + 300);
      for (; j < stop; j++) {
        const c = t.charCodeAt(j);
        if (c === LT) level++;
        else if (c === GT && --level === 0) break;
        else if (c === OPEN_PAREN || c === CLOSE_PAREN || c === 59 /* ; */) return;
      }
      if (level !== 0) return;
      j = this.skipSpace(j + 1);
    }
    if (t.charCodeAt(j) !== OPEN_PAREN) return;
    j = this.skipSpace(j + 1);
    if (this.language === 'python' && isIdentStart(t.charCodeAt(j))) {
      // A keyword argument, or a u-prefixed string.
      let k = j;
      while (k < t.length && isIdentPart(t.charCodeAt(k))) k++;
      const name = t.slice(j, k);
      const after = this.skipSpace(k);
      if (KEYWORDS.has(name) && t.charCodeAt(after) === EQUALS && t.charCodeAt(after + 1) !== EQUALS) j = this.skipSpace(after + 1);
      else if (!((name === 'u' || name === 'U') && (t.charCodeAt(k) === SQ || t.charCodeAt(k) === DQ))) return;
    }
    this.literal(callee, j);
  }

  /** Records the string literal at `at` when it is plain: no escapes, interpolation, raw/bytes/f prefix. */
  private literal(callee: string, at: number): void {
    const t = this.text;
    let q = t.charCodeAt(at);
    let open = at;
    if (this.language === 'python' && (q === 117 || q === 85) /* u U */) {
      open = at + 1;
      q = t.charCodeAt(open);
    }
    let valueStart: number;
    let close: number;
    let next: number;
    if (q === SQ || q === DQ) {
      if (this.language === 'python') {
        const s = this.pyStringEnd(open);
        if (s.escaped) return;
        valueStart = open + (s.triple ? 3 : 1);
        ({ close, next } = s);
      } else {
        const s = this.stringEnd(open + 1, q, false);
        if (s.escaped) return;
        valueStart = open + 1;
        ({ close, next } = s);
      }
    } else if (q === BT && this.language === 'javascript') {
      // A template without substitutions; the main loop scans it again, so this read must not change state.
      valueStart = open + 1;
      close = -1;
      next = t.length;
      for (let j = valueStart; j < t.length; j++) {
        const c = t.charCodeAt(j);
        if (c === BACKSLASH || (c === DOLLAR && t.charCodeAt(j + 1) === OPEN_BRACE)) return;
        if (c === BT) {
          close = j;
          next = j + 1;
          break;
        }
        if (c === NL || c === CR) {
          next = j;
          break;
        }
      }
    } else return;
    const closed = close >= 0;
    const valueEnd = closed ? close : next;
    if (closed) {
      // The literal is the whole argument: a comma or the closing parenthesis follows (not `"a" + b`).
      const after = this.skipSpace(next);
      const c = t.charCodeAt(after);
      if (after < t.length && c !== COMMA && c !== CLOSE_PAREN) return;
    } else {
      // Being typed: nothing but spaces up to the end of the line.
      let k = next;
      while (k < t.length && isLineSpace(t.charCodeAt(k))) k++;
      if (k < t.length && t.charCodeAt(k) !== NL && t.charCodeAt(k) !== CR) return;
    }
    const value = t.slice(valueStart, valueEnd);
    const parts = parsePromptIdentifier(value);
    this.out.push({ callee, start: at, end: closed ? next : valueEnd, valueStart, valueEnd, value, closed, ...(parts ? { parts } : {}) });
  }
}
