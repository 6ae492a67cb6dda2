import { describe, expect, it } from 'vitest';
import { actionsAfterTap, tappedMessage } from './message-taps';

function message(): HTMLElement {
  document.body.innerHTML = `
    <div class="feed">
      <article data-message-id="7">
        <div class="message-header"><button class="message-sender">Othello</button></div>
        <div class="message-content"><p>Text with <a href="/x">a link</a></p></div>
        <div class="message-actions"><button aria-label="Star message"></button></div>
      </article>
      <p class="history-edge">The beginning</p>
    </div>`;
  return document.body;
}

describe('a tap in the feed', () => {
  it('on a message’s text or header is a tap on that message', () => {
    const root = message();
    expect(tappedMessage(root.querySelector('.message-content p')!, false)).toBe(7);
    expect(tappedMessage(root.querySelector('.message-header')!, false)).toBe(7);
  });

  it('on a link, a button, the actions, or one a message handled itself, leaves the actions be', () => {
    const root = message();
    expect(tappedMessage(root.querySelector('a')!, false)).toBe('inside');
    expect(tappedMessage(root.querySelector('.message-sender')!, false)).toBe('inside');
    expect(tappedMessage(root.querySelector('[aria-label="Star message"]')!, false)).toBe('inside');
    expect(tappedMessage(root.querySelector('.message-content p')!, true)).toBe('inside');
  });

  it('outside the messages is no message', () => {
    const root = message();
    expect(tappedMessage(root.querySelector('.history-edge')!, false)).toBeNull();
  });
});

describe('the actions after a tap', () => {
  it('show for the tapped message, go with a second tap or a tap elsewhere', () => {
    expect(actionsAfterTap(null, 7)).toBe(7);
    expect(actionsAfterTap(3, 7)).toBe(7);
    expect(actionsAfterTap(7, 7)).toBeNull();
    expect(actionsAfterTap(7, null)).toBeNull();
    expect(actionsAfterTap(7, 'inside')).toBe(7);
  });
});
