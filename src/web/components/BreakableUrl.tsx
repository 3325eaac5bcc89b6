// A URL that wraps between its parts (after a slash, before a dot, …) instead of mid-word; a part
// longer than the line still breaks (the `.break` style), so a long URL never widens its column.
import { Fragment } from 'react';
import { urlParts } from '../url-parts';

export function BreakableUrl({ url }: { url: string }) {
  return (
    <>
      {urlParts(url).map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
