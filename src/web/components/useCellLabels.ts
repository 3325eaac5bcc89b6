import { useEffect, type RefObject } from 'react';

/**
 * Gives each body cell of a table its column's heading as `data-label`, so that on a narrow screen,
 * where the table shows as cards (`.table-cards` in styles.css), each value says what it is. Kept
 * up to date as rows and headings change (paging, another view). An empty heading (the actions
 * column) gives no label.
 */
export function useCellLabels(table: RefObject<HTMLTableElement | null>): void {
  useEffect(() => {
    const element = table.current;
    if (!element) return;
    const label = () => {
      const headings = Array.from(
        element.tHead?.rows[0]?.cells ?? [],
        (cell) => cell.textContent?.trim() ?? '',
      );
      for (const body of Array.from(element.tBodies))
        for (const row of Array.from(body.rows))
          Array.from(row.cells).forEach((cell, index) => {
            const heading = cell.colSpan > 1 ? '' : (headings[index] ?? '');
            if (cell.dataset.label !== heading) cell.dataset.label = heading;
          });
    };
    label();
    // Setting attributes is no change of children or text: the observer does not wake itself.
    const observer = new MutationObserver(label);
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [table]);
}
