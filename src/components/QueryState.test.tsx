import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiConnection } from '../api/connection';
import { FakeFetch } from '../test/fake-fetch';
import { QueryState } from './QueryState';

function Topics({ connection }: { connection: ApiConnection }) {
  const query = useQuery({
    queryKey: ['topics', 1],
    queryFn: () => connection.request<{ topics: { name: string }[] }>('GET', '/users/me/1/topics'),
  });
  return (
    <QueryState query={query} loadingLabel="Loading topics…" errorTitle="Could not load topics">
      {(data) => <p>{data.topics.map((t) => t.name).join(', ')}</p>}
    </QueryState>
  );
}

describe('QueryState', () => {
  it('shows loading, then the failure with a retry that fetches again', async () => {
    const fake = new FakeFetch()
      .respondError('BAD_REQUEST', 'Invalid stream ID')
      .respond({ topics: [{ name: 'lunch' }] });
    const connection = new ApiConnection({
      baseUrl: 'http://parley.test/api/v1',
      fetch: fake.fetch,
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <Topics connection={connection} />
      </QueryClientProvider>,
    );

    expect(screen.getByRole('status').textContent).toContain('Loading topics…');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load topics');
    expect(alert.textContent).toContain('Invalid stream ID');

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('lunch')).toBeTruthy();
    expect(fake.requests).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
