/**
 * The parts of a URL with a line break allowed between them: after / ? & # = and before a dot,
 * never inside "://". Lists wrap long URLs there rather than mid-word.
 */
export function urlParts(url: string): string[] {
  return url.split(/(?<=[/?&#=])(?!\/)|(?=\.)/).filter((part) => part !== '');
}
