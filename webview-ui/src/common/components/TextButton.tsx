import type { ButtonHTMLAttributes } from 'react';
import './controls.css';

/**
 * A compact, link-like button for actions inside rows and lines of text (a native button: cheap enough to render
 * in every row of a long list, unlike the toolkit's).
 */
export function TextButton({ className, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { 'data-testid'?: string }) {
  return <button type="button" className={className ? `lsw-text-button ${className}` : 'lsw-text-button'} {...rest} />;
}
