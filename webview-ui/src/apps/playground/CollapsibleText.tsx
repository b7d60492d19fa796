import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { TextButton } from '../../common/components';

/**
 * A block of text (a template, an answer) kept to a few lines until the user asks for all of it. The text is
 * rendered as text, wrapping where it must; whether it is cut is measured, not guessed.
 */
export function CollapsibleText({
  children,
  lines,
  className,
  label,
  ...rest
}: {
  children: ReactNode;
  /** Lines shown while collapsed: 2, 3 or 6 (the stylesheet's clamps). */
  lines: 2 | 3 | 6;
  className?: string;
  /** What is shown, for the button's name ("Show all of the system message"). */
  label: string;
  'data-testid'?: string;
}) {
  const id = useId();
  const ref = useRef<HTMLPreElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [cut, setCut] = useState(false);

  useEffect(() => {
    const el = ref.current;
    if (!el || expanded) return;
    let frame = 0;
    // Measured a frame later, so a resize never changes layout inside its own observer callback.
    const measure = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setCut(el.scrollHeight > el.clientHeight + 1));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [children, expanded]);

  return (
    <div className="pg-collapsible">
      <pre ref={ref} id={id} className={`pg-text ${className ?? ''} ${expanded ? '' : `pg-clamp-${lines}`} ${cut && !expanded ? 'pg-cut' : ''}`} data-testid={rest['data-testid']}>
        {children}
      </pre>
      {(cut || expanded) && (
        <TextButton className="pg-more" aria-expanded={expanded} aria-controls={id} aria-label={`${expanded ? 'Show less' : 'Show all'} of ${label}`} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Show less' : 'Show all'}
        </TextButton>
      )}
    </div>
  );
}
