import { useInfiniteQuery } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Message, Submessage } from '../../api/model';
import { parseEvent } from '../../api/parse-event';
import { useSessionCore } from '../../model/session-core';
import { topicNarrow } from '../../narrow';
import { firstPageParam, messageKeys, messageListQuery } from '../../queries/messages';
import { eg } from '../../test/eg';
import { fakeSession } from '../../test/fake-session';
import { MessageItem } from '../message-list/MessageItem';

const ME = eg.selfUser.user_id;
const OTHER = eg.otherUser.user_id;
const THIRD = eg.thirdUser.user_id;
const LUNCH = topicNarrow(eg.generalStream.stream_id, 'lunch');

let nextSubmessageId = 1;
function submessage(messageId: number, senderId: number, content: unknown): Submessage {
  return {
    id: nextSubmessageId++,
    message_id: messageId,
    sender_id: senderId,
    msg_type: 'widget',
    content: JSON.stringify(content),
  };
}

function widgetMessage(
  widget: unknown,
  { sender = OTHER, events = [] as [number, unknown][], id = 42 } = {},
): Message {
  return eg.streamMessage({
    id,
    sender_id: sender,
    sender_full_name: sender === ME ? eg.selfUser.full_name : eg.otherUser.full_name,
    subject: 'lunch',
    flags: ['read'],
    content: '<p>/poll raw text that the widget replaces</p>',
    submessages: [
      submessage(id, sender, widget),
      ...events.map(([from, event]) => submessage(id, from, event)),
    ],
  });
}

const lunchPoll = {
  widget_type: 'poll',
  extra_data: { question: 'Where?', options: ['Pizza', 'Sushi'] },
};

/** The message list's rows for LUNCH, read from the query cache as the feed reads them. */
function LunchRows() {
  const query = useInfiniteQuery(messageListQuery(useSessionCore().connection, LUNCH));
  const messages = query.data?.pages.flatMap((page) => page.messages) ?? [];
  return (
    <>
      {messages.map((message) => (
        <MessageItem
          key={message.id}
          message={message}
          showSender
          ownUserId={ME}
          twentyFourHour={false}
          onToggleStar={() => {}}
          onRetry={() => {}}
          onCancel={() => {}}
          canEdit={false}
          canDelete={false}
          editing={false}
          onEdit={() => {}}
          onDelete={async () => null}
          users={{ [ME]: eg.selfUser, [OTHER]: eg.otherUser, [THIRD]: eg.thirdUser }}
          showReactionNames
          onToggleReaction={() => {}}
          mutedSender={false}
          readOnly={false}
        />
      ))}
    </>
  );
}

function renderMessages(...messages: Message[]) {
  const session = fakeSession();
  session.queryClient.setQueryData(messageKeys.list(LUNCH), {
    pages: [{ messages, foundOldest: true, foundNewest: true, anchor: messages[0].id }],
    pageParams: [firstPageParam],
  });
  const Wrapper = session.wrapper;
  render(<LunchRows />, {
    wrapper: ({ children }: { children: ReactNode }) => (
      <MemoryRouter>
        <Wrapper>{children}</Wrapper>
      </MemoryRouter>
    ),
  });
  return session;
}

/** The widget event the last request sent, as the server reads it. */
function sentSubmessage(fake: ReturnType<typeof fakeSession>['fake']) {
  const request = fake.last;
  expect(request.method).toBe('POST');
  expect(request.path).toBe('/api/v1/submessage');
  expect(request.body.get('msg_type')).toBe('widget');
  return {
    messageId: Number(request.body.get('message_id')),
    event: JSON.parse(request.body.get('content')!) as unknown,
  };
}

const voteButton = (option: string) =>
  screen.getByRole('button', { name: new RegExp(`^Vote for “${option}”`) });

describe('a poll in the message list', () => {
  it('replaces the message text with the question, options, counts and voters', () => {
    renderMessages(
      widgetMessage(lunchPoll, {
        events: [
          [OTHER, { type: 'vote', key: 'canned,0', vote: 1 }],
          [THIRD, { type: 'vote', key: 'canned,0', vote: 1 }],
        ],
      }),
    );
    expect(screen.queryByText(/raw text/)).toBeNull();
    const widget = screen.getByRole('group', { name: 'Where?' });
    expect(voteButton('Pizza').getAttribute('aria-label')).toBe('Vote for “Pizza”, 2 votes');
    expect(voteButton('Pizza').getAttribute('aria-pressed')).toBe('false');
    expect(voteButton('Pizza').title).toBe('Other User, Third User');
    expect(within(widget).getByText('Other User, Third User')).toBeTruthy();
    expect(voteButton('Sushi').textContent).toBe('0');
    // Only the author may change the question.
    expect(screen.queryByRole('button', { name: 'Edit question' })).toBeNull();
  });

  it('votes with POST /submessage, shows the vote at once, and takes it back the same way', async () => {
    const { fake } = renderMessages(
      widgetMessage(lunchPoll, { events: [[ME, { type: 'vote', key: 'canned,1', vote: 1 }]] }),
    );
    fake.respond({}).respond({});
    fireEvent.click(voteButton('Pizza'));
    expect(voteButton('Pizza').getAttribute('aria-pressed')).toBe('true');
    expect(voteButton('Pizza').textContent).toBe('1');
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(sentSubmessage(fake)).toEqual({
      messageId: 42,
      event: { type: 'vote', key: 'canned,0', vote: 1 },
    });
    fireEvent.click(voteButton('Sushi'));
    await waitFor(() => expect(fake.requests).toHaveLength(2));
    expect(sentSubmessage(fake).event).toEqual({ type: 'vote', key: 'canned,1', vote: -1 });
  });

  it('takes back a vote pressed twice before the server answered', async () => {
    const { fake } = renderMessages(widgetMessage(lunchPoll));
    let answer: () => void = () => {};
    fake.respondWith(
      () =>
        new Promise((resolve) => (answer = () => resolve(Response.json({ result: 'success' })))),
    );
    fake.respond({});
    fireEvent.click(voteButton('Pizza'));
    fireEvent.click(voteButton('Pizza'));
    expect(voteButton('Pizza').getAttribute('aria-pressed')).toBe('false');
    await waitFor(() => expect(fake.requests).toHaveLength(2));
    const events = fake.requests.map((r) => JSON.parse(r.body.get('content')!) as unknown);
    expect(events).toEqual([
      { type: 'vote', key: 'canned,0', vote: 1 },
      { type: 'vote', key: 'canned,0', vote: -1 },
    ]);
    answer();
  });

  it('adds an option with Enter, numbered after the own options seen', async () => {
    const { fake } = renderMessages(
      widgetMessage(lunchPoll, { events: [[ME, { type: 'new_option', idx: 2, option: 'Tea' }]] }),
    );
    fake.respond({});
    const field = screen.getByRole('textbox', { name: 'New option' });
    fireEvent.change(field, { target: { value: '  Tacos ' } });
    fireEvent.submit(field);
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(sentSubmessage(fake).event).toEqual({ type: 'new_option', idx: 3, option: 'Tacos' });
    await waitFor(() => expect((field as HTMLInputElement).value).toBe(''));
  });

  it('refuses an option the poll has already, without asking the server', () => {
    const { fake } = renderMessages(widgetMessage(lunchPoll));
    const field = screen.getByRole('textbox', { name: 'New option' });
    fireEvent.change(field, { target: { value: 'Sushi' } });
    fireEvent.submit(field);
    expect(fake.requests).toHaveLength(0);
    expect(screen.getByRole('status').textContent).toBe('This option is in the poll already.');
  });

  it('lets its author change the question inline', async () => {
    const { fake } = renderMessages(widgetMessage(lunchPoll, { sender: ME }));
    fake.respond({});
    fireEvent.click(screen.getByRole('button', { name: 'Edit question' }));
    const field = screen.getByRole('textbox', { name: 'Poll question' });
    expect((field as HTMLInputElement).value).toBe('Where?');
    fireEvent.change(field, { target: { value: 'Where for lunch?' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(sentSubmessage(fake).event).toEqual({ type: 'question', question: 'Where for lunch?' });
    await waitFor(() =>
      expect(screen.queryByRole('textbox', { name: 'Poll question' })).toBeNull(),
    );
  });

  it('says quietly what the server refused', async () => {
    const { fake } = renderMessages(widgetMessage(lunchPoll));
    fake.respondError('BAD_REQUEST', 'You cannot attach a submessage to this message.');
    fireEvent.click(voteButton('Sushi'));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'You cannot attach a submessage to this message.',
      ),
    );
    // The vote shown early goes away again.
    expect(voteButton('Sushi').getAttribute('aria-pressed')).toBe('false');
  });

  it('updates live from the submessage event, once however often it comes', async () => {
    const session = renderMessages(widgetMessage(lunchPoll));
    const event = (id: number, submessageId: number, senderId: number, content: string) =>
      parseEvent({
        id,
        type: 'submessage',
        msg_type: 'widget',
        message_id: 42,
        submessage_id: submessageId,
        sender_id: senderId,
        content,
      });
    const vote = (key: string) => JSON.stringify({ type: 'vote', key, vote: 1 });
    act(() => session.session.caches.eventsReceived([event(7, 9000, THIRD, vote('canned,1'))], ME));
    await waitFor(() => expect(voteButton('Sushi').textContent).toBe('1'));
    const again = [
      event(8, 9000, THIRD, vote('canned,1')),
      event(9, 9001, THIRD, '{"type":"vote","key":'),
      event(10, 9002, ME, vote('canned,0')),
    ];
    act(() => session.session.caches.eventsReceived(again, ME));
    await waitFor(() => expect(voteButton('Pizza').getAttribute('aria-pressed')).toBe('true'));
    expect(voteButton('Sushi').textContent).toBe('1');
  });

  it('shows a message whose widget cannot be read as its text', () => {
    const broken = widgetMessage({ widget_type: 'poll', extra_data: { options: 'Pizza' } });
    renderMessages(broken);
    expect(screen.getByText(/raw text/)).toBeTruthy();
  });
});

const launchList = {
  widget_type: 'todo',
  extra_data: { task_list_title: 'Launch', tasks: [{ task: 'Write notes', desc: 'by Friday' }] },
};

describe('a to-do list in the message list', () => {
  it('shows the tasks with checkboxes, and a default title when it has none', () => {
    renderMessages(
      widgetMessage(launchList, { events: [[THIRD, { type: 'strike', key: '0,canned' }]] }),
      widgetMessage({ widget_type: 'todo', extra_data: { tasks: [] } }, { id: 43 }),
    );
    const launch = screen.getByRole('group', { name: 'Launch' });
    const box = within(launch).getByRole('checkbox', { name: 'Write notes' });
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(box.getAttribute('aria-describedby')).toBe(within(launch).getByText('by Friday').id);
    expect(screen.getByRole('group', { name: 'Task list' })).toBeTruthy();
  });

  it('ticks a task for everyone with a strike', async () => {
    const { fake } = renderMessages(widgetMessage(launchList));
    fake.respond({});
    const box = screen.getByRole('checkbox', { name: 'Write notes' });
    fireEvent.click(box);
    expect((box as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(sentSubmessage(fake)).toEqual({
      messageId: 42,
      event: { type: 'strike', key: '0,canned' },
    });
  });

  it('adds a task with its description by pressing Enter', async () => {
    const { fake } = renderMessages(widgetMessage(launchList));
    fake.respond({});
    const task = screen.getByRole('textbox', { name: 'New task' });
    fireEvent.change(task, { target: { value: 'Book room' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Task description (optional)' }), {
      target: { value: 'the big one' },
    });
    fireEvent.submit(task);
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(sentSubmessage(fake).event).toEqual({
      type: 'new_task',
      key: 2,
      task: 'Book room',
      desc: 'the big one',
      completed: false,
    });
  });

  it('lets its author rename it', async () => {
    const { fake } = renderMessages(widgetMessage(launchList, { sender: ME }));
    fake.respond({});
    fireEvent.click(screen.getByRole('button', { name: 'Edit title' }));
    const field = screen.getByRole('textbox', { name: 'Task list title' });
    fireEvent.change(field, { target: { value: 'Launch day' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(sentSubmessage(fake).event).toEqual({
      type: 'new_task_list_title',
      title: 'Launch day',
    });
  });
});

describe('a bot’s form in the message list', () => {
  const form = {
    widget_type: 'zform',
    extra_data: {
      type: 'choices',
      heading: 'What now?',
      choices: [
        { short_name: 'A', long_name: 'Open a ticket', reply: 'new ticket' },
        { short_name: 'B', long_name: 'Close it', reply: 'close' },
      ],
    },
  };

  it('sends the choice’s reply to the conversation, mentioning the bot in a channel', async () => {
    const { fake } = renderMessages(widgetMessage(form));
    fake.respond({ id: 99 });
    const group = screen.getByRole('group', { name: 'What now?' });
    const choice = within(group).getByRole('button', { name: 'A' });
    expect(choice.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(group).getByText('Open a ticket')).toBeTruthy();
    fireEvent.click(choice);
    await waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(fake.last.path).toBe('/api/v1/messages');
    expect(Object.fromEntries(fake.last.body)).toMatchObject({
      type: 'stream',
      to: String(eg.generalStream.stream_id),
      topic: 'lunch',
      content: '@**Other User** new ticket',
    });
  });
});
