// A row's "⋯" menu: a few actions on one table row, closed by a click elsewhere, Escape, scrolling
// or resizing. The menu is placed `fixed` by its button, so a table that scrolls sideways
// (`.table-wrap`) does not clip it: under the button, or above it when it does not fit below (the
// last rows of a page). The keyboard works as in a WAI-ARIA menu button: focus moves to the first
// item on open, the arrow keys, Home and End move between items, and Escape, Tab or choosing an
// item gives focus back to the button.
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';

export type RowMenuItem = { label: string; onSelect: () => void; testId?: string; hint?: ReactNode };

/** Between the button and its menu, and the least room kept to the window's edge. */
const GAP_PX = 4;
const EDGE_PX = 8;

export function RowMenu({ label, items, testId }: { label: string; items: RowMenuItem[]; testId?: string }) {
  const [anchor, setAnchor] = useState<DOMRect>();
  const [upward, setUpward] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const open = anchor !== undefined;

  const close = (returnFocus: boolean) => {
    setAnchor(undefined);
    if (returnFocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    // Focus goes back to the button only when it was in the menu (not after a click elsewhere).
    const focusWasInMenu = () => Boolean(menu.current?.contains(document.activeElement));
    const onDown = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setAnchor(undefined);
    };
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    const onMove = () => close(focusWasInMenu());
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    window.addEventListener('resize', onMove);
    window.addEventListener('scroll', onMove, true);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', onMove);
      window.removeEventListener('scroll', onMove, true);
    };
  }, [open]);

  // Measured once rendered, before it is painted: upward when it does not fit below and more room is above.
  useLayoutEffect(() => {
    if (!anchor || !menu.current) return;
    const height = menu.current.offsetHeight;
    const below = window.innerHeight - anchor.bottom - GAP_PX - EDGE_PX;
    const above = anchor.top - GAP_PX - EDGE_PX;
    setUpward(height > below && above > below);
    menu.current.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [anchor]);

  const openMenu = () => {
    const rect = button.current?.getBoundingClientRect();
    if (!rect) return;
    setUpward(false);
    setAnchor(rect);
  };

  const moveFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    const entries = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const current = entries.indexOf(document.activeElement as HTMLElement);
    const last = entries.length - 1;
    const next = new Map([
      ['ArrowDown', current >= last ? 0 : current + 1],
      ['ArrowUp', current <= 0 ? last : current - 1],
      ['Home', 0],
      ['End', last],
    ]).get(event.key);
    if (next !== undefined) {
      event.preventDefault();
      entries[next]?.focus();
    } else if (event.key === 'Tab') {
      // Tab leaves the menu from its button, to whatever follows it.
      close(true);
    }
  };

  const place: CSSProperties | undefined = anchor && {
    position: 'fixed',
    right: Math.max(EDGE_PX, window.innerWidth - anchor.right),
    ...(upward
      ? { top: 'auto', bottom: window.innerHeight - anchor.top + GAP_PX }
      : { top: anchor.bottom + GAP_PX }),
  };

  return (
    // The row opens on click: clicks inside the menu stay here.
    <div className="row-menu" ref={root} onClick={(event) => event.stopPropagation()}>
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => (open ? close(false) : openMenu())}
        onKeyDown={(event) => {
          if (!open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
            event.preventDefault();
            openMenu();
          }
        }}
        data-testid={testId}
      >
        ⋯
      </button>
      {open ? (
        <div
          ref={menu}
          className="menu menu-compact"
          role="menu"
          aria-label={label}
          style={place}
          data-placement={upward ? 'above' : 'below'}
          onKeyDown={moveFocus}
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                // Focus is back on the button first, so a dialog the item opens returns it there.
                close(true);
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
