import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EMOJI_NAMES_PATH,
  emojiNamesJson,
  parseUnicodeEmojis,
} from '../../scripts/emoji-names.mjs';

/** A source in the layout of zulip-terminal's unicode_emojis.py, with the cases the reader meets. */
const SOURCE = `"""
Unicode emoji data
"""
# fmt: off

EMOJI_DATA = {
    "+1": {'code': '1f44d', 'aliases': ['thumbs_up', 'like']},
    "big_smile": {'code': '1f604', 'aliases': []},

    "coconut": {'code': '1f965', 'aliases': ['piña_colada', 'pina_colada']},
    "eye_in_speech_bubble": {'code': '1f441-fe0f-200d-1f5e8-fe0f', 'aliases': ['witness']},
    "smile": {'code': '1f642', 'aliases': []},
}
# fmt: on
`;

describe('scripts/emoji-names.mjs', () => {
  it("reads the reference's names, canonical first, with codes unqualified", () => {
    expect(parseUnicodeEmojis(SOURCE)).toEqual([
      ['1f44d', '+1', 'thumbs_up', 'like'],
      ['1f604', 'big_smile'],
      ['1f965', 'coconut', 'piña_colada', 'pina_colada'],
      ['1f441-200d-1f5e8', 'eye_in_speech_bubble', 'witness'],
      ['1f642', 'smile'],
    ]);
  });

  it('refuses a source it cannot read whole', () => {
    expect(() => parseUnicodeEmojis('EMOJI = {}')).toThrow(/EMOJI_DATA/);
    const odd = SOURCE.replace("'aliases': []},\n\n", "'aliases': []},\n    oops\n");
    expect(() => parseUnicodeEmojis(odd)).toThrow(/line 9 is not an emoji entry: +oops/);
    const twice = SOURCE.replace("'aliases': ['witness']", "'aliases': ['like']");
    expect(() => parseUnicodeEmojis(twice)).toThrow(/name like appears twice/);
    expect(() => parseUnicodeEmojis(SOURCE.replace('}\n# fmt: on', ''))).toThrow(/not closed/);
  });

  it('writes one emoji a line, a long one a name a line, as prettier lays JSON out', () => {
    const long = ['1f600', 'grinning', ...Array.from({ length: 12 }, (_, i) => `alias_${i}`)];
    const json = emojiNamesJson([['1f44d', '+1', 'thumbs_up', 'like'], long]);
    expect(json.split('\n').slice(0, 3)).toEqual([
      '{',
      '  "1f44d": ["+1", "thumbs_up", "like"],',
      '  "1f600": [',
    ]);
    expect(JSON.parse(json)).toEqual({
      '1f44d': ['+1', 'thumbs_up', 'like'],
      '1f600': long.slice(1),
    });
  });

  it('has written the committed table in its own layout', () => {
    const text = fs.readFileSync(EMOJI_NAMES_PATH, 'utf8');
    const entries = Object.entries(JSON.parse(text) as Record<string, string[]>).map(
      ([code, names]) => [code, ...names],
    );
    expect(entries.length).toBeGreaterThan(1800);
    // Object.entries puts integer-like codes (2764) first; the file keeps the source's order.
    const order = [...text.matchAll(/^ {2}"([^"]+)": \[/gm)].map((m) => m[1]);
    const byCode = new Map(entries.map((e) => [e[0], e]));
    expect(emojiNamesJson(order.map((code) => byCode.get(code!)!))).toBe(text);
  });
});
