import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeSession } from '../test/fake-session';
import { useRenderMessage } from './compose';

describe('useRenderMessage', () => {
  it('posts the draft to /messages/render and answers its HTML', async () => {
    const { fake, wrapper } = fakeSession();
    fake.respond({ rendered: '<p><strong>bold</strong></p>' });
    const { result } = renderHook(() => useRenderMessage(), { wrapper });

    act(() => result.current.mutate('**bold**'));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBe('<p><strong>bold</strong></p>');
    expect(fake.last.method).toBe('POST');
    expect(fake.last.path).toBe('/api/v1/messages/render');
    expect(fake.last.body.get('content')).toBe('**bold**');
  });
});
