import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { EmojiPicker } from './EmojiPicker';
import { recentEmojiNames } from './emoji-data';

// Queries by role are slow over two thousand buttons in jsdom: these go by the same labels.
const parrot = {
  id: '3',
  name: 'party_parrot',
  source_url: '/user_avatars/1/emoji/images/3.gif',
  deactivated: false,
};

async function renderPicker(chosen?: ReadonlySet<string>) {
  const { wrapper } = fakeSession(eg.registerResponse({ realm_emoji: { 3: parrot } }));
  const onPick = vi.fn();
  const onClose = vi.fn();
  render(<EmojiPicker label="Add emoji" onPick={onPick} onClose={onClose} chosen={chosen} />, {
    wrapper,
  });
  const dialog = screen.getByRole('dialog', { name: 'Add emoji' });
  const button = (label: string, within: Element = dialog) =>
    within.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
  const region = (label: string) => dialog.querySelector(`section[aria-label="${label}"]`)!;
  await waitFor(() => expect(button('grinning')).not.toBeNull());
  const search = dialog.querySelector<HTMLInputElement>('input[aria-label="Search emoji"]')!;
  return { onPick, onClose, dialog, button, region, search };
}

const labels = (container: Element, selector: string) =>
  [...container.querySelectorAll(selector)].map((b) => b.getAttribute('aria-label'));

describe('the emoji picker', { timeout: 20_000 }, () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('is a labelled dialog with categories, popular emoji and the custom ones', async () => {
    const { dialog, button, region, search } = await renderPicker();
    expect(document.activeElement).toBe(search);
    expect(labels(dialog, 'nav button')).toEqual([
      'Popular',
      'Smileys & Emotion',
      'People & Body',
      'Animals & Nature',
      'Food & Drink',
      'Activities',
      'Travel & Places',
      'Objects',
      'Symbols',
      'Flags',
      'Custom',
    ]);
    const image = button('party parrot', region('Custom'))?.querySelector('img');
    expect(image?.getAttribute('src')).toBe(parrot.source_url);
    expect(labels(region('Popular'), 'button')).toEqual([
      '+1',
      'tada',
      'smile',
      'heart',
      'working on it',
      'octopus',
    ]);
  });

  it('searches names and aliases; Enter picks the best match and remembers it', async () => {
    const { onPick, region, search } = await renderPicker();
    fireEvent.change(search, { target: { value: 'thumbs up' } });
    expect(labels(region('Search results'), 'button')[0]).toBe('+1');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ name: '+1', code: '1f44d' }));
    expect(recentEmojiNames()).toEqual(['+1']);
  });

  it("finds emoji by the reference's names", async () => {
    const { onPick, region, search } = await renderPicker();
    fireEvent.change(search, { target: { value: 'big_smile' } });
    expect(labels(region('Search results'), 'button')).toEqual(['big smile']);
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onPick).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'big_smile', code: '1f604' }),
    );
    fireEvent.change(search, { target: { value: 'smile' } });
    expect(labels(region('Search results'), 'button')[0]).toBe('smile');
  });

  it('marks the chosen emoji and closes on Escape', async () => {
    const { onClose, onPick, button, search } = await renderPicker(new Set(['tada']));
    expect(button('tada')?.getAttribute('aria-pressed')).toBe('true');
    expect(button('grinning')?.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button('tada')!);
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ name: 'tada' }));
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});
