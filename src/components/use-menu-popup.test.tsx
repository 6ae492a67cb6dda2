import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useMenuPopup, type MenuPopupOptions } from './use-menu-popup';

afterEach(cleanup);

/** The smallest menu button: three items, the middle one a radio like a colour swatch. */
function Menu(options: MenuPopupOptions) {
  const popup = useMenuPopup(options);
  return (
    <div>
      <div ref={popup.root}>
        <button
          ref={popup.button}
          type="button"
          aria-haspopup="menu"
          aria-expanded={popup.open}
          onClick={popup.onButtonClick}
          onKeyDown={popup.onButtonKey}
        >
          More
        </button>
        {popup.open && (
          <div role="menu" onKeyDown={popup.onMenuKey}>
            <button type="button" role="menuitem">
              First
            </button>
            <button type="button" role="menuitemradio" aria-checked="false">
              Second
            </button>
            <button type="button" role="menuitem" onClick={popup.close}>
              Third
            </button>
          </div>
        )}
      </div>
      <p>Outside</p>
    </div>
  );
}

const focused = () => (document.activeElement as HTMLElement).textContent;
const key = (name: string) => fireEvent.keyDown(screen.getByRole('menu'), { key: name });

describe('a menu button', () => {
  it('opens from the keyboard on the first item, and arrows move and wrap', () => {
    render(<Menu />);
    fireEvent.keyDown(screen.getByRole('button', { name: 'More' }), { key: 'ArrowDown' });
    expect(screen.getByRole('button', { name: 'More' }).getAttribute('aria-expanded')).toBe('true');
    expect(focused()).toBe('First');
    key('ArrowDown');
    expect(focused()).toBe('Second');
    key('ArrowDown');
    key('ArrowDown');
    expect(focused()).toBe('First');
    key('ArrowUp');
    expect(focused()).toBe('Third');
    key('Home');
    expect(focused()).toBe('First');
    key('End');
    expect(focused()).toBe('Third');
  });

  it('moves with left and right only where items sit side by side', () => {
    render(<Menu />);
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    key('ArrowRight');
    expect(focused()).toBe('First');
    cleanup();

    render(<Menu arrowsAcross />);
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    key('ArrowRight');
    expect(focused()).toBe('Second');
    key('ArrowLeft');
    key('ArrowLeft');
    expect(focused()).toBe('Third');
  });

  it('closes on Escape with focus back on the button, and on a click outside', () => {
    render(<Menu />);
    const button = screen.getByRole('button', { name: 'More' });
    fireEvent.click(button);
    key('Escape');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    expect(screen.getByRole('menu')).toBeTruthy();
    fireEvent.mouseDown(screen.getByText('Outside'));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes when Tab takes focus away, and toggles on clicks', () => {
    render(<Menu />);
    const button = screen.getByRole('button', { name: 'More' });
    fireEvent.click(button);
    key('Tab');
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    fireEvent.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
