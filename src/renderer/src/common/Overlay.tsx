/** A dialog over the grid: labelled, closes on Escape or a click outside, keeps focus inside while open. */
import { useEffect, useRef, type ReactNode } from 'react';
import { useUi } from '../app/store';

export function OverlayDialog({
  label,
  testId,
  className,
  children,
}: {
  label: string;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    if (!ref.current?.contains(document.activeElement)) ref.current?.querySelector<HTMLElement>('[data-autofocus], input, button')?.focus();
    return () => previous?.focus?.();
  }, []);
  const close = () => useUi.getState().setOverlay(undefined);
  return (
    <div className="overlay-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        className={`overlay ${className ?? ''}`}
        data-testid={testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}
