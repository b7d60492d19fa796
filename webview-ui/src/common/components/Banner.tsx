import type { ReactNode } from 'react';

/** A message across the top of a panel; errors and warnings are announced to screen readers. */
export function Banner({ children, tone = 'info', ...rest }: { children: ReactNode; tone?: 'info' | 'warning' | 'error'; 'data-testid'?: string }) {
  return (
    <div className={`lsw-banner lsw-banner-${tone}`} role={tone === 'info' ? 'status' : 'alert'} {...rest}>
      {children}
    </div>
  );
}
