import type { ReactNode } from 'react';
import type { PromptPreview } from '../../../../src/protocol/playground';
import { CollapsibleText } from './CollapsibleText';

const FSTRING = /\{\{|\}\}|\{([^{}]*)\}/g;
const MUSTACHE = /\{\{\{?\s*[#^/&]?\s*([^{}]*?)\s*\}?\}\}/g;

/** The template as written, its variables marked (pieces of text, never HTML). */
function marked(template: string, format: PromptPreview['templateFormat'], variables: readonly string[]): ReactNode[] {
  const out: ReactNode[] = [];
  const re = new RegExp(format === 'mustache' ? MUSTACHE : FSTRING);
  let at = 0;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    // A mustache tag is the whole name; an f-string field stops at its conversion or format spec.
    const name = (format === 'mustache' ? m[1] : m[1]?.split(/[:!]/)[0])?.trim();
    if (name === undefined || !variables.includes(name)) continue;
    if (m.index > at) out.push(template.slice(at, m.index));
    out.push(
      <span key={m.index} className="pg-var">
        {m[0]}
      </span>,
    );
    at = m.index + m[0].length;
  }
  if (at < template.length) out.push(template.slice(at));
  return out;
}

export function PromptView({ prompt }: { prompt: PromptPreview }) {
  return (
    <ol className="pg-messages" aria-label="Prompt messages">
      {prompt.messages.map((m, i) => (
        <li key={i} className="pg-message" data-testid="message">
          <div className="pg-role" data-testid="message-role">
            <bdi>{m.role}</bdi>
          </div>
          <CollapsibleText lines={6} className="pg-template" label={`the ${m.role} message`} data-testid="message-template">
            {m.template ? marked(m.template, prompt.templateFormat, prompt.variables) : <span className="lsw-muted">(empty)</span>}
          </CollapsibleText>
        </li>
      ))}
    </ol>
  );
}
