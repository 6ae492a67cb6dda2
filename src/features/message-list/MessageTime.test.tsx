import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageTime } from './MessageTime';

afterEach(cleanup);

describe('MessageTime', () => {
  it("links to the message's permalink, named for what it is", () => {
    render(
      <MemoryRouter>
        <MessageTime
          timestamp={1_700_000_000}
          time="3:04 PM"
          permalink="/narrow/channel/5-general/topic/lunch/near/42"
        />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Permalink to message, 3:04 PM' });
    expect(link.getAttribute('href')).toBe('/narrow/channel/5-general/topic/lunch/near/42');
    expect(link.querySelector('time')?.getAttribute('datetime')).toBe('2023-11-14T22:13:20.000Z');
  });

  it('is plain while the message is being sent', () => {
    render(
      <MemoryRouter>
        <MessageTime timestamp={1_700_000_000} time="3:04 PM" permalink={null} className="x" />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('3:04 PM').className).toBe('x');
  });
});
