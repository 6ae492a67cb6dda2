import { describe, expect, it } from 'vitest';
import { absoluteUrl, mentionOf, quoteBlock, unusedFence } from './quote';

describe('unusedFence', () => {
  it('is three backticks for text without fences', () => {
    expect(unusedFence('hello `code` there')).toBe('```');
  });

  it('is longer than the longest fence inside', () => {
    expect(unusedFence('```js\nx\n```')).toBe('````');
    expect(unusedFence('a\n  `````\nb\n`````')).toBe('``````');
  });

  it('ignores backtick runs that do not start a line (or are indented as code)', () => {
    expect(unusedFence('inline ```` run')).toBe('```');
    expect(unusedFence('    ````\nindented code')).toBe('```');
  });
});

describe('quoteBlock', () => {
  const othello = { name: 'Othello, the Moor of Venice', id: 12 };
  const link = 'http://127.0.0.1:9991/narrow/channel/5-general/topic/lunch/near/42';

  it('names the sender silently, links the message and quotes the raw content', () => {
    expect(quoteBlock(othello, link, 'Hello **world**')).toBe(
      `@_**Othello, the Moor of Venice|12** [said](${link}):\n\`\`\`quote\nHello **world**\n\`\`\`\n`,
    );
  });

  it('uses a longer fence around content holding a code block', () => {
    const block = quoteBlock(othello, link, 'see:\n```py\nprint(1)\n```');
    expect(block).toContain('\n````quote\nsee:\n```py\nprint(1)\n```\n````\n');
  });
});

describe('mentionOf', () => {
  it('mentions by name and id', () => {
    expect(mentionOf({ name: 'Iago', id: 3 })).toBe('@**Iago|3** ');
  });
});

describe('absoluteUrl', () => {
  it('puts the origin in front of an app path', () => {
    expect(absoluteUrl('/narrow/dm/8,9/near/43', 'https://chat.example.com')).toBe(
      'https://chat.example.com/narrow/dm/8,9/near/43',
    );
  });
});
