// A page's list of cards (API keys, connected apps): the refusal to read it, Loading, an empty
// state, or one card per item; and a card's facts.
import { Fragment, type ReactNode } from 'react';
import { ErrorMessage } from './Dialog';
import { Loading } from './ListParts';

type Props<Item> = {
  /** The items as useLoaded (hooks/useLoaded.ts) reads them: undefined until read, and its refusal. */
  list: { value: Item[] | undefined; error: string | undefined };
  /** What the page says when there is no item, and its test id. */
  empty: { text: ReactNode; testId: string };
  testId: string;
  children: (item: Item) => ReactNode;
};

export function CardList<Item>({ list: { value: items, error }, empty, testId, children }: Props<Item>) {
  return (
    <>
      <ErrorMessage message={error} />
      {items === undefined ? (
        <Loading failed={Boolean(error)} />
      ) : items.length === 0 ? (
        <div className="empty" data-testid={empty.testId}>
          {empty.text}
        </div>
      ) : (
        <ul className="cards" data-testid={testId}>
          {items.map(children)}
        </ul>
      )}
    </>
  );
}

/** A fact of a card: its term, its value, and the test id of the value where a test reads it. */
export type Fact = [term: string, value: ReactNode, testId?: string];

/** A card's facts, each term over its value. */
export function Facts({ facts }: { facts: readonly Fact[] }) {
  return (
    <dl className="facts">
      {facts.map(([term, value, testId]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd data-testid={testId}>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
