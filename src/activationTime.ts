// What activation itself costs, for its line in the log: the time to load extension.js (as the host recorded
// it, else from this module's first line to extension.ts's top level) and activate's first part. The host's own
// "Activation" figure can be larger: it starts its clock before it loads the other extensions activated in the
// same batch, and those load first.

/** When extension.js began running: this module is its first import. */
export const codeStarted = performance.now();

interface Mark {
  name: string;
  startTime: number;
}

/** The host's record of loading this extension's code (VS Code's performance marks), when it keeps one. */
export function hostCodeLoadMs(extensionId: string): number | undefined {
  const marks = (globalThis as { MonacoPerformanceMarks?: { getMarks?: () => unknown } }).MonacoPerformanceMarks?.getMarks?.();
  if (!Array.isArray(marks)) return undefined;
  const at = (what: string) => (marks as Mark[]).find((m) => m?.name === `code/extHost/${what}/${extensionId}`)?.startTime;
  const will = at('willLoadExtensionCode');
  const did = at('didLoadExtensionCode');
  return typeof will === 'number' && typeof did === 'number' && did >= will ? did - will : undefined;
}

/** The log line: "Activated in 7.2 ms (code loaded in 6.2 ms, first part 1.0 ms); views and commands 120 ms later." */
export function activationLine(codeMs: number, firstPartMs: number, restMs: number): string {
  const ms = (n: number) => (n < 100 ? n.toFixed(1) : n.toFixed(0));
  return `Activated in ${ms(codeMs + firstPartMs)} ms (code loaded in ${ms(codeMs)} ms, first part ${ms(firstPartMs)} ms); views and commands ${ms(restMs)} ms later.`;
}
