// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { isInOverlay, isShortcutEvent, isTypingTarget } from './keys';

function keydown(target: Element, init: KeyboardEventInit = {}) {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  Object.defineProperty(event, 'target', { value: target });
  return event;
}

describe('shortcut keys', () => {
  it('are ignored while typing and with Ctrl, Alt or Meta, but not with Shift', () => {
    const input = document.createElement('input');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const button = document.createElement('button');
    expect(isTypingTarget(input)).toBe(true);
    expect(isTypingTarget(checkbox)).toBe(false);
    expect(isShortcutEvent(keydown(button, { key: 'A', shiftKey: true }))).toBe(true);
    expect(isShortcutEvent(keydown(button, { key: 'a', ctrlKey: true }))).toBe(false);
    expect(isShortcutEvent(keydown(input, { key: 'a' }))).toBe(false);
  });

  it('belong to an open dialog or menu rather than to the page behind it', () => {
    const menu = document.createElement('div');
    menu.setAttribute('role', 'menu');
    const item = document.createElement('button');
    menu.append(item);
    const dialog = document.createElement('dialog');
    const close = document.createElement('button');
    dialog.append(close);
    expect(isInOverlay(item)).toBe(true);
    expect(isInOverlay(close)).toBe(true);
    expect(isShortcutEvent(keydown(item, { key: 'j' }))).toBe(false);
    expect(isInOverlay(document.createElement('button'))).toBe(false);
  });
});
