// Tooltips and hovers as untrusted markdown.
import * as vscode from 'vscode';

/** Markdown with the given lines (no HTML, no command links); server text in them is escaped by the caller. */
export function markdownLines(lines: (string | undefined)[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.supportHtml = false;
  md.isTrusted = false;
  md.appendMarkdown(lines.filter((l): l is string => l !== undefined).join('\n\n'));
  return md;
}
