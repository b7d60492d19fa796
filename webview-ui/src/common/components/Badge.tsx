import type { ReactNode } from 'react';

export function Badge({ children, tone = 'neutral', ...rest }: { children: ReactNode; tone?: 'neutral' | 'ok' | 'warning'; 'data-testid'?: string }) {
  return (
    <span className={`lsw-badge lsw-badge-${tone}`} {...rest}>
      {children}
    </span>
  );
}
