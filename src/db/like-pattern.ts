/** Escapes `\`, `%` and `_` for a LIKE/ILIKE pattern written with `ESCAPE '\'`. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** A case-insensitive "contains" pattern for ILIKE … ESCAPE '\'. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
