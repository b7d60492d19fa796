// The frame every webview app stands on: it asks the host for the app's state on every load (ready), keeps what
// must survive a reload in the webview's own state, and gives components hooks instead of the rpc module.
//
//   mountApp(MyReady, App)                      in the app's main.tsx
//   const [state, setState] = useAppState<S>()  the host's snapshot (server data), refreshed on every load
//   const save = useRequest(Save)               save.run(params) → Result; one request in flight, cancelled on unmount
//   useNotification(Changed, handler)               notifyHost(Selected, params)
//   const [draft, setDraft] = useDraft('name', initial)   survives reloads and hidden tabs
import { Component, createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type * as z from 'zod/mini';
import { ConnectionNotice, type ConnectionState, type NotificationType, type ReadyType, type RequestType, type Schema } from '../../../src/protocol/messages';
import { Banner, Button, ProgressRing } from './components';
import { notify, onNotification, request, startRpc, type RequestOptions, type Result } from './rpc';
import { vscodeApi } from './vscode';

/** What the frame keeps in the webview's state: how the host reopens the panel, and the app's drafts. */
interface SavedState {
  restore?: unknown;
  drafts?: Record<string, unknown>;
}

function saved(): SavedState {
  const s = vscodeApi<SavedState>().getState();
  return typeof s === 'object' && s !== null ? s : {};
}

function save(patch: SavedState): void {
  vscodeApi<SavedState>().setState({ ...saved(), ...patch });
}

interface FrameValue {
  state: unknown;
  setState(update: (prev: unknown) => unknown): void;
  connection: ConnectionState;
  /** Asks the host for the whole state again. */
  reload(): Promise<void>;
}

const FrameContext = createContext<FrameValue | undefined>(undefined);

function useFrame(): FrameValue {
  const frame = useContext(FrameContext);
  if (!frame) throw new Error('Use the webview hooks inside mountApp().');
  return frame;
}

export function mountApp<S extends Schema>(ready: ReadyType<S>, App: () => ReactNode): void {
  startRpc();
  createRoot(document.getElementById('root')!).render(
    <ErrorBoundary>
      <Frame ready={ready}>
        <App />
      </Frame>
    </ErrorBoundary>,
  );
}

function Frame<S extends Schema>({ ready, children }: { ready: ReadyType<S>; children: ReactNode }) {
  const [loaded, setLoaded] = useState<{ state: unknown; connection: ConnectionState }>();
  const [error, setError] = useState<string>();
  const load = useCallback(async () => {
    setError(undefined);
    const result = await request(ready, {});
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    const { restore, connection, state } = result.value as { restore: unknown; connection: ConnectionState; state: unknown };
    save({ restore });
    setLoaded({ state, connection });
  }, [ready]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => onNotification(ConnectionNotice, (connection) => setLoaded((prev) => prev && { ...prev, connection })), []);

  if (error !== undefined) {
    return (
      <main className="lsw-frame-message">
        <Banner tone="error">{error}</Banner>
        <Button onClick={() => void load()}>Retry</Button>
      </main>
    );
  }
  if (!loaded) {
    return (
      <main className="lsw-frame-message" aria-busy="true">
        <ProgressRing />
      </main>
    );
  }
  const value: FrameValue = {
    state: loaded.state,
    connection: loaded.connection,
    setState: (update) => setLoaded((prev) => prev && { ...prev, state: update(prev.state) }),
    reload: load,
  };
  return (
    <FrameContext.Provider value={value}>
      {!loaded.connection.signedIn && <Banner tone="warning">Signed out of LangSmith: sign in again to load or save. What you typed here is kept.</Banner>}
      {children}
    </FrameContext.Provider>
  );
}

/** The app's state from the host, and a way to update it locally (after a save answered with the new state). */
export function useAppState<S>(): [S, (update: (prev: S) => S) => void, () => Promise<void>] {
  const frame = useFrame();
  return [frame.state as S, frame.setState as (update: (prev: S) => S) => void, frame.reload];
}

export function useConnection(): ConnectionState {
  return useFrame().connection;
}

/**
 * One kind of request from a component. `run` cancels the previous one still in flight (one slot per hook, as
 * a search box or a paging list wants); unmounting cancels too.
 */
export function useRequest<P extends Schema, R extends Schema>(type: RequestType<P, R>) {
  const controller = useRef<AbortController>();
  const [pending, setPending] = useState(false);
  useEffect(() => () => controller.current?.abort(), []);
  const run = useCallback(
    async (params: z.infer<P>, options: Omit<RequestOptions, 'signal'> = {}): Promise<Result<z.infer<R>>> => {
      controller.current?.abort();
      const mine = new AbortController();
      controller.current = mine;
      setPending(true);
      try {
        return await request(type, params, { ...options, signal: mine.signal });
      } finally {
        if (controller.current === mine) setPending(false);
      }
    },
    [type],
  );
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { run, pending, cancel };
}

/** Tells the host something that needs no answer (a draft became dirty, a row was selected). */
export function notifyHost<P extends Schema>(type: NotificationType<P>, params: z.infer<P>): void {
  notify(type, params);
}

export function useNotification<P extends Schema>(type: NotificationType<P>, handler: (params: z.infer<P>) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => onNotification(type, (params) => latest.current(params)), [type]);
}

/**
 * A value the user is writing: kept in the webview's state on every change, so it survives the tab being hidden,
 * moved or the window reloaded. `clear` forgets it (after a save or a discard).
 */
export function useDraft<T>(name: string, initial: T | (() => T)): [T, (value: T) => void, () => void] {
  const [value, setValue] = useState<T>(() => {
    const stored = saved().drafts?.[name];
    return stored !== undefined ? (stored as T) : typeof initial === 'function' ? (initial as () => T)() : initial;
  });
  const set = useCallback(
    (next: T) => {
      setValue(next);
      save({ drafts: { ...saved().drafts, [name]: next } });
    },
    [name],
  );
  const clear = useCallback(() => {
    const drafts = { ...saved().drafts };
    delete drafts[name];
    save({ drafts });
  }, [name]);
  return [value, set, clear];
}

/** Whether a draft of this name is stored (for "you have unsaved changes" on load). */
export function hasDraft(name: string): boolean {
  return saved().drafts?.[name] !== undefined;
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="lsw-frame-message">
        <Banner tone="error">This panel stopped working: {this.state.error.message}. Close it and open it again; what you typed is kept.</Banner>
      </main>
    );
  }
}
