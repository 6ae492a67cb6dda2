/** Test helper: the real compose box in a topic of `general`, on a fake session. */
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import type { RegisterResponse } from '../../api/model';
import { createComposeDraftsStore } from '../../model/compose-drafts';
import type { AccountSession } from '../../model/session';
import { SessionContext } from '../../model/session-context';
import { topicNarrow } from '../../narrow';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { ComposeBox } from './ComposeBox';

/** Renders the compose box for `register`'s account and answers its message field. */
export function renderCompose(register: RegisterResponse): HTMLTextAreaElement {
  renderComposeBox(register);
  return screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
}

/** Renders the compose box for `register`'s account. */
export function renderComposeBox(register: RegisterResponse): void {
  const core = fakeSession(register);
  const app = {
    ...core.session,
    composeDrafts: createComposeDraftsStore('self@example.com', null),
  } as unknown as AccountSession;
  const Wrapper = core.wrapper;
  render(<ComposeBox narrow={topicNarrow(eg.generalStream.stream_id, 'lunch')} />, {
    wrapper: ({ children }: { children: ReactNode }) => (
      <MemoryRouter>
        <SessionContext.Provider value={app}>
          <Wrapper>{children}</Wrapper>
        </SessionContext.Provider>
      </MemoryRouter>
    ),
  });
}
