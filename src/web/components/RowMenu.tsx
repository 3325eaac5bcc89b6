// A row's "⋯" menu: a few actions on one table row, closed by a click elsewhere, Escape, scrolling
// or resizing. The menu is placed `fixed` under its button, so a table that scrolls sideways
// (`.table-wrap`) does not clip it.
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';

export type RowMenuItem = { label: string; onSelect: () => void; testId?: string; hint?: ReactNode };

export function RowMenu({ label, items, testId }: { label: string; items: RowMenuItem[]; testId?: string }) {
  const [place, setPlace] = useState<CSSProperties>();
  const anchor = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const open = place !== undefined;

  useEffect(() => {
    if (!open) return;
    const close = () => setPlace(undefined);
    const onDown = (event: MouseEvent) => {
      if (!anchor.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    window.addEventListener('resize', close);
    window.addEventListener('scroll', close, true);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', close);
      window.removeEventListener('scroll', close, true);
    };
  }, [open]);

  const toggle = () => {
    const rect = button.current?.getBoundingClientRect();
    if (open || !rect) {
      setPlace(undefined);
      return;
    }
    setPlace({ position: 'fixed', top: rect.bottom + 4, right: Math.max(8, window.innerWidth - rect.right) });
  };

  return (
    // The row opens on click: clicks inside the menu stay here.
    <div className="row-menu" ref={anchor} onClick={(event) => event.stopPropagation()}>
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={toggle}
        data-testid={testId}
      >
        ⋯
      </button>
      {open ? (
        <div className="menu menu-compact" role="menu" style={place}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              onClick={() => {
                setPlace(undefined);
                item.onSelect();
              }}
              data-testid={item.testId}
            >
              <strong>{item.label}</strong>
              {item.hint ? <span>{item.hint}</span> : null}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
