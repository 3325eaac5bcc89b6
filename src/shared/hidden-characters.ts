// Characters that do not show (issue 34, item 7): the one rule for text shown to someone who must
// be able to trust what they read, such as an OAuth client's name on the consent page.

/**
 * Characters a reader cannot see, or that change how the text around them shows:
 * - controls (Cc), line and paragraph separators (Zl, Zp);
 * - every format character (Cf): zero-width space, joiners and non-joiners (U+200B..U+200D), the
 *   direction marks, embeddings, overrides and isolates (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069,
 *   U+061C), word joiner and invisible operators (U+2060..U+2064), soft hyphen (U+00AD), the byte
 *   order mark (U+FEFF), the tag characters (U+E0001, U+E0020..U+E007F) and the like;
 * - the Hangul fillers, letters that draw nothing (U+115F, U+1160, U+3164, U+FFA0).
 * "Claude\u200B" and "Claude" look the same; "Claude \u202Eia.edualc" shows another name.
 * Joiners go too, so an emoji sequence joined by U+200D (👩‍💻) is refused: a name is a claim, not art.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;

/** The first hidden character of `text`, written as `U+200B`, or undefined when every one shows. */
export function hiddenCharacterIn(text: string): string | undefined {
  const found = HIDDEN.exec(text)?.[0];
  if (found === undefined) return undefined;
  return `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
