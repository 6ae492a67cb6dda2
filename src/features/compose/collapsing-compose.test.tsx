import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useComposeRequests } from '../../model/compose-request';
import { eg } from '../../test/eg';
import { renderComposeBox } from './render-compose.test-helper';

/** A window as narrow as a phone: the stylesheets' phone query matches. */
function phoneWindow() {
  vi.stubGlobal('matchMedia', (media: string) => ({
    matches: media === '(max-width: 760px)',
    media,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

const folded = () => screen.getByRole('button', { name: 'Message #general › lunch' });
const field = () => screen.queryByRole('textbox', { name: 'Message' });

describe('the compose box on a phone', () => {
  beforeEach(phoneWindow);
  afterEach(() => {
    vi.unstubAllGlobals();
    useComposeRequests.setState({ latest: null });
  });

  it('is one button saying where the message goes, until tapped; then the cursor is in the message', () => {
    renderComposeBox(eg.registerResponse());
    expect(field()).toBeNull();
    fireEvent.click(folded());
    expect(field()).not.toBeNull();
    expect(document.activeElement).toBe(field());
  });

  it('folds on Escape while empty, back to its button, but not with text in it', () => {
    renderComposeBox(eg.registerResponse());
    fireEvent.click(folded());
    fireEvent.change(field()!, { target: { value: 'Half a thought' } });
    fireEvent.keyDown(field()!, { key: 'Escape' });
    expect(field()).not.toBeNull();
    fireEvent.change(field()!, { target: { value: '' } });
    fireEvent.keyDown(field()!, { key: 'Escape' });
    expect(field()).toBeNull();
    expect(document.activeElement).toBe(folded());
  });

  it('folds with its close button, keeping the draft for the next time', () => {
    renderComposeBox(eg.registerResponse());
    fireEvent.click(folded());
    fireEvent.change(field()!, { target: { value: 'Half a thought' } });
    fireEvent.click(screen.getByRole('button', { name: 'Close the compose box' }));
    expect(field()).toBeNull();
    fireEvent.click(folded());
    expect(field()!).toHaveProperty('value', 'Half a thought');
  });

  it('opens for a compose request (a reply, a quote, C), the cursor where it asks', () => {
    renderComposeBox(eg.registerResponse());
    act(() =>
      useComposeRequests.getState().request({ to: null, insert: '> quoted', focus: 'content' }),
    );
    expect(document.activeElement).toBe(field());
    expect(field()!).toHaveProperty('value', '> quoted');
  });
});

describe('the compose box on a desktop', () => {
  it('is always open, with no close button', () => {
    renderComposeBox(eg.registerResponse());
    expect(field()).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Close the compose box' })).toBeNull();
  });
});
