// The playground's head: which prompt runs (a file or a commit), and what kind of prompt it is.
import type { PlaygroundState } from '../../../../src/protocol/playground';
import { Badge, TextButton } from '../../common/components';
import { plural } from './model';

export function Header({ state, onOpenFile }: { state: PlaygroundState; onOpenFile: () => void }) {
  const { prompt } = state;
  return (
    <header className="pg-header">
      <div className="pg-title-row">
        <h2 className="pg-title" data-testid="title">
          <bdi>{state.title}</bdi>
        </h2>
        <Badge data-testid="source">{state.source}</Badge>
        {state.source === 'file' && (
          <TextButton onClick={onOpenFile} data-testid="open-file">
            Open file
          </TextButton>
        )}
      </div>
      {prompt && (
        <p className="lsw-muted pg-summary" data-testid="summary">
          {prompt.kind === 'chat' ? 'Chat' : 'String'} prompt · {prompt.templateFormat} · {plural(prompt.variables.length, 'variable')}
        </p>
      )}
    </header>
  );
}
