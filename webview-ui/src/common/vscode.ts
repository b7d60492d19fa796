// The only place that touches acquireVsCodeApi. Tests in a plain browser page can install a fake
// `window.acquireVsCodeApi` before the app loads.
export interface VsCodeApi<State> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare global {
  interface Window {
    acquireVsCodeApi?: <S>() => VsCodeApi<S>;
  }
}

let api: VsCodeApi<unknown> | undefined;

export function vscodeApi<State>(): VsCodeApi<State> {
  if (!api) {
    if (typeof window.acquireVsCodeApi !== 'function') throw new Error('Not running inside a VS Code webview.');
    api = window.acquireVsCodeApi<unknown>();
  }
  return api as VsCodeApi<State>;
}
