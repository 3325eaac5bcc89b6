import { hiddenCharacterIn } from './hidden-characters';

describe('hidden characters in text shown to people', () => {
  it('finds none in text in any script, with emoji and ordinary punctuation', () => {
    for (const text of ['Claude', 'Assistant für Büro — 日本語 🤖', 'O’Brien & Co. (beta)', 'مساعد', 'a b']) {
      expect(hiddenCharacterIn(text)).toBeUndefined();
    }
  });

  it.each([
    ['zero-width space', '\u200B'],
    ['zero-width non-joiner', '\u200C'],
    ['zero-width joiner', '\u200D'],
    ['left-to-right mark', '\u200E'],
    ['right-to-left mark', '\u200F'],
    ['left-to-right embedding', '\u202A'],
    ['right-to-left override', '\u202E'],
    ['word joiner', '\u2060'],
    ['invisible plus', '\u2064'],
    ['left-to-right isolate', '\u2066'],
    ['pop directional isolate', '\u2069'],
    ['Arabic letter mark', '\u061C'],
    ['soft hyphen', '\u00AD'],
    ['byte order mark', '\uFEFF'],
    ['Mongolian vowel separator', '\u180E'],
    ['a tag character', '\u{E0041}'],
    ['Hangul filler', '\u3164'],
    ['halfwidth Hangul filler', '\uFFA0'],
    ['NUL', '\u0000'],
    ['line feed', '\n'],
    ['DEL', '\u007F'],
    ['a C1 control', '\u0085'],
    ['line separator', '\u2028'],
    ['paragraph separator', '\u2029'],
  ])('finds a %s wherever it is, and names it', (_what, character) => {
    const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    expect(hiddenCharacterIn(`${character}Claude`)).toBe(code);
    expect(hiddenCharacterIn(`Cla${character}ude`)).toBe(code);
    expect(hiddenCharacterIn(`Claude${character}`)).toBe(code);
  });

  it('names the first of several', () => {
    expect(hiddenCharacterIn('a\u00ADb\u200Bc')).toBe('U+00AD');
  });
});
