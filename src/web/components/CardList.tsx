// A page's list of cards (API keys, connected apps): the refusal to read it, Loading, an empty
// state, or one card per item.
import type { ReactNode } from 'react';
import { ErrorMessage } from './Dialog';
import { Loading } from './ListParts';

type Props<Item> = {
  items: Item[] | undefined;
  loadError: string | undefined;
  empty: ReactNode;
  emptyTestId: string;
  testId: string;
  children: (item: Item) => ReactNode;
};

export function CardList<Item>({ items, loadError, empty, emptyTestId, testId, children }: Props<Item>) {
  return (
    <>
      <ErrorMessage message={loadError} />
      {items === undefined ? (
        <Loading failed={Boolean(loadError)} />
      ) : items.length === 0 ? (
        <div className="empty" data-testid={emptyTestId}>
          {empty}
        </div>
      ) : (
        <ul className="cards" data-testid={testId}>
          {items.map(children)}
        </ul>
      )}
    </>
  );
}
