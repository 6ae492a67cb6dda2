import { describe, expect, it } from 'vitest';
import { shortUserAgent } from '../actions/mail.js';

describe('the client a login mail names', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox (Linux)'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      'Chrome (Linux)',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0',
      'Edge (Windows)',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Safari (iOS)',
    ],
    ['ZulipTerminal/0.7.0 Linux', 'ZulipTerminal 0.7.0 (Linux)'],
    ['', 'unknown'],
  ])('%s is %s', (userAgent, name) => {
    expect(shortUserAgent(userAgent)).toBe(name);
  });
});
