import { describe, expect, it } from 'vitest';
import { applyCompletion, insertAtCaret, typeaheadTokenAt } from './typeahead';

const tokenAtEnd = (text: string) => typeaheadTokenAt(text, text.length);

describe('the token before the caret', () => {
  it('finds mentions, silent ones and names with spaces', () => {
    expect(tokenAtEnd('hi @ha')).toEqual({ kind: 'mention', start: 3, query: 'ha', silent: false });
    expect(tokenAtEnd('@')).toEqual({ kind: 'mention', start: 0, query: '', silent: false });
    expect(tokenAtEnd('hi @_oth')).toEqual({
      kind: 'mention',
      start: 3,
      query: 'oth',
      silent: true,
    });
    expect(tokenAtEnd('(@King Ha')).toMatchObject({ kind: 'mention', start: 1, query: 'King Ha' });
    expect(tokenAtEnd('mail me@example')).toBeNull();
    expect(tokenAtEnd('@King  ')).toBeNull();
    expect(tokenAtEnd('no mention')).toBeNull();
  });

  it('finds channels, then topics after ">"', () => {
    expect(tokenAtEnd('see #gen')).toEqual({ kind: 'channel', start: 4, query: 'gen' });
    expect(tokenAtEnd('#')).toEqual({ kind: 'channel', start: 0, query: '' });
    expect(tokenAtEnd('see #**general**>lun')).toEqual({
      kind: 'topic',
      start: 4,
      channel: 'general',
      query: 'lun',
    });
    expect(tokenAtEnd('#design team>')).toEqual({
      kind: 'topic',
      start: 0,
      channel: 'design team',
      query: '',
    });
    // A finished link and a heading start nothing.
    expect(tokenAtEnd('#**general** ')).toBeNull();
    expect(tokenAtEnd('# Heading')).toBeNull();
    expect(tokenAtEnd('issue a#1')).toBeNull();
  });

  it('finds emoji from two characters on, not times of day', () => {
    expect(tokenAtEnd('yay :ta')).toEqual({ kind: 'emoji', start: 4, query: 'ta' });
    expect(tokenAtEnd('yay :t')).toBeNull();
    expect(tokenAtEnd('at 12:30')).toBeNull();
    expect(tokenAtEnd(':+1')).toEqual({ kind: 'emoji', start: 0, query: '+1' });
  });

  it('reads only up to the caret', () => {
    expect(typeaheadTokenAt('@ham and more', 4)).toMatchObject({ kind: 'mention', query: 'ham' });
  });
});

describe('completing', () => {
  const complete = (text: string, completion: Parameters<typeof applyCompletion>[3]) =>
    applyCompletion(text, tokenAtEnd(text)!, text.length, completion);

  it('writes mentions as the reference app does', () => {
    const user = { kind: 'user', fullName: 'King Hamlet', userId: 8, ambiguous: false } as const;
    expect(complete('hi @ham', user)).toEqual({
      text: 'hi @**King Hamlet** ',
      caret: 'hi @**King Hamlet** '.length,
    });
    expect(complete('@ham', { ...user, ambiguous: true }).text).toBe('@**King Hamlet|8** ');
    expect(complete('@_ham', user).text).toBe('@_**King Hamlet** ');
    expect(complete('@sha', { kind: 'group', name: 'shakespeare fans' }).text).toBe(
      '@*shakespeare fans* ',
    );
    expect(complete('@_sha', { kind: 'group', name: 'fans' }).text).toBe('@_*fans* ');
    expect(complete('@al', { kind: 'wildcard', name: 'all' }).text).toBe('@**all** ');
  });

  it('links channels without a space, so ">" can follow, and topics with one', () => {
    expect(complete('#gen', { kind: 'channel', name: 'general' })).toEqual({
      text: '#**general**',
      caret: 12,
    });
    expect(
      complete('#**general**>lu', { kind: 'topic', channel: 'general', topic: 'lunch' }).text,
    ).toBe('#**general>lunch** ');
  });

  it('inserts emoji and keeps the text after the caret', () => {
    const text = 'yay :ta and more';
    const result = applyCompletion(text, typeaheadTokenAt(text, 7)!, 7, {
      kind: 'emoji',
      name: 'tada',
    });
    expect(result.text).toBe('yay :tada: and more');
    expect(result.caret).toBe('yay :tada: '.length);
  });

  it('inserts at the caret with spaces where words would touch', () => {
    expect(insertAtCaret('hello', 5, ':tada:')).toEqual({ text: 'hello :tada: ', caret: 13 });
    expect(insertAtCaret('', 0, ':tada:')).toEqual({ text: ':tada: ', caret: 7 });
    expect(insertAtCaret('a b', 2, ':x:').text).toBe('a :x: b');
  });
});
