import type { ReactNode } from 'react';
import './controls.css';

/** A button that stays pressed or not (aria-pressed): filters and view options. */
export function ToggleButton({
  pressed,
  onToggle,
  children,
  ...rest
}: {
  pressed: boolean;
  onToggle: (next: boolean) => void;
  children: ReactNode;
  title?: string;
  'data-testid'?: string;
}) {
  return (
    <button type="button" className="lsw-toggle" aria-pressed={pressed} onClick={() => onToggle(!pressed)} {...rest}>
      {children}
    </button>
  );
}
